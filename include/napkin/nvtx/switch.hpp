// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/switch.hpp — whether napkin emits NVTX events now: its run-time switch and NVTX's
// "is a tool listening?" test, the two loads a range's constructor does before anything else.
//
//   NAPKIN_NVTX=0 (or off/false/no; 1/on/true/yes) in the environment, read on first use
//   napkin::set_nvtx_enabled(bool)   for the whole process, from any thread; wins over the environment
//   napkin::nvtx_enabled()           the switch
//   napkin::nvtx_tool_attached()     whether a tool receives this module's ranges
//
// Why the tool test is well defined, and costs one load: docs/nvtx.md, "Why it costs nothing".
#pragma once

#include "napkin/config.hpp"
#include "napkin/detail/switch_word.hpp"
#include "napkin/nvtx/config.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string_view>

// The one-time initializations wait with the OS's yield rather than std::this_thread::yield: <thread>
// would cost every translation unit that includes napkin/nvtx.hpp (docs/compile-time.md).
#if defined(_WIN32)
#include <processthreadsapi.h>  // SwitchToThread
#else
#include <sched.h>  // sched_yield
#endif

// Shared by every translation unit of this napkin version, with or without exceptions, with NVTX
// compiled in or out (napkin/config.hpp): one switch and one NVTX initialization per process. Each is
// an atomic, constant-initialized, so it is usable during static initialization and never destroyed
// before a late range.
NAPKIN_BEGIN_PROCESS_STATE
// napkin's run-time NVTX switch: the low two bits are unread (0) / on (1) / off (2), bit 2 is set while
// a range listener is installed (see detail::switch_* below). "On" is stored with release only after
// NVTX is initialized (nvtx_initialization); ranges load it with acquire.
inline std::atomic<unsigned char> nvtx_switch{0};
// napkin's one call of nvtxInitialize (loads the NVTX tool, if any, and sets NVTX's dispatch pointers):
// 0 not started, 1 running, 2 done. An atomic rather than std::once_flag: std::call_once may throw
// (std::system_error) and goes through pthread_once, which glibc before 2.34 has only in libpthread.
inline std::atomic<unsigned char> nvtx_initialization{0};
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {
// Lets another thread run while this one waits for a one-time initialization (std::this_thread::yield).
inline void yield_thread() noexcept {
#if defined(_WIN32)
  (void)SwitchToThread();
#else
  (void)sched_yield();
#endif
}

// The low two bits: unread / on / off. switch_listened is set while a range listener is installed
// (napkin/nvtx/listener.hpp), so that a range's hot path stays one load and one compare against switch_on.
enum : unsigned char {
  switch_unread = 0,
  switch_on = 1,
  switch_off = 2,
  switch_state_mask = 3,
  switch_listened = 4
};
using process_state::nvtx_switch;

// NVTX's one-time initialization, done by napkin before its switch first says "on". Until NVTX has
// initialized, its dispatch pointers hold NVTX's init stub (non-null) whether or not a tool exists, so
// a range could not tell "tool attached" from "not initialized yet" (see tool_takes_pushes below).
inline void initialize_nvtx() noexcept {
  std::atomic<unsigned char>& state = process_state::nvtx_initialization;
  if (NAPKIN_DETAIL_LIKELY(state.load(std::memory_order_acquire) == 2)) return;
  unsigned char expected = 0;
  if (state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
    nvtxInitialize(nullptr);
    state.store(2, std::memory_order_release);  // what the tool wrote happens-before every acquire of 2
    return;
  }
  while (state.load(std::memory_order_acquire) != 2) yield_thread();  // another thread initializes
}

// First use only: NAPKIN_NVTX decides, unless set_nvtx_enabled() already did.
NAPKIN_DETAIL_COLD inline bool read_nvtx_switch() noexcept {
  unsigned char wanted = switch_on;
  if (const char* env = std::getenv("NAPKIN_NVTX"); env != nullptr && *env != '\0') {
    const switch_word w = parse_switch_word(env);  // the one reader of napkin's on/off variables
    if (w == switch_word::off) {
      wanted = switch_off;
    } else if (w == switch_word::other) {
      std::fprintf(stderr, "napkin: NAPKIN_NVTX=\"%s\" is not on or off (1/0, true/false, on/off or yes/no, any "
                           "case); NVTX ranges stay enabled\n", env);
    }
  }
  if (wanted == switch_on) initialize_nvtx();
  unsigned char current = nvtx_switch.load(std::memory_order_acquire);
  while ((current & switch_state_mask) == switch_unread) {
    if (nvtx_switch.compare_exchange_weak(current, static_cast<unsigned char>(current | wanted),
                                          std::memory_order_acq_rel, std::memory_order_acquire)) {
      return wanted == switch_on;
    }
  }
  return (current & switch_state_mask) == switch_on;  // set_nvtx_enabled() won the race: the API call wins
}

// Sets the on/off state, keeping the listened bit. "On" is published only after NVTX is initialized.
inline void write_nvtx_state(unsigned char state) noexcept {
  if (state == switch_on) initialize_nvtx();
  unsigned char current = nvtx_switch.load(std::memory_order_relaxed);
  while (!nvtx_switch.compare_exchange_weak(current,
                                            static_cast<unsigned char>((current & ~switch_state_mask) | state),
                                            std::memory_order_release, std::memory_order_relaxed)) {
  }
}

// The hot-path gate: a single load when the switch has been read. Acquire: a thread that sees "on"
// also sees NVTX's dispatch pointers as its initialization left them (a plain load on x86-64).
inline bool runtime_enabled() noexcept {
  const unsigned char s = nvtx_switch.load(std::memory_order_acquire);
  if (NAPKIN_DETAIL_LIKELY(s == switch_on)) return true;
  const unsigned char state = s & switch_state_mask;
  return state == switch_unread ? read_nvtx_switch() : state == switch_on;
}
}  // namespace detail

