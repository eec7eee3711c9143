// SPDX-License-Identifier: Apache-2.0
// napkin/compiled.hpp — the bodies that NAPKIN_SEPARATE_COMPILATION leaves out of the headers, compiled once.
//
// With NAPKIN_SEPARATE_COMPILATION=1 defined for every unit of a program, include this header in exactly one
// source file of it (a file of its own is simplest):
//
//   // napkin_compiled.cpp, built with -DNAPKIN_SEPARATE_COMPILATION=1 like the rest of the program
//   #include <napkin/compiled.hpp>
//
// Every other unit includes napkin/monitor.hpp, napkin/profiler.hpp and the rest as usual and gets the
// declarations only. Without that file the link fails naming the missing napkin functions; with it in two
// files, it fails naming them twice. It needs what the profiler and the monitor need (CUDA's runtime, CUPTI:
// link napkin::profiler). It includes every *_impl.hpp under napkin/: the plain-C++ ones through
// napkin/compiled_plain.hpp (which a program without CUDA includes instead), then the profiler's and the
// monitor's (build_headers checks that none is missing). docs/compile-time.md has the figures.
#pragma once

#include "napkin/config.hpp"

#if !NAPKIN_SEPARATE_COMPILATION
#error "napkin/compiled.hpp compiles napkin's bodies for NAPKIN_SEPARATE_COMPILATION=1; define it for every unit of the program (header-only napkin needs no such file)"
#endif

#include "napkin/compiled_plain.hpp"

#include "napkin/monitor/monitor_impl.hpp"
#include "napkin/profiler/launches_impl.hpp"
#include "napkin/profiler/phase_impl.hpp"
#include "napkin/profiler/scope_impl.hpp"
#include "napkin/profiler/session_impl.hpp"
