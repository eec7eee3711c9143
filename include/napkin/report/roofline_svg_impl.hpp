// SPDX-License-Identifier: Apache-2.0
// A roofline chart as SVG (napkin/report/roofline_svg.hpp): the function bodies. Included by roofline_svg.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "napkin/report/roofline_svg.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/math/roofline.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (const unsigned cp = bidi_control_at(s, i); cp != 0) {
      const std::string shown = code_point_text(cp);
      out += "&lt;" + shown.substr(1, shown.size() - 2) + "&gt;";
      i += 2;
      continue;
    }
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        // C0 controls and DEL are shown as '?': no page renders them, and some terminals act on them.
        const bool control = (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') ||
                             ch == '\x7f';
        out += control ? '?' : ch;
    }
  }
  return out;
}

NAPKIN_DETAIL_FUNC std::string svg_number(double v) { return general(v); }

NAPKIN_DETAIL_FUNC std::string svg_px(double v) { return fixed(v, 2); }

NAPKIN_DETAIL_FUNC std::string svg_pipe_names(const std::vector<pipe>& pipes, std::string_view separator) {
  std::string s;
  for (pipe p : pipes) s += (s.empty() ? "" : std::string(separator)) + std::string(to_string(p));
  return s;
}

// A decade as a tick label: "0.01", "1", "1000"; 10^k beyond that (superscript).
NAPKIN_DETAIL_FUNC std::string svg_decade_label(int k, bool with_prefix) {
  if (with_prefix && k >= 0 && k < 21) {  // "1 k", "100 G": si()'s prefixes
    const si_scaled s = si_scale(std::pow(10.0, k));
    return fixed(s.value, 0) + (*s.prefix != '\0' ? std::string(" ") + s.prefix : std::string());
  }
  if (k >= -3 && k <= 3) return fixed(std::pow(10.0, k), std::max(0, -k));
  return "10<tspan dy=\"-6\" font-size=\"9\">" + std::to_string(k) + "</tspan>";
}

// Rough text width for placement (sans-serif averages ~0.55 em; 0.6 keeps labels inside the frame).
NAPKIN_DETAIL_FUNC double svg_text_width(std::string_view s, double font_px) {
  return 0.6 * font_px * static_cast<double>(s.size());
}