#if NAPKIN_NVTX_ENABLED
namespace detail {
// Whether a tool implements an NVTX entry point: NVTX dispatches each C call through one function pointer
// in NVTX_VERSIONED_IDENTIFIER(nvtxGlobals) (nvtxDetail/nvtxImpl.h). Before NVTX initializes, every
// pointer holds NVTX's init stub (non-null); its initialization (nvtxInitOnce, nvtxDetail/nvtxInit.h)
// loads the tool named by NVTX_INJECTION64_PATH, lets it assign the pointers of the entry points it
// implements, and sets the others to null. So the pointer answers "a tool listens" only once NVTX has
// initialized, which napkin guarantees before any range reads it:
//   - napkin calls nvtxInitialize (once, process_state::nvtx_initialization) before it stores
//     "on" in its switch (release), and a range reads the switch (acquire) before the pointer; the
//     pointers a tool wrote during initialization therefore happen-before the range's read (no data race,
//     also for ThreadSanitizer, whichever thread initialized NVTX);
//   - the read itself is a relaxed atomic load (__atomic_load_n, GCC/Clang) of the pointer-sized word:
//     never torn, never cached across iterations by the compiler; on x86-64 and AArch64 a plain load.
// NVTX_NO_IMPL builds (tools themselves) have no such pointers: "maybe attached", take the full path.
#if defined(NVTX_NO_IMPL)
#define NAPKIN_DETAIL_NVTX_TOOL(entry) true
#elif defined(__GNUC__) || defined(__clang__)
#define NAPKIN_DETAIL_NVTX_TOOL(entry) \
  (__atomic_load_n(&NVTX_VERSIONED_IDENTIFIER(nvtxGlobals).entry##_impl_fnptr, __ATOMIC_RELAXED) != nullptr)
#else
#define NAPKIN_DETAIL_NVTX_TOOL(entry) (NVTX_VERSIONED_IDENTIFIER(nvtxGlobals).entry##_impl_fnptr != nullptr)
#endif
inline bool tool_takes_pushes() noexcept { return NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangePushEx); }
inline bool tool_takes_starts() noexcept { return NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangeStartEx); }
inline bool tool_takes_marks() noexcept { return NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainMarkEx); }
#undef NAPKIN_DETAIL_NVTX_TOOL

inline bool should_push() noexcept { return runtime_enabled() && tool_takes_pushes(); }
inline bool should_start() noexcept { return runtime_enabled() && tool_takes_starts(); }
inline bool should_mark() noexcept { return runtime_enabled() && tool_takes_marks(); }
}  // namespace detail

inline namespace nvtx_on {
// Whether napkin emits NVTX events now (the run-time switch; NAPKIN_NVTX is read on first use).
inline bool nvtx_enabled() noexcept { return detail::runtime_enabled(); }
// Turns every napkin range, mark and name on or off for the whole process, from any thread. Ranges
// already open finish as they started, so pushes and pops stay balanced.
inline void set_nvtx_enabled(bool on) noexcept {
  detail::write_nvtx_state(on ? detail::switch_on : detail::switch_off);
}
// Whether a tool receives NVTX ranges from this module. Initializes NVTX (cheap after the first call):
// call it early to keep NVTX's one-time tool search out of a timed region.
inline bool nvtx_tool_attached() noexcept {
  detail::initialize_nvtx();
  return detail::tool_takes_pushes();
}
}  // namespace nvtx_on
#else   // compiled out: the same functions, constant answers
inline namespace nvtx_off {
inline bool nvtx_enabled() noexcept { return false; }
inline void set_nvtx_enabled(bool) noexcept {}
inline bool nvtx_tool_attached() noexcept { return false; }
}  // namespace nvtx_off
#endif  // NAPKIN_NVTX_ENABLED

NAPKIN_END_NAMESPACE
