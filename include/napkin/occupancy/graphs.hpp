// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/graphs.hpp — Nsight Compute's three occupancy graphs ("Impact of Varying Block Size",
// "... Register Count Per Thread", "... Shared Memory Usage Per Block"), as constexpr data: the active
// warps at each value of one quantity, everything else unchanged.
#pragma once

#include "napkin/occupancy/calculator.hpp"

#include <array>
#include <cstddef>

NAPKIN_BEGIN_NAMESPACE

struct graph_point {
  int x = 0;             // block size, registers per thread, or shared memory per block (bytes)
  int active_warps = 0;  // warps per SM at x, everything else unchanged (0: cannot launch)
  int blocks_per_sm = 0;
};

template <std::size_t Capacity>
struct occupancy_graph {
  const char* x_label = "";
  int max_warps_per_sm = 0;
  graph_point current{};  // the launch itself
  std::array<graph_point, Capacity> points{};
  std::size_t size = 0;

  constexpr const graph_point* begin() const { return points.data(); }
  constexpr const graph_point* end() const { return points.data() + size; }
  constexpr void push(graph_point p) { points[size++] = p; }
};

namespace detail {
constexpr graph_point point_of(int x, const occupancy_result& r) {
  return {x, r.valid() ? r.active_warps() : 0, r.valid() ? r.blocks_per_sm : 0};
}

// Where a graph's launch sits on its x axis, and the axis: first, first + step, ... up to last (at most
// the graph's capacity of points).
struct graph_axis {
  int current = 0;
  int first = 0;
  int last = 0;
  int step = 1;
};

// What the three graphs share. The launch is checked first (an error like occupancy()'s), and only then
// is `axis()` called, so that it may add the launch's sizes and divide by the limits' fields; then each
// x of the axis gets `occupancy_at(x)`.
template <std::size_t Capacity, class Axis, class OccupancyAt>
constexpr occupancy_graph<Capacity> graph_of(const char* x_label, const sm_limits& l, int threads,
                                             const kernel_resources& k, int dynamic_smem, Axis axis,
                                             OccupancyAt occupancy_at) {
  const occupancy_result now = occupancy(l, threads, k, dynamic_smem);
  const graph_axis a = axis();
  occupancy_graph<Capacity> g{};
  g.x_label = x_label;
  g.current = point_of(a.current, now);
  g.max_warps_per_sm = l.max_warps_per_sm();
  for (int x = a.first; x <= a.last && g.size < Capacity; x += a.step) g.push(point_of(x, occupancy_at(x)));
  return g;
}
}  // namespace detail

// "Impact of Varying Block Size": warp size, 2x warp size, ... up to the device's (or kernel's) limit.
constexpr occupancy_graph<64> graph_block_size(const sm_limits& l, int threads, const kernel_resources& k,
                                               int dynamic_smem = 0) {
  return detail::graph_of<64>(
      "threads per block", l, threads, k, dynamic_smem,
      [&] { return detail::graph_axis{threads, l.warp_size, detail::thread_limit(l, k), l.warp_size}; },
      [&](int size) { return detail::occupancy_of(l, size, k, dynamic_smem); });
}

// "Impact of Varying Register Count Per Thread": 0 .. the architecture's maximum.
constexpr occupancy_graph<256> graph_registers(const sm_limits& l, int threads, const kernel_resources& k,
                                               int dynamic_smem = 0) {
  return detail::graph_of<256>(
      "registers per thread", l, threads, k, dynamic_smem,
      [&] { return detail::graph_axis{k.registers_per_thread, 0, l.max_registers_per_thread, 1}; },
      [&](int regs) {
        kernel_resources other = k;
        other.registers_per_thread = regs;
        return detail::occupancy_of(l, threads, other, dynamic_smem);
      });
}

// "Impact of Varying Shared Memory Usage Per Block": static + dynamic bytes from 0 to the opt-in limit, at
// every allocation unit (occupancy only changes there), assuming the kernel opts in as needed. When that
// is more than 2048 points (no GPU so far: H100 has 1817), at every k-th unit, k as small as fits.
constexpr occupancy_graph<2048> graph_shared_memory(const sm_limits& l, int threads, const kernel_resources& k,
                                                    int dynamic_smem = 0) {
  kernel_resources opted_in = k;  // x is static + dynamic bytes: all of it dynamic, opted in as needed
  opted_in.static_smem = 0;
  opted_in.max_dynamic_smem = opt_in_as_needed;
  return detail::graph_of<2048>(
      "shared memory per block (bytes)", l, threads, k, dynamic_smem,
      [&] {
        const int units = l.smem_per_block_optin / l.smem_allocation_unit + 1;  // points at every unit
        const int step = detail::ceil_div(units, 2048) * l.smem_allocation_unit;
        return detail::graph_axis{k.static_smem + dynamic_smem, 0, l.smem_per_block_optin, step};
      },
      [&](int bytes) { return detail::occupancy_of(l, threads, opted_in, bytes); });
}

NAPKIN_END_NAMESPACE
