// SPDX-License-Identifier: Apache-2.0
// napkin::monitor's member definitions: each forwards to the engine (monitor/monitor_engine.hpp). Included by
// monitor/monitor.hpp (header-only, the default: the members are inline) or, with
// NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <memory>
#include <string>
#include <utility>

#include "napkin/monitor/monitor.hpp"
#include "napkin/monitor/monitor_engine.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC monitor::monitor() : engine_(std::make_unique<detail::monitor_engine>()) {}
NAPKIN_DETAIL_FUNC monitor::monitor(const monitor_settings& settings)
    : engine_(std::make_unique<detail::monitor_engine>(settings)) {}
// Stops while the monitor is whole, as the class did before its state moved behind the pointer: a periodic
// callback that runs during the last drain may still call the monitor. The engine's destructor then writes the
// exit report.
NAPKIN_DETAIL_FUNC monitor::~monitor() { engine_->stop(); }

NAPKIN_DETAIL_FUNC bool monitor::running() const noexcept { return engine_->running(); }
NAPKIN_DETAIL_FUNC std::string monitor::status() const { return engine_->status(); }
NAPKIN_DETAIL_FUNC monitor_report monitor::report() { return engine_->report(); }
NAPKIN_DETAIL_FUNC void monitor::on_report(report_callback callback) { engine_->on_report(std::move(callback)); }
NAPKIN_DETAIL_FUNC void monitor::stop() noexcept { engine_->stop(); }
NAPKIN_DETAIL_FUNC monitor::cpu_use monitor::cpu() const { return engine_->cpu(); }
NAPKIN_DETAIL_FUNC std::size_t monitor::restarts() const noexcept { return engine_->restarts(); }
NAPKIN_DETAIL_FUNC monitor::decode_wall monitor::decode_time() const { return engine_->decode_time(); }
NAPKIN_DETAIL_FUNC std::string monitor::diagnostics() const { return engine_->diagnostics(); }

NAPKIN_END_NAMESPACE
