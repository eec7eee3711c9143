// The monitor's HTML page (napkin/report/monitor_page.hpp) on the synthetic report of monitor_samples.hpp:
// the device summary, one table per phase, path and kernel with hand-computed cells, "not measured" for
// readings never taken, partial marks, escaping of names (user input), and the baseline's diff section.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include "napkin/report/monitor_page.hpp"
#include "report/monitor_samples.hpp"

using namespace napkin;

namespace {
bool has(const std::string& page, const std::string& part) { return page.find(part) != std::string::npos; }

std::size_t count(const std::string& page, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t p = page.find(part); p != std::string::npos; p = page.find(part, p + 1)) ++n;
  return n;
}

// The text of the row whose data-name is `name` in the table `id` (up to its </tr>).
std::string row(const std::string& page, const std::string& id, const std::string& name) {
  const std::size_t table = page.find("<table id=\"" + id + "\"");
  REQUIRE(table != std::string::npos);
  const std::size_t start = page.find("data-name=\"" + name + "\"", table);
  REQUIRE(start != std::string::npos);
  REQUIRE(start < page.find("</table>", table));
  return page.substr(start, page.find("</tr>", start) - start);
}
}  // namespace

TEST_CASE("the device: name, index and UUID from the context; times and samples; the L2 it reads") {
  const std::string page = to_html(monitor_page{"step <1> & \"2\"", monitor_samples::report(), {}, {}});
  CHECK(has(page, "<title>step &lt;1&gt; &amp; &quot;2&quot;</title>"));
  CHECK(has(page, "<h1>step &lt;1&gt; &amp; &quot;2&quot;</h1>"));
  CHECK(has(page, "<tr data-key=\"device\"><th>Device</th><td>NVIDIA H200 &lt;sample&gt;</td></tr>"));
  CHECK(has(page, "<tr data-key=\"index\"><th>Index</th><td>1</td></tr>"));
  CHECK(has(page, "<td>GPU-00000000-1111-2222-3333-444444444444</td>"));
  // Windows [0,3000), all kept, every moment with a kernel: 3.00 us wall and sampled, busy; idle 0 ns, 0.0%.
  CHECK(has(page, "<th>Wall time</th><td>3.00 us (first window to last)</td>"));
  CHECK(has(page, "<th>Sampled</th><td>3.00 us in kept samples</td>"));
  CHECK(has(page, "<th>Busy</th><td>3.00 us (at least one kernel running)</td>"));
  CHECK(has(page, "<th>Idle</th><td>0 ns (no kernel running)</td>"));
  CHECK(has(page, "<th>Idle fraction</th><td>0.0% of the sampled time</td>"));
  CHECK(has(page, "<th>Samples</th><td>3 kept, 0 lost, 0 setup dropped (0 ns not attributed)</td>"));
  CHECK(has(page, "<th>L2</th><td>the L2 % is the L2 slices (lts__throughput), not ncu's GH100 L2 fabric"));
  CHECK(has(page, "<script>"));
  CHECK_FALSE(has(page, "http://"));  // nothing loaded from elsewhere
  CHECK_FALSE(has(page, "https://"));
}

