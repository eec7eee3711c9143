// The system view's report (napkin/system/system_report.hpp) in the monitor's renderings and documents, on the
// hand-built report of system_samples.hpp: the text (numbers computed by hand from the sample), the JSON member
// "system" and its reading back (every field), the CSV rows, diff() directions on the "system: <phase>" rows, the
// Markdown table and the HTML page's System section; a report without it renders as before.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include "napkin/monitor/monitor_documents.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/json_read_monitor.hpp"
#include "napkin/report/markdown.hpp"
#include "napkin/report/monitor_page.hpp"
#include "napkin/system/system_documents.hpp"
#include "napkin/system/system_text.hpp"
#include "report/monitor_samples.hpp"
#include "report/system_samples.hpp"
#include "support/text.hpp"

using namespace napkin;
using napkin_test::contains;

namespace {

monitor_report with_system(const system_report& s) {
  monitor_report m = monitor_samples::report();
  m.system = s;
  return m;
}

const field_change* change_of(const report_diff& d, const std::string& entity, const std::string& field) {
  for (const field_change& c : d.changes)
    if (c.entity == entity && c.field == field) return &c;
  return nullptr;
}

void check_same_phase(const system_phase& a, const system_phase& b) {
  CHECK(a.name == b.name);
  CHECK(a.instances == b.instances);
  CHECK(a.span_ns == b.span_ns);
  CHECK(a.busy_ns == b.busy_ns);
  CHECK(a.idle_ns == b.idle_ns);
  CHECK(a.idle_by_host.host_waiting_ns == b.idle_by_host.host_waiting_ns);
  CHECK(a.idle_by_host.host_launching_ns == b.idle_by_host.host_launching_ns);
  CHECK(a.idle_by_host.host_other_api_ns == b.idle_by_host.host_other_api_ns);
  CHECK(a.idle_by_host.host_outside_ns == b.idle_by_host.host_outside_ns);
  CHECK(a.kernels == b.kernels);
  CHECK(a.kernel_ns == b.kernel_ns);
  CHECK(a.communication_ns == b.communication_ns);
  for (const auto& [x, y] : {std::pair{&a.kernel_durations, &b.kernel_durations}, std::pair{&a.stream_gaps, &b.stream_gaps},
                              std::pair{&a.graph_gaps, &b.graph_gaps}, std::pair{&a.graph_spans, &b.graph_spans}}) {
    CHECK(x->total == y->total);  // the bins are not written: count and mean come back
    CHECK(static_cast<double>(x->sum_ns) == doctest::Approx(static_cast<double>(y->sum_ns)));
  }
  for (std::size_t i = 0; i < a.copies_by_direction.size(); ++i) {
    CHECK(a.copies_by_direction[i].count == b.copies_by_direction[i].count);
    CHECK(a.copies_by_direction[i].ns == b.copies_by_direction[i].ns);
    CHECK(a.copies_by_direction[i].bytes == b.copies_by_direction[i].bytes);
  }
  for (std::size_t i = 0; i < a.copies_by_memory.size(); ++i) {
    CHECK(a.copies_by_memory[i].count == b.copies_by_memory[i].count);
    CHECK(a.copies_by_memory[i].ns == b.copies_by_memory[i].ns);
    CHECK(a.copies_by_memory[i].bytes == b.copies_by_memory[i].bytes);
  }
  CHECK(a.copy_overlapped_ns == b.copy_overlapped_ns);
  CHECK(a.memsets.count == b.memsets.count);
  CHECK(a.memsets.ns == b.memsets.ns);
  CHECK(a.memsets.bytes == b.memsets.bytes);
  CHECK(a.copies_on_kernel_streams == b.copies_on_kernel_streams);
  for (std::size_t i = 0; i < a.host_calls.size(); ++i) {
    CHECK(a.host_calls[i].count == b.host_calls[i].count);
    CHECK(a.host_calls[i].ns == b.host_calls[i].ns);
  }
  CHECK(a.host_blocked_ns == b.host_blocked_ns);
  CHECK(a.graph_launches == b.graph_launches);
}

}  // namespace

