// A system view's report built by hand (sample numbers, not a measurement), for the tests of its renderings and
// documents (system_test.cpp) and the schema's documents (write_documents_test.cpp). The numbers add up:
//   run:    span 40 ms = busy 15 ms + idle 25 ms; idle by host 10 + 5 + 2 + 8 ms = 25 ms; 100 kernels, 12 ms;
//           copies h2d 4 x (2 ms, 8 MB) + d2h 2 x (1 ms, 1 MB) = 3 ms, of it 0.75 ms beside kernels;
//           by memory pageable 2 (1 ms, 4 MB) + pinned 4 (2 ms, 5 MB); 100 stream synchronizes (9 ms) = host blocked
//   decode: 10 instances, span 30 ms = busy 10 ms + idle 20 ms; 80 kernels, 9 ms; h2d 4 x (2 ms, 8 MB), 0.5 ms
//           beside kernels; 80 stream synchronizes (7 ms)
//   (no phase): span 10 ms = busy 5 ms + idle 5 ms; 20 kernels, 3 ms; d2h 2 x (1 ms, 1 MB), 0.25 ms beside
//           kernels; 20 stream synchronizes (2 ms)
#pragma once

#include <cstddef>
#include <cstdint>

#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"

namespace system_samples {

inline std::size_t index_of(napkin::copy_direction d) {
  for (std::size_t i = 0; i < napkin::all_copy_directions.size(); ++i)
    if (napkin::all_copy_directions[i] == d) return i;
  return 0;
}
inline std::size_t index_of(napkin::host_memory m) {
  for (std::size_t i = 0; i < napkin::all_host_memories.size(); ++i)
    if (napkin::all_host_memories[i] == m) return i;
  return 0;
}
inline std::size_t index_of(napkin::host_call_kind k) {
  for (std::size_t i = 0; i < napkin::all_host_call_kinds.size(); ++i)
    if (napkin::all_host_call_kinds[i] == k) return i;
  return 0;
}

inline napkin::duration_histogram histogram(std::uint64_t count, std::uint64_t mean_ns) {
  napkin::duration_histogram h;
  h.total = count;
  h.sum_ns = static_cast<long double>(count) * static_cast<long double>(mean_ns);
  return h;
}

inline napkin::system_phase phase(const char* name, std::uint64_t instances, std::uint64_t span, std::uint64_t busy,
                                  std::uint64_t kernels, std::uint64_t kernel_ns, std::uint64_t syncs,
                                  std::uint64_t sync_ns) {
  napkin::system_phase p;
  p.name = name;
  p.instances = instances;
  p.span_ns = span;
  p.busy_ns = busy;
  p.idle_ns = span - busy;
  p.kernels = kernels;
  p.kernel_ns = kernel_ns;
  p.kernel_durations = histogram(kernels, kernels == 0 ? 0 : kernel_ns / kernels);
  p.host_calls[index_of(napkin::host_call_kind::stream_synchronize)] = {syncs, sync_ns, 0};
  p.host_calls[index_of(napkin::host_call_kind::launch)] = {kernels, kernels * 40'000, 0};
  p.host_blocked_ns = sync_ns;
  return p;
}

inline napkin::system_report report() {
  using napkin::copy_direction;
  using napkin::host_memory;
  napkin::system_report r;
  r.run = phase("(run)", 11, 40'000'000, 15'000'000, 100, 12'000'000, 100, 9'000'000);
  r.run.idle_by_host = {10'000'000, 5'000'000, 2'000'000, 8'000'000};
  r.run.stream_gaps = histogram(99, 150'000);
  r.run.copies_by_direction[index_of(copy_direction::host_to_device)] = {4, 2'000'000, 8'000'000};
  r.run.copies_by_direction[index_of(copy_direction::device_to_host)] = {2, 1'000'000, 1'000'000};
  r.run.copies_by_memory[index_of(host_memory::pageable)] = {2, 1'000'000, 4'000'000};
  r.run.copies_by_memory[index_of(host_memory::pinned)] = {4, 2'000'000, 5'000'000};
  r.run.copy_overlapped_ns = 750'000;
  r.run.copies_on_kernel_streams = 6;
  r.run.communication_ns = 900'000;
  r.run.memsets = {1, 10'000, 4096};
  r.run.graph_launches = 3;
  r.run.graph_gaps = histogram(2, 500'000);
  r.run.graph_spans = histogram(3, 1'000'000);

  napkin::system_phase decode = phase("decode", 10, 30'000'000, 10'000'000, 80, 9'000'000, 80, 7'000'000);
  decode.idle_by_host = {8'000'000, 4'000'000, 2'000'000, 6'000'000};
  decode.copies_by_direction[index_of(copy_direction::host_to_device)] = {4, 2'000'000, 8'000'000};
  decode.copies_by_memory[index_of(host_memory::pinned)] = {4, 2'000'000, 5'000'000};
  decode.copies_by_memory[index_of(host_memory::pageable)] = {0, 0, 0};
  decode.copy_overlapped_ns = 500'000;
  decode.communication_ns = 900'000;
  napkin::system_phase outside = phase("", 1, 10'000'000, 5'000'000, 20, 3'000'000, 20, 2'000'000);
  outside.idle_by_host = {2'000'000, 1'000'000, 0, 2'000'000};
  outside.copies_by_direction[index_of(copy_direction::device_to_host)] = {2, 1'000'000, 1'000'000};
  outside.copies_by_memory[index_of(host_memory::pageable)] = {2, 1'000'000, 4'000'000};
  outside.copy_overlapped_ns = 250'000;
  r.phases = {decode, outside};

  r.findings.push_back({napkin::system_rule::gpu_starved, "decode",
                        "idle 66.7 % of 30.00 ms; host in synchronize 8.00 ms",
                        "launch more work before synchronizing, or synchronize less often", 20'000'000});
  r.findings.push_back({napkin::system_rule::pageable_copy, "", "2 copies from pageable memory, 1.00 ms",
                        "allocate the host buffers with cudaMallocHost", 1'000'000});
  r.kernels.push_back({"gemm<float>", 60, 9'000'000, 0.75, "decode"});
  r.kernels.push_back({"softmax", 40, 3'000'000, 0.25, ""});
  r.next.reason = "the GPU was idle 62.5% of the run: fix the system first";
  r.next.how = "napkin::profiler::per_kernel(...)";
  r.records_dropped = 2;
  r.late_records = 1;
  r.records_refused = 3;
  r.records_other_device = 4;
  return r;
}

}  // namespace system_samples
