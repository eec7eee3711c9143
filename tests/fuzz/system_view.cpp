// Fuzz target: the system view (napkin/system/system_view.hpp) on records decoded from the input, 8 bytes
// each (kernels, copies, memsets and host calls of three phases, two instances and three streams, with zero
// or reversed times now and then), in batches, with settles at times the input picks, records arriving after
// their chunk was settled included. Invariants: in every phase and the run, busy + idle = span and the idle
// split adds up to idle; the totals that do not depend on chunks (kernels and their time per phase, copies by
// direction, memsets, host calls by kind, blocked time, refused records) are those of the same records given
// in one batch; in that one batch the run's busy time is the union of the work's intervals, worked out here
// apart, and its span the first start to the last end.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/system_view.hpp"

#include "fuzz_checks.hpp"

namespace {

using namespace napkin;

const std::vector<std::string> phase_names{"", "a", "b", "c"};
const char* const kernel_names[] = {"gemm", "softmax", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(int)", "copy"};

std::uint64_t time_of(const std::uint8_t* b) { return 1 + (std::uint64_t{b[0]} | std::uint64_t{b[1]} << 8) * 64; }

void check_adds_up(const system_phase& p) {
  fuzz::require(p.busy_ns + p.idle_ns == p.span_ns, "busy + idle != span");
  const idle_causes& c = p.idle_by_host;
  fuzz::require(c.host_waiting_ns + c.host_launching_ns + c.host_other_api_ns + c.host_outside_ns == p.idle_ns,
                "the idle split does not add up to idle");
}

const system_phase* find(const system_report& r, const std::string& name) {
  for (const system_phase& p : r.phases)
    if (p.name == name) return &p;
  return nullptr;
}

void check_same_totals(const system_phase& a, const system_phase& b) {
  fuzz::require(a.kernels == b.kernels && a.kernel_ns == b.kernel_ns, "kernels differ between chunked and one batch");
  fuzz::require(a.communication_ns == b.communication_ns, "communication time differs");
  fuzz::require(a.memsets.count == b.memsets.count && a.memsets.ns == b.memsets.ns, "memsets differ");
  for (std::size_t d = 0; d < a.copies_by_direction.size(); ++d)
    fuzz::require(a.copies_by_direction[d].count == b.copies_by_direction[d].count &&
                      a.copies_by_direction[d].ns == b.copies_by_direction[d].ns &&
                      a.copies_by_direction[d].bytes == b.copies_by_direction[d].bytes,
                  "copies differ");
  for (std::size_t k = 0; k < a.host_calls.size(); ++k)
    fuzz::require(a.host_calls[k].count == b.host_calls[k].count && a.host_calls[k].ns == b.host_calls[k].ns,
                  "host calls differ");
  fuzz::require(a.host_blocked_ns == b.host_blocked_ns, "blocked time differs");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  system_view chunked, whole;
  system_records batch, all;
  std::vector<time_interval> work_time;  // the one batch's work, valid records only
  const auto flush = [&] {
    all.work.insert(all.work.end(), batch.work.begin(), batch.work.end());
    all.calls.insert(all.calls.end(), batch.calls.begin(), batch.calls.end());
    chunked.add(std::move(batch));
    batch = {};
  };
  for (std::size_t i = 0; i + 8 <= size && i < std::size_t{8} * 4096; i += 8) {
    const std::uint8_t* op = data + i;
    std::uint64_t start = time_of(op + 1);
    std::uint64_t end = start + std::uint64_t{op[3]} * 16;
    if (op[0] & 0x80) {  // bad times now and then: refused by both views
      if (op[0] & 0x40) start = 0;
      else std::swap(start, end);
    }
    const auto phase = static_cast<std::uint32_t>(op[4] % 4);
    const std::uint64_t instance = phase == 0 ? 0 : (op[4] >> 2) % 3;  // 0: outside any opening
    switch (op[0] % 8) {
      case 0:
      case 1:
      case 2:
      case 3: {
        gpu_work w;
        w.start_ns = start;
        w.end_ns = end;
        w.phase = phase;
        w.instance = instance;
        w.stream = op[5] % 3;
        w.correlation = op[7] % 8;
        if (op[0] % 8 == 3) {
          w.kind = op[6] & 1 ? gpu_work_kind::memset : gpu_work_kind::copy;
          w.direction = all_copy_directions[op[5] % all_copy_directions.size()];
          w.memory = all_host_memories[op[6] % all_host_memories.size()];
          w.bytes = std::uint64_t{op[7]} * 1024;
        } else {
          w.name = kernel_names[op[6] % 4];
          w.graph = op[7] % 5 == 0 ? 1 : 0;
        }
        batch.work.push_back(w);
        if (start != 0 && end >= start) work_time.push_back({start, end});
        break;
      }
      case 4:
      case 5: {
        host_call c;
        c.kind = all_host_call_kinds[op[5] % all_host_call_kinds.size()];
        c.start_ns = start;
        c.end_ns = end;
        c.thread = op[6] % 3;
        c.phase = phase;
        c.instance = instance;
        c.correlation = op[7] % 8;
        batch.calls.push_back(c);
        break;
      }
      case 6: flush(); break;
      case 7: chunked.settle(time_of(op + 1)); break;
    }
  }
  flush();
  whole.add(all);
  const system_report r = chunked.report(phase_names);
  const system_report o = whole.report(phase_names);

  check_adds_up(r.run);
  check_adds_up(o.run);
  for (const system_phase& p : r.phases) check_adds_up(p);
  for (const system_phase& p : o.phases) check_adds_up(p);
  check_same_totals(r.run, o.run);
  for (const system_phase& p : o.phases) {
    const system_phase* q = find(r, p.name);
    fuzz::require(q != nullptr, "a phase of the one batch is missing from the chunked view");
    check_same_totals(*q, p);
  }
  fuzz::require(r.records_refused == o.records_refused, "refused records differ");
  fuzz::require(r.records_dropped == 0 && o.records_dropped == 0, "records dropped below the bound");

  std::uint64_t table_kernels = 0;
  for (const kernel_time_share& k : r.kernels) table_kernels += k.count;
  fuzz::require(table_kernels == r.run.kernels, "the kernel table does not add up to the kernels");

  // The one batch: busy is the union of the work's intervals, the span first start to last end.
  std::sort(work_time.begin(), work_time.end(),
            [](const time_interval& a, const time_interval& b) { return a.start_ns < b.start_ns; });
  std::uint64_t union_ns = 0, reach = 0, first = 0, last = 0;
  for (const time_interval& t : work_time) {
    if (first == 0) first = t.start_ns;
    last = std::max(last, t.end_ns);
    const std::uint64_t from = std::max(t.start_ns, reach);
    if (t.end_ns > from) union_ns += t.end_ns - from;
    reach = std::max(reach, t.end_ns);
  }
  fuzz::require(o.run.busy_ns == union_ns, "one batch: busy is not the union of the work");
  fuzz::require(o.run.span_ns == (work_time.empty() ? 0 : last - first), "one batch: span is not first to last");
  return 0;
}