TEST_CASE("the system view's text: the run, the phases, copies, findings, kernels and the next target") {
  const std::string text = to_text(system_samples::report());
  // run: idle 25 of 40 ms = 62.5 %; copies 3 ms, 0.75 overlapped = 25.0 %; 100 stream synchronizes
  CHECK(contains(text, "GPU span 40.00 ms, busy 15.00 ms, idle 25.00 ms (62.5%)"));
  CHECK(contains(text, "\n  host while idle: waiting 10.00 ms, launching 5.00 ms, other CUDA 2.00 ms, outside CUDA 8.00 ms\n"));
  CHECK(contains(text, "100 kernels (12.00 ms), 100 launches, 3 graph launches; copies 3.00 ms (25.0% overlapped"));
  CHECK(contains(text, "host blocked 9.00 ms in blocking calls (100"));
  CHECK(contains(text, "records: 2 dropped (the store was full), 1 late"));
  // columns: phase 14 wide, inst 5, span 9, idle% 6, kernels 7, GPU time 9, copies 9, overlap 7, blocked 9,
  // syncs 5, two spaces apart, after a 2-space indent; copies: 10, 6, 9, 10, 11
  // decode: idle 20 of 30 ms = 66.7 %; overlap 0.5 of 2 ms = 25.0 %; (no phase): idle 5 of 10 = 50.0 %
  CHECK(contains(text, "\n  decode             10   30.00 ms   66.7%       80    9.00 ms    2.00 ms    25.0%    7.00 ms     80\n"));
  CHECK(contains(text, "\n  (no phase)          1   10.00 ms   50.0%       20    3.00 ms    1.00 ms    25.0%    2.00 ms     20\n"));
  CHECK(contains(text, "\n  (run)              11   40.00 ms   62.5%      100   12.00 ms    3.00 ms    25.0%    9.00 ms    100\n"));
  // means: decode 9 ms / 80 = 112.5 us; the run's stream gaps 99 x 150 us; graph gaps 2 x 0.5 ms
  CHECK(contains(text, "kernel mean 112.50 us; communication 10.0%"));
  CHECK(contains(text, "stream gaps 99, mean 150.00 us; graph launches 3, gap mean 500.00 us"));
  // copies: h2d 8 MB in 2 ms = 4 GB/s; d2h 1 MB in 1 ms = 1 GB/s; pageable 4 MB in 1 ms = 4 GB/s
  CHECK(contains(text, "\n  h2d              4    2.00 ms    8.000 MB   4.000 GB/s\n"));
  CHECK(contains(text, "\n  d2h              2    1.00 ms    1.000 MB   1.000 GB/s\n"));
  CHECK(contains(text, "\n  pageable         2    1.00 ms    4.000 MB   4.000 GB/s\n"));
  CHECK(contains(text, "  [gpu-starved] decode: idle 66.7 % of 30.00 ms; host in synchronize 8.00 ms\n"
                       "    fix: launch more work before synchronizing, or synchronize less often\n"));
  CHECK(contains(text, "  [pageable-copy] (no phase): 2 copies from pageable memory"));
  CHECK(contains(text, "gemm<float>"));
  CHECK(contains(text, "75.0%  decode"));
  CHECK(contains(text, "25.0%  (no phase)"));
  CHECK(contains(text, "  next: no kernel to profile yet: the GPU was idle 62.5% of the run: fix the system first"));
  CHECK(contains(text, "    how: napkin::profiler::per_kernel(...)"));
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    CHECK_MESSAGE(end - at <= 100, text.substr(at, end - at));
    at = end + 1;
  }
  system_report next = system_samples::report();
  next.next.kernel = "gemm<float>";
  next.next.share = 0.75;
  next.next.reason = "it takes most of the GPU time";
  CHECK(contains(to_text(next), "  next: profile gemm<float> (75.0% of GPU time): it takes most of the GPU time"));
}

TEST_CASE("a monitor report renders its system view after its own text, and without one exactly as before") {
  const monitor_report plain = monitor_samples::report();
  const monitor_report with = with_system(system_samples::report());
  CHECK_FALSE(plain.system.has_value());
  CHECK(to_text(with) == to_text(plain) + "\n" + to_text(*with.system));
  CHECK_FALSE(contains(to_text(plain), "system view"));
  CHECK(to_json(plain).find("\"system\"") == std::string::npos);
  CHECK_FALSE(contains(document_markdown(document_value(plain)), "System view"));
  CHECK_FALSE(contains(to_html(monitor_page{"t", plain, {}, {}}), "id=\"system\""));
}

