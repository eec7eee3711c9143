// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx.hpp — RAII NVTX ranges that cost nothing when no tool is attached.
//
//   napkin::range r{"gemm"};                      // push/pop in napkin's domain, color from the name
//   napkin::range r{"layer {}", i};               // formatted only when a tool (nsys, ncu, ...) listens
//   napkin::range r{"io", napkin::rgb{0, 0, 255}, napkin::payload{bytes}};
//   NAPKIN_FUNC_RANGE();                          // named "ns::solver::step", "main::lambda@42", ...
//   auto job = napkin::unique_range{"request"};   // start/end: movable, may end on another thread
//   napkin::mark("checkpoint");
//   napkin::name_current_thread("loader"); napkin::name_stream(s, "copy");
//
// Format strings ("layer {}"): {} placeholders filled in order with operator<<, {{ and }} for braces.
// A malformed literal is a compile error in C++20 (checked like std::format_string) and, in any
// standard, when written NAPKIN_FMT("layer {}"); a format known only at run time is passed as
// napkin::runtime_format(text) (C++17 also takes it directly) and, if malformed, names the range with the
// text as written plus a marker: a range never throws for its format.
//
// Switches: NAPKIN_NVTX=0 in the environment or napkin::set_nvtx_enabled(false) at run time (one
// load per range); NVTX_DISABLE or NAPKIN_NVTX_DISABLE at compile time (every range is an empty
// object). Built on NVTX3's C++ wrappers through the explicit-version namespace nvtx3::v1, as
// nvtx3.hpp recommends for header-only libraries. Works with and without exceptions. See docs/nvtx.md.
//
// This header includes the parts of napkin/nvtx/, each usable alone:
//   config.hpp         NAPKIN_NVTX_ENABLED and the one include of NVTX3 (explicit version)
//   color.hpp          color, rgb, argb; color_from_hsv, color_of (a name's default color)
//   domain.hpp         default_domain, global_domain, NAPKIN_DOMAIN
//   attributes.hpp     category, payload; what a range accepts as its name and attributes
//   switch.hpp         the run-time switch (NAPKIN_NVTX, set_nvtx_enabled) and the "tool attached?" test
//   function_name.hpp  the readable name NAPKIN_FUNC_RANGE gives a range
//   format.hpp         formatted names: format_string, NAPKIN_FMT, runtime_format, napkin::format
//   call_site.hpp      the per-call-site object of NAPKIN_RANGE / NAPKIN_FUNC_RANGE (registered once)
//   listener.hpp       the range-listener hook napkin's profiler watches phases with
//   event.hpp          an NVTX event from a name and attributes (the cold path)
//   range.hpp          range, range_in, unique_range, unique_range_in, mark, mark_in; on and compiled out
//   naming.hpp         names for categories, threads, streams, devices and events
//   macros.hpp         NAPKIN_RANGE, NAPKIN_FUNC_RANGE, ...; every macro this part leaves defined
#pragma once

#include "napkin/nvtx/attributes.hpp"
#include "napkin/nvtx/call_site.hpp"
#include "napkin/nvtx/color.hpp"
#include "napkin/nvtx/config.hpp"
#include "napkin/nvtx/domain.hpp"
#include "napkin/nvtx/event.hpp"
#include "napkin/nvtx/format.hpp"
#include "napkin/nvtx/function_name.hpp"
#include "napkin/nvtx/listener.hpp"
#include "napkin/nvtx/macros.hpp"
#include "napkin/nvtx/naming.hpp"
#include "napkin/nvtx/range.hpp"
#include "napkin/nvtx/switch.hpp"