TEST_CASE("tables per phase, path and kernel, in the report's order, with hand-computed cells") {
  const std::string page = to_html(monitor_page{"", monitor_samples::report(), {}, {}});
  CHECK(has(page, "<title>napkin monitor</title>"));
  for (const char* id : {"phases", "paths", "kernels"}) CHECK(has(page, "<table id=\"" + std::string(id) + "\""));
  // 3 rows in each table.
  CHECK(count(page, "<tr class=\"row") == 9);
  // Kernels by GPU time: load 2000 ns, then bare and gemm (1000 ns each, by name).
  const std::size_t kernels = page.find("<table id=\"kernels\"");
  const std::size_t load = page.find("data-name=\"load&lt;&quot;a&quot;&amp;b&gt;\"", kernels);
  const std::size_t bare = page.find("data-name=\"bare\"", kernels);
  const std::size_t gemm = page.find("data-name=\"gemm\"", kernels);
  CHECK(load < bare);
  CHECK(bare < gemm);
  // load: 2 launches, 1 fully sampled; 2000 ns, mean 1000 ns; SM 20 DRAM 80 L1 30 L2s 40, Memory max = 80;
  // 600 + 400 B (the sampled launch only, marked *), 1000 B per complete launch, 1000 B / 1000 ns = 1 GB/s.
  const std::string l = row(page, "kernels", "load&lt;&quot;a&quot;&amp;b&gt;");
  CHECK(has(l, "data-gpu-ns=\"2000\""));
  CHECK(has(l, "data-mean-ns=\"1000\""));
  CHECK(has(l, "<td class=\"name\">load&lt;&quot;a&quot;&amp;b&gt;</td>"));
  CHECK(has(l, "<td class=\"num count\">2</td><td class=\"num complete\">1 of 2 (partial)</td>"));
  CHECK(has(l, "<td class=\"num time\">2.00 us</td><td class=\"num mean\">1.00 us</td>"));
  CHECK(has(l, "data-metric=\"sm\"><span class=\"bar-name\">SM</span><div class=\"bar-track\"><div class=\"bar-fill\" "
               "data-pct=\"20\" style=\"width:20.00%\"></div></div><span class=\"bar-value\">20.0%</span>"));
  CHECK(has(l, "data-metric=\"dram\"><span class=\"bar-name\">DRAM</span>"));
  CHECK(has(l, "data-pct=\"80\" style=\"width:80.00%\""));
  CHECK(has(l, "data-metric=\"l1tex\"><span class=\"bar-name\">L1</span><div class=\"bar-track\"><div "
               "class=\"bar-fill\" data-pct=\"30\""));
  CHECK(has(l, "data-metric=\"l2-slices\"><span class=\"bar-name\">L2 slices</span><div class=\"bar-track\"><div "
               "class=\"bar-fill\" data-pct=\"40\""));
  CHECK(has(l, "<td class=\"num memory\">80.0%</td>"));
  CHECK(has(l, "<td class=\"num bytes\">1.000 kB<span class=\"partial-mark\" title=\"partial\">*</span></td>"));
  CHECK(has(l, "<td class=\"num per-launch\">1.000 kB</td>"));
  // 1000 / (1000 x 1e-9) is 999999999.9999999 in doubles; si() picks the prefix for the rounded number.
  CHECK(has(l, "<td class=\"num bandwidth\">1.000 GB/s</td>"));
  CHECK(has(l, "<td class=\"num communication\">0.0%</td>"));
  CHECK(has(l, "<b>memory-bound (DRAM)</b>"));
  // gemm: SM 75, Memory max(10, 20, 15) = 20: compute-bound; 200 B over 1000 ns = 200 MB/s; complete.
  const std::string g = row(page, "kernels", "gemm");
  CHECK(has(g, "<td class=\"num complete\">all</td>"));
  CHECK(has(g, "<td class=\"num memory\">20.0%</td>"));
  CHECK(has(g, "<td class=\"num bytes\">200 B</td>"));
  CHECK(has(g, "<td class=\"num bandwidth\">200.0 MB/s</td>"));
  CHECK(has(g, "<b>compute-bound</b>"));
  CHECK_FALSE(has(g, "partial-mark"));
  // Phases: the innermost range; "" is "(no phase)". Paths: the whole stack.
  CHECK(has(row(page, "phases", "attn &lt;x&gt;"), "data-gpu-ns=\"2000\""));
  CHECK(has(row(page, "phases", "(no phase)"), "<td class=\"name\">(no phase)</td>"));
  CHECK(has(row(page, "phases", "decode"), "data-gpu-ns=\"1000\""));
  CHECK(has(row(page, "paths", "decode/attn &lt;x&gt;"), "1 of 2 (partial)"));
  // The partial rows' note: 1 of 2 fully sampled, 2000 - 1000 = 1000 ns not sampled.
  CHECK(has(page, "load&lt;&quot;a&quot;&amp;b&gt;: 1 of 2 launches fully sampled (1.00 us not sampled)</li>"));
  CHECK(has(page, "id=\"partial-note\""));
  // Sortable by GPU time and mean.
  CHECK(count(page, "data-sort=\"data-gpu-ns\"") == 3);
  CHECK(count(page, "data-sort=\"data-mean-ns\"") == 3);
}