TEST_CASE("the key-value lines: one per phase and the run, one per finding") {
  const monitor_report plain = monitor_samples::report();
  const monitor_report with = with_system(system_samples::report());
  CHECK_FALSE(contains(to_key_values(plain), "NAPKIN_SYSTEM"));
  const std::string kv = to_key_values(with);
  CHECK(kv.rfind(to_key_values(plain), 0) == 0);  // the monitor's lines first, unchanged
  // The sample's arithmetic (system_samples.hpp): decode 10 instances, span 30 ms = busy 10 + idle 20 ms.
  CHECK(contains(kv, "\nNAPKIN_SYSTEM phase=(run) instances=11 span_ns=40000000 busy_ns=15000000 idle_ns=25000000 "
                     "idle_host_waiting_ns=10000000 idle_host_launching_ns=5000000 idle_host_other_api_ns=2000000 "
                     "idle_host_outside_ns=8000000 kernels=100 kernel_ns=12000000"));
  CHECK(contains(kv, "\nNAPKIN_SYSTEM phase=decode instances=10 span_ns=30000000 busy_ns=10000000 idle_ns=20000000"));
  CHECK(contains(kv, "copy_ns=3000000 copy_overlapped_ns=750000 host_blocked_ns=9000000"));
  CHECK(contains(kv, "\nNAPKIN_SYSTEM phase=- instances="));  // outside every range: "-", as the rows write it
  CHECK(contains(kv, "\nNAPKIN_SYSTEM_FINDING rule=gpu-starved phase=decode at_stake_ns=20000000"));
  CHECK(contains(kv, "\nNAPKIN_SYSTEM_FINDING rule=pageable-copy phase=- at_stake_ns=1000000"));
}