// Label boxes already drawn, so that a point's label can go where it covers none of them.
struct svg_box {
  double x0, y0, x1, y1;
  bool overlaps(const svg_box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

struct svg_plot_frame {
  double left, top, width, height;
  double lx0, lx1, ly0, ly1;  // log10 of the axis ranges
  double x(double intensity) const { return left + (std::log10(intensity) - lx0) / (lx1 - lx0) * width; }
  double y(double flops) const { return top + height - (std::log10(flops) - ly0) / (ly1 - ly0) * height; }
};

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_svg(const roofline_chart& c) {
  using detail::svg_number;
  using detail::svg_px;
  using detail::xml_escape;
  const roofline_layout l = layout_roofline(c);
  if (c.width < 320 || c.height < 240) detail::bad_roofline_input("the chart must be at least 320 x 240 pixels");
  const double W = c.width, H = c.height;
  const detail::svg_plot_frame f{84, 40, W - 84 - 24, H - 40 - 58, std::log10(l.x_min), std::log10(l.x_max),
                                 std::log10(l.y_min), std::log10(l.y_max)};
  const double right = f.left + f.width, bottom = f.top + f.height;
  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(c.width) + "\" height=\"" +
       std::to_string(c.height) + "\" viewBox=\"0 0 " + std::to_string(c.width) + " " + std::to_string(c.height) +
       "\" font-family=\"sans-serif\" font-size=\"12\" class=\"napkin-roofline\" data-gpu=\"" + xml_escape(c.gpu.name) +
       "\" data-x-min=\"" + svg_number(l.x_min) + "\" data-x-max=\"" + svg_number(l.x_max) + "\" data-y-min=\"" +
       svg_number(l.y_min) + "\" data-y-max=\"" + svg_number(l.y_max) + "\" data-plot-left=\"" + svg_px(f.left) +
       "\" data-plot-top=\"" + svg_px(f.top) + "\" data-plot-width=\"" + svg_px(f.width) + "\" data-plot-height=\"" +
       svg_px(f.height) + "\">\n";
  const std::string title = c.title.empty() ? "Roofline, " + std::string(c.gpu.name) : c.title;
  s += "<title>" + xml_escape(title) + "</title>\n";
  s += "<defs><marker id=\"napkin-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
       "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
       "fill=\"#333\"/></marker></defs>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  // A title wider than the picture is squeezed to fit rather than clipped.
  const bool squeeze = detail::svg_text_width(title, 15) > W - 16;
  s += "<text class=\"title\" x=\"" + svg_px(W / 2) +
       "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" "
       "font-weight=\"bold\"" +
       (squeeze ? " textLength=\"" + svg_px(W - 16) + "\" lengthAdjust=\"spacingAndGlyphs\"" : "") + ">" +
       xml_escape(title) + "</text>\n";
  s += "<rect class=\"plot-area\" x=\"" + svg_px(f.left) + "\" y=\"" + svg_px(f.top) + "\" width=\"" + svg_px(f.width) +
       "\" height=\"" + svg_px(f.height) + "\" fill=\"#fafafa\" stroke=\"#888\"/>\n";

  // Decade grid, ticks and labels; when decades crowd, every second or third is labelled.
  auto axis = [&](bool is_x) {
    const int k0 = static_cast<int>(std::lround(is_x ? f.lx0 : f.ly0));
    const int k1 = static_cast<int>(std::lround(is_x ? f.lx1 : f.ly1));
    const double per_decade = (is_x ? f.width : f.height) / std::max(1, k1 - k0);
    const int every = per_decade >= (is_x ? 44 : 22) ? 1 : per_decade >= (is_x ? 22 : 11) ? 2 : 3;
    for (int k = k0; k <= k1; ++k) {
      const double v = std::pow(10.0, k);
      const double p = is_x ? f.x(v) : f.y(v);
      const std::string axis_name = is_x ? "x" : "y";
      if (k != k0 && k != k1)
        s += "<line class=\"grid " + axis_name + "\" " +
             (is_x ? "x1=\"" + svg_px(p) + "\" x2=\"" + svg_px(p) + "\" y1=\"" + svg_px(f.top) + "\" y2=\"" +
                         svg_px(bottom)
                   : "x1=\"" + svg_px(f.left) + "\" x2=\"" + svg_px(right) + "\" y1=\"" + svg_px(p) + "\" y2=\"" +
                         svg_px(p)) +
             "\" stroke=\"#e2e2e2\" data-value=\"" + svg_number(v) + "\"/>\n";
      s += "<line class=\"tick " + axis_name + "\" " +
           (is_x ? "x1=\"" + svg_px(p) + "\" x2=\"" + svg_px(p) + "\" y1=\"" + svg_px(bottom) + "\" y2=\"" +
                       svg_px(bottom + 5)
                 : "x1=\"" + svg_px(f.left - 5) + "\" x2=\"" + svg_px(f.left) + "\" y1=\"" + svg_px(p) + "\" y2=\"" +
                       svg_px(p)) +
           "\" stroke=\"#555\" data-value=\"" + svg_number(v) + "\"/>\n";
      if ((k - k0) % every != 0) continue;
      s += "<text class=\"tick-label " + axis_name + "\" data-value=\"" + svg_number(v) + "\" " +
           (is_x ? "x=\"" + svg_px(p) + "\" y=\"" + svg_px(bottom + 19) + "\" text-anchor=\"middle\""
                 : "x=\"" + svg_px(f.left - 8) + "\" y=\"" + svg_px(p + 4) + "\" text-anchor=\"end\"") +
           ">" + detail::svg_decade_label(k, !is_x) + "</text>\n";
    }
  };
  axis(true);
  axis(false);
  s += "<text class=\"axis-title x\" x=\"" + svg_px(f.left + f.width / 2) + "\" y=\"" + svg_px(H - 12) +
       "\" text-anchor=\"middle\">Arithmetic intensity (FLOP/byte, DRAM)</text>\n";
  s += "<text class=\"axis-title y\" transform=\"translate(16 " + svg_px(f.top + f.height / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">Performance (FLOP/s)</text>\n";

  // Memory ceilings: from the frame's edge up to the ridge with the highest compute ceiling.
  const double top_peak = l.ceilings.front().peak_flops;
  for (std::size_t m = 0; m < c.memory.size(); ++m) {
    const roof r{top_peak, c.memory[m].bytes_per_s};
    const double x0 = std::max(l.x_min, l.y_min / r.bandwidth), x1 = r.ridge();
    s += "<line class=\"ceiling memory\" data-memory=\"" + xml_escape(c.memory[m].name) + "\" data-bandwidth=\"" +
         svg_number(r.bandwidth) + "\" data-intensity-from=\"" + svg_number(x0) + "\" data-intensity-to=\"" +
         svg_number(x1) + "\" x1=\"" + svg_px(f.x(x0)) + "\" y1=\"" + svg_px(f.y(r.attainable_flops(x0))) + "\" x2=\"" +
         svg_px(f.x(x1)) + "\" y2=\"" + svg_px(f.y(r.attainable_flops(x1))) + "\" stroke=\"" +
         (m == 0 ? "#1f5fa8" : "#5f9fd8") + "\" stroke-width=\"2\"/>\n";
    // The label sits on the line, in its lower part, turned to the line's angle.
    const double lx = f.x(x0) + (f.x(x1) - f.x(x0)) * 0.2,
                 ly = f.y(r.attainable_flops(x0)) + (f.y(r.attainable_flops(x1)) - f.y(r.attainable_flops(x0))) * 0.2;
    const double angle = std::atan2(f.y(r.attainable_flops(x1)) - f.y(r.attainable_flops(x0)), f.x(x1) - f.x(x0)) *
                         180.0 / 3.14159265358979323846;
    s += "<text class=\"ceiling-label memory\" data-memory=\"" + xml_escape(c.memory[m].name) +
         "\" transform=\"translate(" + svg_px(lx) + " " + svg_px(ly - 6) + ") rotate(" + svg_px(angle) +
         ")\" fill=\"#1f5fa8\">" + xml_escape(c.memory[m].name) + " " + si(r.bandwidth, "B/s") + "</text>\n";
  }
  // Compute ceilings: from the ridge with the fastest memory level to the right edge. Labels above their
  // line at the right; a label that would overlap the one above moves down.
  double fastest = 0;
  for (const bandwidth_ceiling& m : c.memory) fastest = std::max(fastest, m.bytes_per_s);
  double last_label_y = -1e9;
  std::vector<detail::svg_box> taken;  // ceiling labels, the legend, dots and point labels
  for (std::size_t k = 0; k < l.ceilings.size(); ++k) {
    const compute_ceiling& k_ceiling = l.ceilings[k];
    const double x0 = roof{k_ceiling.peak_flops, fastest}.ridge(), yp = f.y(k_ceiling.peak_flops);
    s += "<line class=\"ceiling compute\" data-pipe=\"" + detail::svg_pipe_names(k_ceiling.pipes, " ") +
         "\" data-flops=\"" + svg_number(k_ceiling.peak_flops) + "\" data-intensity-from=\"" + svg_number(x0) +
         "\" x1=\"" + svg_px(f.x(x0)) + "\" y1=\"" + svg_px(yp) + "\" x2=\"" + svg_px(right) + "\" y2=\"" + svg_px(yp) +
         "\" stroke=\"#b03030\" stroke-width=\"" + (k == 0 ? "2" : "1.5") + "\"" +
         (k == 0 ? "" : " stroke-dasharray=\"6 3\"") + "/>\n";
    const double label_y = std::max(yp - 4, last_label_y + 13);
    last_label_y = label_y;
    const std::string label =
        detail::svg_pipe_names(k_ceiling.pipes, ", ") + ": " + si(k_ceiling.peak_flops, "FLOP/s");
    taken.push_back({right - 4 - detail::svg_text_width(label, 11), label_y - 10, right - 4, label_y + 3});
    s += "<text class=\"ceiling-label compute\" data-pipe=\"" + detail::svg_pipe_names(k_ceiling.pipes, " ") +
         "\" x=\"" + svg_px(right - 4) + "\" y=\"" + svg_px(label_y) +
         "\" text-anchor=\"end\" font-size=\"11\" fill=\"#b03030\">" + label + "</text>\n";
  }
  for (const ridge_mark& r : l.ridges) {
    const std::string pipes = detail::svg_pipe_names(l.ceilings[r.ceiling].pipes, " ");
    s += "<circle class=\"ridge\" data-pipe=\"" + pipes + "\" data-memory=\"" + xml_escape(c.memory[r.memory].name) +
         "\" data-intensity=\"" + svg_number(r.intensity) + "\" data-flops=\"" + svg_number(r.flops) + "\" cx=\"" +
         svg_px(f.x(r.intensity)) + "\" cy=\"" + svg_px(f.y(r.flops)) +
         "\" r=\"3\" fill=\"#fff\" stroke=\"#b03030\"><title>ridge " + xml_escape(c.memory[r.memory].name) + " / " +
         pipes + ": " + significant(r.intensity) + " FLOP/B</title></circle>\n";
  }

  // Before/after arrows, ending short of the after point's dot.
  for (const roofline_pair& p : c.pairs) {
    if (p.before >= c.points.size() || p.after >= c.points.size())
      detail::bad_roofline_input("a before/after pair refers to a point the chart does not have");
    const roofline_point &a = c.points[p.before], &b = c.points[p.after];
    const double ax = f.x(a.intensity), ay = f.y(a.flops_per_s), bx = f.x(b.intensity), by = f.y(b.flops_per_s);
    const double len = std::hypot(bx - ax, by - ay), cut = len > 16 ? 8 / len : 0;
    s += "<line class=\"pair\" data-before=\"" + std::to_string(p.before) + "\" data-after=\"" +
         std::to_string(p.after) + "\" x1=\"" + svg_px(ax) + "\" y1=\"" + svg_px(ay) + "\" x2=\"" +
         svg_px(bx - (bx - ax) * cut) + "\" y2=\"" + svg_px(by - (by - ay) * cut) +
         "\" stroke=\"#333\" stroke-width=\"1.5\" marker-end=\"url(#napkin-arrow)\"/>\n";
  }
  // Points, then their labels: beside the dot, or at the first of a few other places where the label
  // covers no other label, dot or the legend and stays inside the frame.
  taken.push_back({f.left + 6, f.top + 4, f.left + 24 + detail::svg_text_width("napkin estimate", 11), f.top + 40});
  for (const roofline_point& p : c.points)
    taken.push_back({f.x(p.intensity) - 6, f.y(p.flops_per_s) - 6, f.x(p.intensity) + 6, f.y(p.flops_per_s) + 6});
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const roofline_point& p = c.points[i];
    const double x = f.x(p.intensity), y = f.y(p.flops_per_s);
    const bool measured = p.source == point_source::measured;
    s += "<circle class=\"point " + std::string(to_string(p.source)) + "\" data-index=\"" + std::to_string(i) +
         "\" data-label=\"" + xml_escape(p.label) + "\" data-source=\"" + std::string(to_string(p.source)) +
         "\" data-intensity=\"" + svg_number(p.intensity) + "\" data-flops=\"" + svg_number(p.flops_per_s) +
         "\" cx=\"" + svg_px(x) + "\" cy=\"" + svg_px(y) + "\" r=\"5\" fill=\"" + (measured ? "#e07b00" : "#fff") +
         "\" stroke=\"#e07b00\" stroke-width=\"2\"><title>" + xml_escape(p.label) + ": " +
         significant(p.intensity) + " FLOP/B, " + si(p.flops_per_s, "FLOP/s") + " (" +
         std::string(to_string(p.source)) + ")</title></circle>\n";
  }
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const roofline_point& p = c.points[i];
    const double x = f.x(p.intensity), y = f.y(p.flops_per_s), w = detail::svg_text_width(p.label, 11);
    // Nearest first; the rows further out are for a point on a ceiling, whose label column crowds the
    // places beside it (a GEMM estimate at its pipe's peak).
    static constexpr double places[][2] = {{9, 4},    {9, 17},  {9, -9},  {-9, 4},   {-9, 17},  {-9, -9},
                                           {9, 30},   {9, -22}, {-9, 30}, {-9, -22}, {9, 43},   {9, -35},
                                           {-9, 43},  {-9, -35}, {9, 56}, {9, -48},  {-9, 56},  {-9, -48}};
    detail::svg_box chosen{};
    bool left = false, found = false;
    for (int pass = 0; pass < 2 && !found; ++pass)  // the second pass accepts overlaps, never the outside
      for (const auto& d : places) {
        const double x0 = d[0] > 0 ? x + d[0] : x + d[0] - w;
        const detail::svg_box b{x0, y + d[1] - 9, x0 + w, y + d[1] + 3};
        const bool inside = b.x0 >= f.left + 1 && b.x1 <= right - 1 && b.y0 >= f.top + 1 && b.y1 <= bottom - 1;
        const bool free =
            std::none_of(taken.begin(), taken.end(), [&](const detail::svg_box& o) { return o.overlaps(b); });
        if (inside && (free || pass == 1)) {
          chosen = b, left = d[0] < 0, found = true;
          break;
        }
      }
    if (!found) chosen = {x + 9, y - 5, x + 9 + w, y + 7}, left = false;  // wider than the frame: as it comes
    taken.push_back(chosen);
    s += "<text class=\"point-label\" data-index=\"" + std::to_string(i) + "\" x=\"" +
         svg_px(left ? chosen.x1 : chosen.x0) + "\" y=\"" + svg_px(chosen.y1 - 3) + "\" font-size=\"11\"" +
         (left ? " text-anchor=\"end\"" : "") + ">" + xml_escape(p.label) + "</text>\n";
  }
  // Legend, top left of the frame, for the kinds of points present.
  double legend_y = f.top + 16;
  for (point_source kind : {point_source::measured, point_source::estimate}) {
    if (std::none_of(c.points.begin(), c.points.end(), [&](const roofline_point& p) { return p.source == kind; }))
      continue;
    s += "<g class=\"legend\" data-source=\"" + std::string(to_string(kind)) + "\"><circle cx=\"" +
         svg_px(f.left + 14) + "\" cy=\"" + svg_px(legend_y - 4) + "\" r=\"4\" fill=\"" +
         (kind == point_source::measured ? "#e07b00" : "#fff") +
         "\" stroke=\"#e07b00\" stroke-width=\"2\"/><text x=\"" + svg_px(f.left + 24) + "\" y=\"" + svg_px(legend_y) +
         "\" font-size=\"11\">" + (kind == point_source::measured ? "measured" : "napkin estimate") + "</text></g>\n";
    legend_y += 16;
  }
  s += "</svg>\n";
  return s;
}

NAPKIN_DETAIL_FUNC void write_svg(std::ostream& out, const roofline_chart& c) { out << to_svg(c); }

NAPKIN_END_NAMESPACE
