// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/nnls.hpp — non-negative least squares on normal equations, for the rate solve
// (monitor/rate_solver.hpp): Cholesky of a small symmetric positive definite matrix, and Lawson–Hanson's active-set
// method (Lawson and Hanson, "Solving Least Squares Problems", 1974, chapter 23) on G = A^T A and b = A^T r. Plain
// C++17.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// Cholesky of the n x n matrix `a` (row-major) in place; false when a pivot is not above 1e-13 of its diagonal
// entry: the column is then a combination of the earlier ones but for rounding (the rate solve's ridge of 1e-10
// stays above it, so a ridged matrix always factors).
inline bool rate_cholesky(std::vector<double>& a, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    const double floor = 1e-13 * d;
    for (std::size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > floor) || !(d > 0)) return false;
    a[j * n + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / a[j * n + j];
    }
  }
  return true;
}

inline std::vector<double> rate_cholesky_solve(const std::vector<double>& l, std::size_t n, std::vector<double> y) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < i; ++k) y[i] -= l[i * n + k] * y[k];
    y[i] /= l[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t k = i + 1; k < n; ++k) y[i] -= l[k * n + i] * y[k];
    y[i] /= l[i * n + i];
  }
  return y;
}

// min 0.5 x'Gx - b'x subject to x >= 0 (Lawson–Hanson active set on the normal equations). A column that makes the
// passive set singular is left at 0: the collinearity check refuses such classes anyway.
inline std::vector<double> rate_nnls(const std::vector<double>& g, const std::vector<double>& b, std::size_t n) {
  std::vector<double> x(n, 0.0);
  std::vector<char> passive(n, 0), barred(n, 0);
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(b[i]));
  const double tol = 1e-12 * (scale > 0 ? scale : 1.0);
  for (std::size_t outer = 0; outer < 3 * n + 10; ++outer) {
    std::size_t best = n;
    double best_w = tol;
    for (std::size_t j = 0; j < n; ++j) {
      if (passive[j] || barred[j]) continue;
      double w = b[j];
      for (std::size_t k = 0; k < n; ++k) w -= g[j * n + k] * x[k];
      if (w > best_w) best_w = w, best = j;
    }
    if (best == n) break;
    passive[best] = 1;
    for (std::size_t inner = 0; inner < 3 * n + 10; ++inner) {
      std::vector<std::size_t> p;
      for (std::size_t j = 0; j < n; ++j)
        if (passive[j]) p.push_back(j);
      std::vector<double> sub(p.size() * p.size()), rhs(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) {
        rhs[i] = b[p[i]];
        for (std::size_t k = 0; k < p.size(); ++k) sub[i * p.size() + k] = g[p[i] * n + p[k]];
      }
      if (!rate_cholesky(sub, p.size())) {  // `best` depends on the passive columns: bar it
        passive[best] = 0;
        barred[best] = 1;
        break;
      }
      const std::vector<double> z = rate_cholesky_solve(sub, p.size(), rhs);
      double alpha = 2;
      for (std::size_t i = 0; i < p.size(); ++i)
        if (z[i] <= 0) alpha = std::min(alpha, x[p[i]] / (x[p[i]] - z[i]));
      if (alpha > 1) {
        for (std::size_t i = 0; i < p.size(); ++i) x[p[i]] = z[i];
        break;
      }
      for (std::size_t i = 0; i < p.size(); ++i) {
        x[p[i]] += alpha * (z[i] - x[p[i]]);
        if (x[p[i]] <= 1e-15 * (1 + std::fabs(z[i]))) x[p[i]] = 0, passive[p[i]] = 0;
      }
    }
  }
  return x;
}

}  // namespace detail

NAPKIN_END_NAMESPACE
