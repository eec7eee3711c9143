// napkin/nvtx.hpp in a -fno-exceptions translation unit (this file), linked with one that has exceptions
// (no_exceptions_mixed_tu.cpp), run under the recorder tool. Checks:
//   - ranges, formatted names, a malformed run-time format, marks and start/end ranges reach the tool;
//   - the two kinds of unit share napkin's process-wide NVTX state (the switch, the listener slot);
//   - bad input at run time (color_from_hsv(360, ...)) ends the process with napkin's message, and a
//     failure handler is called first (a child process does it; the parent checks how it ended).
// No doctest: its header would differ between this unit and its main, which has exceptions.
#include <napkin/nvtx.hpp>

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "recorder.hpp"

static_assert(NAPKIN_HAS_EXCEPTIONS == 0, "this test must be compiled with -fno-exceptions");

// From no_exceptions_mixed_tu.cpp (compiled with exceptions).
void mixed_set_nvtx_enabled(bool on);
bool mixed_nvtx_enabled();
void mixed_open_range(const char* name);

namespace {
int failures = 0;
void expect(bool ok, const char* what, int line) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "no_exceptions_test.cpp:%d: FAILED: %s\n", line, what);
  }
}
#define EXPECT(cond) expect((cond), #cond, __LINE__)

void function_range() { NAPKIN_FUNC_RANGE(); }

struct heard_listener final : napkin::detail::range_listener {
  bool on_push(const char*, std::string_view name) noexcept override {
    heard.emplace_back(name);
    return false;
  }
  void on_pop() noexcept override {}
  std::vector<std::string> heard;
};
heard_listener listener;

// Runs `child` in a forked process with its stderr captured; returns the text and how it ended.
struct ending {
  std::string stderr_text;
  int signal = 0;  // 0: exited
};
template <class F>
ending run_in_child(F child) {
  int fds[2];
  if (::pipe(fds) != 0) return {"pipe failed", -1};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    child();
    std::_Exit(0);
  }
  ::close(fds[1]);
  ending e;
  char buffer[512];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) e.stderr_text.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return e;
}

volatile unsigned bad_hue = 360;  // volatile: the call below happens at run time, not in constant evaluation
void handler(const napkin::error_info& info) { std::fprintf(stderr, "handler saw: %s\n", info.message().c_str()); }
}  // namespace

int main() {
  using strings = std::vector<std::string>;
  EXPECT(napkin::nvtx_tool_attached());

  // Ranges reach the tool. Colors computed with Python (FNV-1a % 360, colorsys.hsv_to_rgb(h, 0.75, 0.9)):
  // "gemm" 251 -> 0xFF5939E6, "layer 3" 299 -> 0xFFE339E6, "job 7" 321 -> 0xFFE639A9.
  napkin_test::take();
  const std::string malformed = "layer {} {}";
  {
    napkin::range a{"gemm"};
    napkin::range b{"layer {}", 3};
    napkin::range c{napkin::runtime_format(malformed), 1};
    auto u = napkin::unique_range{"job {}", 7};
    u.end();
  }
  const strings got = napkin_test::without_tids(napkin_test::take());
  EXPECT(got.size() == 8);  // 3 pushes, a start and its end, 3 pops
  if (got.size() == 8) {
    EXPECT(got[0] == R"(push domain=napkin name="gemm" color=0xFF5939E6 category=0 payload=none)");
    EXPECT(got[1] == R"(push domain=napkin name="layer 3" color=0xFFE339E6 category=0 payload=none)");
    EXPECT(got[2].find(R"(name="layer {} {} [napkin: malformed NVTX format: more {} than arguments]")") !=
           std::string::npos);
    EXPECT(got[3].rfind(R"(start domain=napkin name="job 7" color=0xFFE639A9 category=0 payload=none id=)", 0) == 0);
    EXPECT(got[4].rfind("end domain=napkin id=", 0) == 0);
    for (std::size_t i = 5; i < 8; ++i) EXPECT(got[i] == "pop domain=napkin");
  }
  function_range();
  const strings func = napkin_test::without_tids(napkin_test::take());
  EXPECT(func.size() == 3 && (func[0] == R"(register domain=napkin name="{anonymous}::function_range")" ||
                              func[0] == R"(register domain=napkin name="(anonymous namespace)::function_range")"));

  // One switch for the process: turned off by the unit with exceptions, off here too, and back.
  mixed_set_nvtx_enabled(false);
  EXPECT(!napkin::nvtx_enabled());
  {
    napkin::range silent{"silent"};
    mixed_open_range("silent too");
  }
  EXPECT(napkin_test::take().empty());
  napkin::set_nvtx_enabled(true);
  EXPECT(mixed_nvtx_enabled());

  // One listener slot: installed here, it hears the other unit's range.
  napkin::detail::install_range_listener(&listener);
  mixed_open_range("mixed");
  napkin::detail::remove_range_listener(&listener);
  EXPECT(listener.heard == strings{"mixed"});
  napkin_test::take();

  // Bad input at run time ends the process with napkin's message (no exceptions to throw) ...
  const ending plain = run_in_child([] { (void)napkin::color_from_hsv(bad_hue, 0.5, 0.5); });
  EXPECT(plain.signal == SIGABRT);
  // The numbers as napkin/text/numbers.hpp writes them: significant(0.5) = "0.5000" (four digits).
  EXPECT(plain.stderr_text.find("napkin: fatal (built without exceptions): napkin: color_from_hsv(360, 0.5000, 0.5000): "
                                "hue must be in [0, 360), saturation and value in [0, 1]") != std::string::npos);
  // ... after calling the user's failure handler, which has no value to return and so cannot continue.
  const ending handled = run_in_child([] {
    napkin::set_failure_handler(handler);
    (void)napkin::color_from_hsv(bad_hue, 0.5, 0.5);
  });
  EXPECT(handled.signal == SIGABRT);
  EXPECT(handled.stderr_text.find("handler saw: napkin: color_from_hsv(360, 0.5000, 0.5000)") != std::string::npos);
  EXPECT(handled.stderr_text.find("the failure handler returned") != std::string::npos);

  if (failures == 0) std::printf("nvtx_no_exceptions: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
