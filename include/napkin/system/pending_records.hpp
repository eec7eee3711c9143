// SPDX-License-Identifier: Apache-2.0
// napkin/system/pending_records.hpp — the system view's records while they wait for their chunk: add()'s
// batches with their bounds, and the cut that settle(t) makes through them (the records that ended by t,
// and what was still running at t, clipped to it). Batches spare a scan of every pending record at every
// settle: a batch wholly before or after the cut moves or stays as one (docs/system.md, "Cost").
// Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "napkin/system/host_activity.hpp"
#include "napkin/system/intervals.hpp"
#include "napkin/system/kernel_table.hpp"
#include "napkin/system/records.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// A gpu_work as the view keeps it until its chunk is analyzed: the kernel's name as its kernel_table id, so
// that sorting and splitting move 64 trivially copyable bytes, not strings (docs/system.md, "Cost").
struct system_work {
  std::uint64_t start_ns = 0, end_ns = 0, instance = 0, bytes = 0;
  std::uint32_t stream = 0, phase = 0, correlation = 0, graph = 0;
  std::uint32_t name = kernel_table::other_id;  // kernels: kernel_table::intern()'s id
  gpu_work_kind kind = gpu_work_kind::kernel;
  copy_direction direction = copy_direction::other;
  host_memory memory = host_memory::none;
  bool communication = false;  // kernels: is_communication_kernel(name)
};

// `w` as it waits; `name` is the kernel's id (kernels only).
inline system_work to_system_work(const gpu_work& w, kernel_table::name_id name) noexcept {
  system_work k;
  k.start_ns = w.start_ns;
  k.end_ns = w.end_ns;
  k.instance = w.instance;
  k.bytes = w.bytes;
  k.stream = w.stream;
  k.phase = w.phase;
  k.correlation = w.correlation;
  k.graph = w.graph;
  k.kind = w.kind;
  k.direction = w.direction;
  k.memory = w.memory;
  if (w.kind == gpu_work_kind::kernel) {
    k.name = name.id;
    k.communication = name.communication;
  }
  return k;
}

// Records waiting for their chunk, as one add() brought them, with their bounds. Host calls are counted
// when they come (their sums need no chunk); what waits is their time by class and the synchronous copies,
// whose bytes come from their GPU copies.
struct system_batch {
  std::vector<system_work> work;
  host_time_pieces call_time;
  std::vector<host_call> sync_copies;
  std::uint64_t min_start_ns = std::numeric_limits<std::uint64_t>::max(), max_end_ns = 0;
  void include(std::uint64_t start_ns, std::uint64_t end_ns) noexcept {
    min_start_ns = std::min(min_start_ns, start_ns);
    max_end_ns = std::max(max_end_ns, end_ns);
  }
  std::size_t calls() const noexcept { return call_time.size() + sync_copies.size(); }
};

// One chunk: the records that ended by the cut, and what was still running at it (started before it, ends
// after it), clipped to the cut: context for the chunk (busy, or the host's, up to the cut), not records
// of it, or that time would count idle for good. Its buffers are kept from one cut to the next (their
// capacity, not their contents).
struct system_chunk {
  std::vector<system_work> work;
  host_time_pieces call_time;
  std::vector<host_call> sync_copies;
  struct {
    std::vector<time_interval> work, kernels;
    host_time_pieces call_time;
  } running;

  void clear() noexcept {
    work.clear();
    sync_copies.clear();
    for (std::vector<time_interval>& v : call_time.by_class) v.clear();
    running.work.clear();
    running.kernels.clear();
    for (std::vector<time_interval>& v : running.call_time.by_class) v.clear();
  }
  bool empty() const noexcept { return work.empty() && call_time.size() == 0 && sync_copies.empty(); }
};

// add()'s batches until settled. GPU work and host calls are counted apart (the view bounds them apart).
class pending_records {
 public:
  void push(system_batch&& b) {
    if (b.work.empty() && b.calls() == 0) return;
    work_ += b.work.size();
    calls_ += b.calls();
    batches_.push_back(std::move(b));
  }

  std::size_t work() const noexcept { return work_; }
  std::size_t calls() const noexcept { return calls_; }

  // Moves the records that ended by `before_ns` (end_ns <= before_ns) into `chunk` (cleared first) and
  // clips what runs across the cut into chunk.running; the rest stays.
  void cut(std::uint64_t before_ns, system_chunk& chunk) {
    chunk.clear();
    std::deque<system_batch> keep;
    for (system_batch& b : batches_) {
      if (b.max_end_ns <= before_ns) {
        append(chunk.work, b.work);
        for (std::size_t c = 0; c < 3; ++c) append(chunk.call_time.by_class[c], b.call_time.by_class[c]);
        append(chunk.sync_copies, b.sync_copies);
        work_ -= b.work.size();
        calls_ -= b.calls();
        continue;
      }
      if (b.min_start_ns > before_ns) {  // nothing ended by the cut, nothing running at it
        keep.push_back(std::move(b));
        continue;
      }
      system_batch rest;
      for (const system_work& w : b.work) {
        if (w.end_ns <= before_ns) {
          chunk.work.push_back(w);
          continue;
        }
        if (w.start_ns < before_ns) {
          chunk.running.work.push_back({w.start_ns, before_ns});
          if (w.kind == gpu_work_kind::kernel) chunk.running.kernels.push_back({w.start_ns, before_ns});
        }
        rest.work.push_back(w);
        rest.include(w.start_ns, w.end_ns);
      }
      for (std::size_t c = 0; c < 3; ++c)
        for (const time_interval& i : b.call_time.by_class[c]) {
          if (i.end_ns <= before_ns) {
            chunk.call_time.by_class[c].push_back(i);
            continue;
          }
          if (i.start_ns < before_ns) chunk.running.call_time.by_class[c].push_back({i.start_ns, before_ns});
          rest.call_time.by_class[c].push_back(i);
          rest.include(i.start_ns, i.end_ns);
        }
      for (const host_call& c : b.sync_copies) {
        if (c.end_ns <= before_ns) {
          chunk.sync_copies.push_back(c);
          continue;
        }
        rest.sync_copies.push_back(c);
        rest.include(c.start_ns, c.end_ns);
      }
      work_ -= b.work.size() - rest.work.size();
      calls_ -= b.calls() - rest.calls();
      if (!rest.work.empty() || rest.calls() > 0) keep.push_back(std::move(rest));
    }
    batches_.swap(keep);
  }

 private:
  template <class T>
  static void append(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
  }

  std::deque<system_batch> batches_;
  std::size_t work_ = 0, calls_ = 0;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