TEST_CASE("the monitor document's system member: figures, derived shares, findings, kernels and next target") {
  const json_value doc = document_value(with_system(system_samples::report()));
  const json_value* system = doc.find("system");
  REQUIRE(system != nullptr);
  const json_value& run = *system->find("run");
  CHECK(run.find("name")->as_string() == "system: (run)");
  CHECK(run.find("idle_fraction")->as_number() == doctest::Approx(25.0 / 40.0));
  CHECK(run.find("copy_ns")->as_number() == 3'000'000);
  CHECK(run.find("copy_not_overlapped_ns")->as_number() == 2'250'000);
  CHECK(run.find("copy_overlap_fraction")->as_number() == doctest::Approx(0.25));
  CHECK(run.find("pageable_copy_ns")->as_number() == 1'000'000);
  CHECK(run.find("syncs")->as_number() == 100);
  CHECK(run.find("copies_by_direction")->find("h2d")->find("bytes")->as_number() == 8'000'000);
  CHECK(run.find("host_calls")->find("stream-synchronize")->find("time_ns")->as_number() == 9'000'000);
  CHECK(run.find("stream_gaps")->find("count")->as_number() == 99);
  CHECK(run.find("stream_gaps")->find("mean_ns")->as_number() == doctest::Approx(150'000));
  const json_value& phases = *system->find("phases");
  REQUIRE(phases.items().size() == 2);
  CHECK(phases.items()[0].find("name")->as_string() == "system: decode");
  CHECK(phases.items()[1].find("name")->as_string() == "system: (no phase)");
  CHECK(phases.items()[1].find("label")->as_string().empty());
  const json_value& finding = system->find("findings")->items()[0];
  CHECK(finding.find("rule")->as_string() == "gpu-starved");
  CHECK(finding.find("at_stake_ns")->as_number() == 20'000'000);
  CHECK(system->find("kernels")->items()[0].find("share")->as_number() == 0.75);
  CHECK(system->find("next_target")->find("kernel")->is_null());
  CHECK(system->find("records_dropped")->as_number() == 2);
  // An empty histogram has no mean: null, never 0.
  CHECK(phases.items()[0].find("graph_gaps")->find("mean_ns")->is_null());
}

TEST_CASE("the system member read back gives every field and the same document") {
  system_report s = system_samples::report();
  s.next.kernel = "gemm<float>";
  s.next.share = 0.75;
  const monitor_report written = with_system(s);
  const std::string json = to_json(written);
  const json_read_result doc = parse_json(json, "monitor.json");
  REQUIRE(doc.ok());
  const monitor_report read = read_monitor_report(doc.value, "monitor.json");
  REQUIRE(read.system.has_value());
  const system_report& r = *read.system;
  check_same_phase(s.run, r.run);
  REQUIRE(r.phases.size() == s.phases.size());
  for (std::size_t i = 0; i < s.phases.size(); ++i) check_same_phase(s.phases[i], r.phases[i]);
  REQUIRE(r.findings.size() == s.findings.size());
  for (std::size_t i = 0; i < s.findings.size(); ++i) {
    CHECK(r.findings[i].rule == s.findings[i].rule);
    CHECK(r.findings[i].phase == s.findings[i].phase);
    CHECK(r.findings[i].evidence == s.findings[i].evidence);
    CHECK(r.findings[i].advice == s.findings[i].advice);
    CHECK(r.findings[i].at_stake_ns == s.findings[i].at_stake_ns);
  }
  REQUIRE(r.kernels.size() == s.kernels.size());
  for (std::size_t i = 0; i < s.kernels.size(); ++i) {
    CHECK(r.kernels[i].name == s.kernels[i].name);
    CHECK(r.kernels[i].count == s.kernels[i].count);
    CHECK(r.kernels[i].gpu_ns == s.kernels[i].gpu_ns);
    CHECK(r.kernels[i].share == s.kernels[i].share);
    CHECK(r.kernels[i].top_phase == s.kernels[i].top_phase);
  }
  CHECK(r.next.kernel == s.next.kernel);
  CHECK(r.next.share == s.next.share);
  CHECK(r.next.reason == s.next.reason);
  CHECK(r.next.how == s.next.how);
  CHECK(r.records_dropped == 2);
  CHECK(r.late_records == 1);
  CHECK(r.records_refused == 3);
  CHECK(r.records_other_device == 4);
  CHECK(to_json(read) == json);
  // A document without the member reads back without a system view.
  const json_read_result plain = parse_json(to_json(monitor_samples::report()), "plain.json");
  CHECK_FALSE(read_monitor_report(plain.value, "plain.json").system.has_value());
  // Bad input names the member.
  const std::string bad_rule = [&] {
    std::string j = json;
    j.replace(j.find("\"gpu-starved\""), 13, "\"gpu-sleepy\"");
    return j;
  }();
  const json_read_result bad = parse_json(bad_rule, "bad.json");
  CHECK(napkin_test::input_error_of([&] { read_monitor_report(bad.value, "bad.json"); }) ==
        "napkin: bad.json: system.findings[0].rule: unknown rule 'gpu-sleepy'");
  // Times that do not add up: the run's busy time one ns short of span - idle; its idle split one ns long.
  const auto refused = [&](const std::string& from, const std::string& to) {
    std::string j = json;
    const std::size_t at = j.find(from);
    REQUIRE(at != std::string::npos);
    j.replace(at, from.size(), to);
    const json_read_result doc = parse_json(j, "bad.json");
    return napkin_test::input_error_of([&] { read_monitor_report(doc.value, "bad.json"); });
  };
  CHECK(refused("\"busy_ns\": 15000000", "\"busy_ns\": 14999999") ==
        "napkin: bad.json: system.run.busy_ns: busy_ns + idle_ns is not span_ns");
  CHECK(refused("\"host_outside_ns\": 8000000", "\"host_outside_ns\": 8000001") ==
        "napkin: bad.json: system.run.idle_by_host: its four parts do not add up to idle_ns");
}

TEST_CASE("diff: the system rows compare by name; more idle time is worse, more overlap better") {
  const system_report base = system_samples::report();
  system_report idler = base;
  idler.phases[0].busy_ns -= 5'000'000;  // decode: idle 20 -> 25 ms of 30 ms
  idler.phases[0].idle_ns += 5'000'000;
  const report_diff worse = diff(to_document(with_system(base)), to_document(with_system(idler)));
  const field_change* idle = change_of(worse, "system: decode", "idle_ns");
  REQUIRE(idle != nullptr);
  CHECK(idle->direction == better::lower);
  CHECK(idle->status == change_status::worse);
  CHECK(idle->change_pct == doctest::Approx(25.0));  // 20 -> 25 ms
  const field_change* fraction = change_of(worse, "system: decode", "idle_fraction");
  REQUIRE(fraction != nullptr);
  CHECK(fraction->status == change_status::worse);
  CHECK(worse.regressed());
  const field_change* same = change_of(worse, "system: (run)", "idle_ns");
  REQUIRE(same != nullptr);
  CHECK(same->status == change_status::same);

  system_report overlapped = base;
  overlapped.phases[0].copy_overlapped_ns = 1'500'000;  // decode: 0.5 -> 1.5 ms of 2 ms beside kernels
  const report_diff better_run = diff(to_document(with_system(base)), to_document(with_system(overlapped)));
  const field_change* overlap = change_of(better_run, "system: decode", "copy_overlap_fraction");
  REQUIRE(overlap != nullptr);
  CHECK(overlap->direction == better::higher);
  CHECK(overlap->status == change_status::better);
  const field_change* alone = change_of(better_run, "system: decode", "copy_not_overlapped_ns");
  REQUIRE(alone != nullptr);
  CHECK(alone->status == change_status::better);  // 1.5 -> 0.5 ms
  CHECK_FALSE(better_run.regressed());

  CHECK(better_direction("host_blocked_ns") == better::lower);
  CHECK(better_direction("syncs") == better::lower);
  CHECK(better_direction("pageable_copy_ns") == better::lower);
  CHECK(better_direction("instances") == better::none);
  CHECK(better_direction("kernels") == better::none);
  // The JSON file flattens as the report in memory does.
  const std::string json = to_json(with_system(base));
  const report_document from_file = read_document(json, "m.json");
  REQUIRE(from_file.ok());
  CHECK_FALSE(diff(from_file, to_document(with_system(base))).regressed());
  std::size_t system_rows = 0;
  for (const report_entity& e : from_file.entities) system_rows += e.name.rfind("system: ", 0) == 0 ? 1 : 0;
  CHECK(system_rows == 3);  // the run and two phases
}

TEST_CASE("the system view as CSV rows, in Markdown and on the HTML page") {
  const system_report s = system_samples::report();
  const std::string csv = to_csv(s);
  CHECK(contains(csv, "phase,instances,span_ns,busy_ns,idle_ns,idle_fraction,"));
  CHECK(contains(csv, "\ndecode,10,30000000,10000000,20000000,"));
  CHECK(contains(csv, "\n(run),11,40000000,15000000,25000000,0.625,"));
  const std::string md = document_markdown(document_value(with_system(s)));
  CHECK(contains(md, "#### System view"));
  CHECK(contains(md, "system: decode"));
  CHECK(contains(md, "| `idle_ns` | 25.00 ms | 20.00 ms | 5.00 ms |"));  // the run, decode, (no phase)
  monitor_report no_rows;  // nothing sampled, but a system view: its table still comes
  no_rows.system = s;
  CHECK(contains(document_markdown(document_value(no_rows)), "*no entries*\n\n#### System view\n"));
  const std::string page = to_html(monitor_page{"t", with_system(s), {}, {}});
  CHECK(contains(page, "<section id=\"system\">"));
  const std::size_t decode = page.find("<tr class=\"system-phase\" data-name=\"decode\"");
  REQUIRE(decode != std::string::npos);
  const std::string row = page.substr(decode, page.find("</tr>", decode) - decode);
  // decode: busy 10 ms, of it 2 - 0.5 = 1.5 ms copies alone; idle 20 ms; of a 30 ms span
  CHECK(contains(row, "class=\"kernels\" data-share=\"0.283333\""));
  CHECK(contains(row, "class=\"copies\" data-share=\"0.050000\""));
  CHECK(contains(row, "class=\"idle\" data-share=\"0.666667\""));
  CHECK(contains(page, "<li data-rule=\"gpu-starved\">"));
  CHECK(contains(page, "gemm&lt;float&gt;"));
  CHECK(contains(page, "no kernel to profile yet: the GPU was idle 62.5% of the run"));
}

TEST_CASE("an empty system view: no span, no copies, nothing fired") {
  const system_report empty;
  const std::string text = to_text(empty);
  CHECK(contains(text, "GPU span 0 ns, busy 0 ns, idle 0 ns (n/a)\n"));
  CHECK_FALSE(contains(text, "host while idle"));  // no idle time to split
  CHECK(contains(text, "  findings: none (no rule fired)\n"));
  CHECK_FALSE(contains(text, "bandwidth"));  // no copies table
  const monitor_report m = with_system(empty);
  const json_value doc = document_value(m);
  const json_value& run = *doc.find("system")->find("run");
  CHECK(run.find("idle_fraction")->is_null());  // 0 of 0: no fraction, never 0
  CHECK(run.find("copy_overlap_fraction")->is_null());
  const json_read_result parsed = parse_json(to_json(m), "empty.json");
  REQUIRE(parsed.ok());
  const monitor_report read = read_monitor_report(parsed.value, "empty.json");
  REQUIRE(read.system.has_value());
  CHECK(read.system->phases.empty());
  CHECK(to_json(read) == to_json(m));
  CHECK(contains(to_html(monitor_page{"t", m, {}, {}}), "no GPU span"));
}