TEST_CASE("a reading never taken reads 'not measured', never 0") {
  const std::string page = to_html(monitor_page{"", monitor_samples::report(), {}, {}});
  const std::string b = row(page, "kernels", "bare");
  // Four SOL bars, Memory, DRAM bytes, bytes per launch and bandwidth: 8 cells "not measured".
  CHECK(count(b, "not measured") == 4 + 4 + 1);  // + the verdict: "not measured"
  CHECK(count(b, "<span class=\"bar-value missing\">not measured</span>") == 4);
  CHECK(has(b, "<td class=\"num memory missing\">not measured</td>"));
  CHECK(has(b, "<td class=\"num bytes missing\">not measured</td>"));
  CHECK(has(b, "<td class=\"num bandwidth missing\">not measured</td>"));
  CHECK(has(b, "data-kind=\"not-measured\""));
  CHECK_FALSE(has(b, "0.0%</span>"));
  CHECK_FALSE(has(b, "bar-fill"));
}

TEST_CASE("user text is escaped everywhere: no raw name reaches the page") {
  const std::string page = to_html(monitor_page{"", monitor_samples::report(40, true), monitor_samples::report(), {}});
  CHECK_FALSE(has(page, "<\"a\"&b>"));
  CHECK_FALSE(has(page, "<x>"));
  CHECK_FALSE(has(page, "<sample>"));
  CHECK(has(page, "attn &lt;x&gt;"));
}

TEST_CASE("against a baseline: what napkin::diff says of the two monitor-report documents") {
  monitor_page page{"", monitor_samples::report(20), monitor_samples::report(40, true), {}};
  const std::string html = to_html(page);
  // load's SM 40 -> 20: sm_pct is better higher, -50.0 %: worse, a regression (as napkin diff says).
  CHECK(has(html, "<h2>Against the baseline</h2>"));
  CHECK(has(html, "data-outcome=\"regression\""));
  CHECK(has(html, "<th>Row</th><th class=\"num\">Mean time</th>"));
  const std::string sm = "data-entity=\"kernel: load&lt;&quot;a&quot;&amp;b&gt;\" data-field=\"sm_pct\" "
                         "data-status=\"worse\"><td class=\"name\">kernel: load&lt;&quot;a&quot;&amp;b&gt;</td><td "
                         "class=\"field\">sm_pct</td><td class=\"num old\">40.0%</td><td class=\"num new\">20.0%</td><td "
                         "class=\"num change slower\">-50.0%</td><td class=\"status slower\">worse (regression)</td>";
  CHECK(has(html, sm));
  // Mean times: load 1.00 us in both; transpose only in the baseline: gone.
  CHECK(has(html, "<tr class=\"change-row\" data-name=\"kernel: transpose\"><td class=\"name\">kernel: transpose"
                  "</td><td class=\"num time-change\">1.00 us &rarr; gone</td>"));
  CHECK(has(html, "data-name=\"kernel: gemm\"><td class=\"name\">kernel: gemm</td><td class=\"num time-change\">"
                  "1.00 us &rarr; 1.00 us</td>"));
  CHECK(has(html, "<td class=\"status\">removed</td>"));
  // The same run as its own baseline: no regression, every number the same.
  const std::string same = to_html(monitor_page{"", monitor_samples::report(), monitor_samples::report(), {}});
  CHECK(has(same, "data-outcome=\"no-regression\""));
  CHECK_FALSE(has(same, "id=\"diff-numbers\""));
  // No baseline: no section.
  CHECK_FALSE(has(to_html(monitor_page{"", monitor_samples::report(), {}, {}}), "Against the baseline"));
}

TEST_CASE("an empty report is a page that says so") {
  const std::string page = to_html(monitor_page{"", monitor_report{}, {}, {}});
  CHECK(has(page, "<p class=\"sub empty\" id=\"kernels-none\">Nothing recorded.</p>"));
  CHECK(has(page, "<th>Idle fraction</th><td><span class=\"missing\">not measured (nothing sampled)</span></td>"));
  CHECK(has(page, "name not recorded"));
}
