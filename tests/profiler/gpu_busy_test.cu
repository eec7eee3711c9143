// Two processes profiling one GPU: this test starts a copy of itself (the "holder", the first case below,
// which does nothing unless started so) that keeps a profiler scope open on the GPU for a few seconds, then
// makes a profiler of its own on that GPU. The second profiler must fail with CUPTI's busy error explained
// (never crash); with profiler_options::busy_wait long enough it must wait and succeed once the holder
// lets go. Whether a scope in another process holds the counters is the hardware's and CUPTI's business:
// where it does not, the cases say so (WARN) instead of failing.
#include <doctest/doctest.h>

#include <cuda_runtime.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "napkin/profiler.hpp"
#include "two_devices.cuh"

extern char** environ;  // NOLINT: POSIX's

namespace {

constexpr const char* ready_variable = "NAPKIN_TEST_HOLDER_READY_FILE";
constexpr const char* seconds_variable = "NAPKIN_TEST_HOLDER_SECONDS";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The holder: a child process of this test, holding the counters of the current GPU for `seconds`.
class holder {
 public:
  explicit holder(int seconds) {
    ready_ = "/tmp/napkin_busy_holder_" + std::to_string(::getpid()) + "_" + std::to_string(seconds);
    std::remove(ready_.c_str());
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
    env.push_back(std::string(ready_variable) + "=" + ready_);
    env.push_back(std::string(seconds_variable) + "=" + std::to_string(seconds));
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string exe = "/proc/self/exe", filter = "--test-case=busy holder*", quiet = "--no-intro";
    char* argv[] = {exe.data(), filter.data(), quiet.data(), nullptr};
    REQUIRE(posix_spawn(&pid_, exe.c_str(), nullptr, nullptr, argv, envp.data()) == 0);
  }
  holder(const holder&) = delete;
  holder& operator=(const holder&) = delete;
  ~holder() {
    if (pid_ > 0) (void)::waitpid(pid_, nullptr, 0);
    std::remove(ready_.c_str());
  }
  // Whether the child has its scope open, within a minute (CUDA's start-up and CUPTI's Enable come first).
  bool wait_until_ready() const {
    for (int i = 0; i < 600; ++i) {
      if (std::ifstream(ready_).good()) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) return false;  // it ended without getting there
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // The child's exit status (0: it held and released the counters without an error).
  int finish() {
    int status = 0;
    REQUIRE(::waitpid(pid_, &status, 0) == pid_);
    pid_ = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  std::string ready_;
  pid_t pid_ = 0;
};

}  // namespace

TEST_CASE("busy holder (runs only as the child of the cases below)") {
  const char* ready = std::getenv(ready_variable);
  if (ready == nullptr) return;
  const char* seconds = std::getenv(seconds_variable);
  napkin::profiler prof(napkin::metric_sets::one_pass());
  auto scope = prof.open_scope("held");
  std::ofstream(ready) << "ready\n";
  std::this_thread::sleep_for(std::chrono::seconds(seconds != nullptr ? std::atoi(seconds) : 3));
  (void)scope.stop();
}

TEST_CASE("a second process on a GPU whose counters are held gets the busy error explained") {
  if (std::getenv(ready_variable) != nullptr) return;  // the holder itself
  holder other(4);
  REQUIRE(other.wait_until_ready());
  const napkin_multi_gpu::device_work work(0);
  bool busy = false;
  try {
    napkin::profiler prof(napkin::metric_sets::one_pass());
    (void)prof.measure("copy and sum", [&] { work.run(); });
  } catch (const napkin::profiler_error& e) {
    MESSAGE(e.what());
    CHECK(e.status() == CUPTI_ERROR_HARDWARE_BUSY);
    CHECK(contains(e.what(), "held by another client"));
    CHECK(contains(e.what(), "dcgmi profile --pause"));
    CHECK(contains(e.what(), "napkin did not wait (profiler_options::busy_wait = 0)"));
    busy = true;
  }
  WARN_MESSAGE(busy, "the holder's open scope did not make this process's profiler busy: nothing to explain");
  CHECK(other.finish() == 0);
}

TEST_CASE("with busy_wait, the second process waits for the counters and measures") {
  if (std::getenv(ready_variable) != nullptr) return;  // the holder itself
  holder other(3);
  REQUIRE(other.wait_until_ready());
  const napkin_multi_gpu::device_work work(0);
  napkin::profiler_options o;
  o.busy_wait = std::chrono::seconds(60);
  const auto t0 = std::chrono::steady_clock::now();
  napkin::profiler prof(napkin::metric_sets::one_pass(), o);
  const napkin::sol_report r = prof.measure("copy and sum", [&] { work.run(); });
  const double waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE("measured after ", waited_s, " s (the holder held the counters for 3 s)");
  CHECK(r.duration_ns().value_or(0) > 0);
  CHECK(other.finish() == 0);
}
