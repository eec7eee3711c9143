// napkin's NVTX ranges as a tool sees them. This program runs under tests/nvtx/recorder.cpp,
// loaded through NVTX_INJECTION64_PATH (CTest sets it), and asserts the exact event sequence.
// Expected colors: napkin's rule is hue = FNV-1a(name) % 360, saturation 0.75, value 0.9; the values
// below were computed independently with Python (FNV-1a written out, colorsys.hsv_to_rgb, rounding
// x*255+0.5), e.g. "gemm": FNV-1a % 360 = 251 -> 0xFF5939E6; "solver::solve": 309 -> 0xFFE639CC.
#include <napkin/nvtx.hpp>

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "recorder.hpp"

using napkin_test::take;
using napkin_test::take_without_tids;
using strings = std::vector<std::string>;

namespace {

// A range opened during static initialization, before main() and before doctest exists.
const int opened_before_main = [] {
  napkin::range r{"static-init"};
  return 1;
}();

NAPKIN_DOMAIN(my_library, "my-library");
struct tag_domain {
  static constexpr const char* name{"tag-domain"};
};

std::string tid_of_this_thread() { return std::to_string(napkin::current_os_thread_id()); }
std::string value_of(const std::string& line, const std::string& key) {
  auto at = line.find(" " + key + "=");
  REQUIRE(at != std::string::npos);
  at += key.size() + 2;
  return line.substr(at, line.find(' ', at) - at);
}

}  // namespace

namespace solver {
template <class T>
struct stepper {
  int step() const {
    NAPKIN_FUNC_RANGE();
    return 1;
  }
};
int solve() {
  NAPKIN_FUNC_RANGE();
  return 0;
}
}  // namespace solver

TEST_CASE("a tool is attached and napkin is on") {
  CHECK(napkin::nvtx_tool_attached());
  CHECK(napkin::nvtx_enabled());
  CHECK(napkin_test::recorder_loaded());
}

TEST_CASE("a range opened during static initialization reaches the tool first") {
  REQUIRE(opened_before_main == 1);
  const strings h = napkin_test::without_tids(napkin_test::history());
  REQUIRE(h.size() >= 2);
  CHECK(h[0] == R"(push domain=napkin name="static-init" color=0xFFE67E39 category=0 payload=none)");
  CHECK(h[1] == "pop domain=napkin");
}

TEST_CASE("literal ranges: napkin's domain, color from the name, nesting") {
  take();
  {
    napkin::range outer{"gemm"};
    {
      napkin::range inner{"x"};
    }
  }
  CHECK(take_without_tids() == strings{
                                   R"(push domain=napkin name="gemm" color=0xFF5939E6 category=0 payload=none)",
                                   R"(push domain=napkin name="x" color=0xFF39E664 category=0 payload=none)",
                                   "pop domain=napkin",
                                   "pop domain=napkin",
                               });
}

TEST_CASE("attributes: explicit color, category, payloads of every type, in any order") {
  take();
  {
    napkin::range a{"io", napkin::rgb{0x12, 0x34, 0x56}};
    napkin::range b{"io", napkin::payload{std::int64_t{-7}}, napkin::category{3}};
    napkin::range c{"io", napkin::category{4}, napkin::color{0x80FF0000u}, napkin::payload{std::uint64_t{9}}};
    napkin::range d{"io", napkin::payload{2.5}};
    napkin::range e{"io", napkin::payload{1.5f}, napkin::argb{0x11, 0x22, 0x33, 0x44}};
    napkin::range f{"io", napkin::payload{std::int32_t{-3}}};
    napkin::range g{"io", napkin::payload{std::uint32_t{5}}};
  }
  const strings got = take_without_tids();
  REQUIRE(got.size() == 14);
  CHECK(got[0] == R"(push domain=napkin name="io" color=0xFF123456 category=0 payload=none)");
  CHECK(got[1] == R"(push domain=napkin name="io" color=0xFF8139E6 category=3 payload=i64:-7)");
  CHECK(got[2] == R"(push domain=napkin name="io" color=0x80FF0000 category=4 payload=u64:9)");
  CHECK(got[3] == R"(push domain=napkin name="io" color=0xFF8139E6 category=0 payload=f64:2.5)");
  CHECK(got[4] == R"(push domain=napkin name="io" color=0x11223344 category=0 payload=f32:1.5)");
  CHECK(got[5] == R"(push domain=napkin name="io" color=0xFF8139E6 category=0 payload=i32:-3)");
  CHECK(got[6] == R"(push domain=napkin name="io" color=0xFF8139E6 category=0 payload=u32:5)");
  for (std::size_t i = 7; i < 14; ++i) CHECK(got[i] == "pop domain=napkin");
}

TEST_CASE("domains: NAPKIN_DOMAIN, a hand-written tag, NVTX's global domain") {
  take();
  {
    napkin::range_in<my_library> a{"x"};
    napkin::range_in<tag_domain> b{"x"};
    napkin::range_in<napkin::global_domain> c{"x"};
  }
  CHECK(take_without_tids() == strings{
                                   R"(push domain=my-library name="x" color=0xFF39E664 category=0 payload=none)",
                                   R"(push domain=tag-domain name="x" color=0xFF39E664 category=0 payload=none)",
                                   R"(push domain=<global> name="x" color=0xFF39E664 category=0 payload=none)",
                                   "pop domain=<global>",
                                   "pop domain=tag-domain",
                                   "pop domain=my-library",
                               });
}

TEST_CASE("run-time names: const char*, std::string, std::string_view, callables") {
  take();
  const std::string owned = "layer 3";
  const char* const pointer = owned.c_str();
  const std::string_view view = std::string_view{"layer 3 and more"}.substr(0, 7);
  const char* const null_name = nullptr;
  {
    napkin::range a{pointer};
    napkin::range b{owned};
    napkin::range c{view};
    napkin::range d{[] { return std::string{"layer "} + std::to_string(3); }};
    napkin::range e{null_name};
  }
  const strings got = take_without_tids();
  REQUIRE(got.size() == 10);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(got[i] == R"(push domain=napkin name="layer 3" color=0xFFE339E6 category=0 payload=none)");
  }
  CHECK(value_of(got[4], "name") == "\"(null)\"");
}

TEST_CASE("formatted names are formatted for the tool") {
  take();
  const int layer = 3;
  {
    napkin::range a{"layer {}", layer};
    napkin::range b{"{} {}", "job", 7};
    napkin::range c{napkin::format("layer {}", layer), napkin::payload{std::int64_t{layer}}};
    napkin::range d{"{{literal}} {}", 1};
  }
  const strings got = take_without_tids();
  REQUIRE(got.size() == 8);
  CHECK(got[0] == R"(push domain=napkin name="layer 3" color=0xFFE339E6 category=0 payload=none)");
  CHECK(got[1] == R"(push domain=napkin name="job 7" color=0xFFE639A9 category=0 payload=none)");
  CHECK(got[2] == R"(push domain=napkin name="layer 3" color=0xFFE339E6 category=0 payload=i64:3)");
  CHECK(value_of(got[3], "name") == R"("{literal})");  // value_of stops at the space
}

TEST_CASE("a malformed run-time format names the range with its text and a marker; nothing throws") {
  // Opened inside noexcept functions, as ranges often are: an exception here would be std::terminate.
  take();
  const std::string more = "layer {} {}";
  const std::string fewer = "layer";
  const std::string spec = "layer {:>4}";
  const std::string open = "layer {";
  [&]() noexcept {
    napkin::range a{napkin::runtime_format(more), 1};
    napkin::range b{napkin::runtime_format(fewer), 1};
    napkin::range c{napkin::runtime_format(spec), 1};
    napkin::mark(napkin::runtime_format(open), 1);
    auto u = napkin::unique_range{napkin::runtime_format(more), 2};
    CHECK(u.running());
  }();
  // Names written by hand from the documented rule: the text, then " [napkin: malformed NVTX format: ...]".
  const strings got = take_without_tids();
  REQUIRE(got.size() == 9);  // 3 pushes, a mark, a start, then the end and 3 pops
  CHECK(got[0].find(R"(name="layer {} {} [napkin: malformed NVTX format: more {} than arguments]")") !=
        std::string::npos);
  CHECK(got[1].find(R"(name="layer [napkin: malformed NVTX format: fewer {} than arguments]")") !=
        std::string::npos);
  CHECK(got[2].find(R"(name="layer {:>4} [napkin: malformed NVTX format: a brace that is not part of {}, {{ or }})") !=
        std::string::npos);
  CHECK(got[3].rfind(R"(mark domain=napkin name="layer { [napkin: malformed NVTX format: a brace)", 0) == 0);
  CHECK(got[4].find(R"(name="layer {} {} [napkin: malformed NVTX format: more {} than arguments]")") !=
        std::string::npos);
  CHECK(got[4].rfind("start ", 0) == 0);
  CHECK(got[5].rfind("end ", 0) == 0);
  for (std::size_t i = 6; i < 9; ++i) CHECK(got[i] == "pop domain=napkin");
}

TEST_CASE("NAPKIN_RANGE registers its literal once and colors it at compile time") {
  take();
  for (int i = 0; i < 3; ++i) {
    NAPKIN_RANGE("lit", napkin::payload{i});
  }
  CHECK(take_without_tids() == strings{
                                   R"(register domain=napkin name="lit")",
                                   R"(push domain=napkin name=registered:"lit" color=0xFF39C9E6 category=0 payload=i32:0)",
                                   "pop domain=napkin",
                                   R"(push domain=napkin name=registered:"lit" color=0xFF39C9E6 category=0 payload=i32:1)",
                                   "pop domain=napkin",
                                   R"(push domain=napkin name=registered:"lit" color=0xFF39C9E6 category=0 payload=i32:2)",
                                   "pop domain=napkin",
                               });
  constexpr napkin::color lit = napkin::color_of("lit");  // a constant expression
  static_assert(lit.get_value() == 0xFF39C9E6u);
}

TEST_CASE("NAPKIN_FUNC_RANGE: qualified readable names, registered once per call site") {
  take();
  solver::solve();
  solver::solve();
  solver::stepper<float>{}.step();
  const strings got = take_without_tids();
  REQUIRE(got.size() == 8);
  CHECK(got[0] == R"(register domain=napkin name="solver::solve")");
  CHECK(got[1] == R"(push domain=napkin name=registered:"solver::solve" color=0xFFE639CC category=0 payload=none)");
  CHECK(got[2] == "pop domain=napkin");
  CHECK(got[3] == R"(push domain=napkin name=registered:"solver::solve" color=0xFFE639CC category=0 payload=none)");
  CHECK(got[4] == "pop domain=napkin");
  // GCC prints the template's parameter, Clang its argument.
  const bool stepper_named = got[5] == R"(register domain=napkin name="solver::stepper<T>::step")" ||
                             got[5] == R"(register domain=napkin name="solver::stepper<float>::step")";
  CHECK_MESSAGE(stepper_named, got[5]);
}

TEST_CASE("NAPKIN_FUNC_RANGE in a lambda names the enclosing function and the line") {
  take();
  const int line = __LINE__ + 1;
  auto body = [] { NAPKIN_FUNC_RANGE_WITH(my_library, napkin::category{2}); };
  body();
  const strings got = take_without_tids();
  REQUIRE(got.size() == 3);
  const std::string name = value_of(got[0], "name");
  // The enclosing function is doctest's generated test function; what matters is the suffix.
  const std::string suffix = "::lambda@" + std::to_string(line) + "\"";
  CHECK_MESSAGE(name.size() > suffix.size(), name);
  CHECK(name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
  CHECK(name.find("operator") == std::string::npos);
  CHECK(got[0].rfind("register domain=my-library name=", 0) == 0);
  CHECK(got[1].find(" category=2 ") != std::string::npos);
  CHECK(got[2] == "pop domain=my-library");
}

TEST_CASE("start/end ranges end on another thread, in any order, once") {
  take();
  const std::string starter = tid_of_this_thread();
  napkin::unique_range first{"job {}", 7};
  auto second = napkin::unique_range_in<my_library>{"x", napkin::payload{std::int64_t{1}}};
  CHECK(first.running());
  std::string ender;
  std::thread worker{[&ender, job = std::move(first)]() mutable {
    ender = tid_of_this_thread();
    job.end();
    job.end();  // idempotent
  }};
  worker.join();
  CHECK_FALSE(first.running());  // NOLINT(bugprone-use-after-move): moved-from is documented as ended
  second.end();
  const strings got = take();
  REQUIRE(got.size() == 4);
  const std::string id1 = value_of(got[0], "id");
  const std::string id2 = value_of(got[1], "id");
  CHECK(id1 != id2);
  CHECK(napkin_test::without_tids({got[0]})[0] ==
        R"(start domain=napkin name="job 7" color=0xFFE639A9 category=0 payload=none id=)" + id1);
  CHECK(napkin_test::without_tids({got[1]})[0] ==
        R"(start domain=my-library name="x" color=0xFF39E664 category=0 payload=i64:1 id=)" + id2);
  CHECK(value_of(got[0], "tid") == starter);
  CHECK(got[2] == "end domain=napkin id=" + id1 + " tid=" + ender);
  CHECK(ender != starter);
  CHECK(got[3] == "end domain=my-library id=" + id2 + " tid=" + starter);
}

TEST_CASE("a unique_range ends when destroyed or overwritten") {
  take();
  {
    napkin::unique_range a{"x"};
    a = napkin::unique_range{"gemm"};  // ends "x" first
  }
  const strings got = take_without_tids();
  REQUIRE(got.size() == 4);
  const std::string x = value_of(got[0], "id");
  const std::string gemm = value_of(got[1], "id");
  CHECK(got[2] == "end domain=napkin id=" + x);
  CHECK(got[3] == "end domain=napkin id=" + gemm);
}

TEST_CASE("marks") {
  take();
  napkin::mark("checkpoint");
  napkin::mark("{} {}", "job", 7);
  napkin::mark_in<my_library>("x", napkin::payload{std::uint32_t{4}}, napkin::category{1});
  napkin::mark_in<my_library>(napkin::format("layer {}", 3), napkin::rgb{1, 2, 3});
  CHECK(take_without_tids() == strings{
                                   R"(mark domain=napkin name="checkpoint" color=0xFFE6C039 category=0 payload=none)",
                                   R"(mark domain=napkin name="job 7" color=0xFFE639A9 category=0 payload=none)",
                                   R"(mark domain=my-library name="x" color=0xFF39E664 category=1 payload=u32:4)",
                                   R"(mark domain=my-library name="layer 3" color=0xFF010203 category=0 payload=none)",
                               });
}

TEST_CASE("names for threads, streams, devices, events and categories") {
  take();
  napkin::name_current_thread("main");
  // Values are only forwarded to the tool, so fake handles are fine without a GPU.
  napkin::name_stream(reinterpret_cast<cudaStream_t>(0x1234), "copy");
  napkin::name_stream(nullptr, "legacy default");
  napkin::name_device(0, "gpu0");
  napkin::name_event(reinterpret_cast<cudaEvent_t>(0xbeef), "done");
  const napkin::category io = napkin::name_category<my_library>(7, "IO");
  CHECK(io.get_id() == 7);
  // On Linux the main thread's id is the process id: an independent check of current_os_thread_id().
  CHECK(take() == strings{
                      "name_thread tid=" + std::to_string(::getpid()) + R"( name="main")",
                      R"(name_stream stream=0x1234 name="copy")",
                      R"(name_stream stream=0x0 name="legacy default")",
                      R"(name_device device=0 name="gpu0")",
                      R"(name_event event=0xBEEF name="done")",
                      R"(name_category domain=my-library id=7 name="IO")",
                  });
}

TEST_CASE("the run-time switch: nothing while off, and pushes and pops stay balanced") {
  take();
  {
    napkin::range open_before{"x"};
    napkin::set_nvtx_enabled(false);
    CHECK_FALSE(napkin::nvtx_enabled());
    napkin::range while_off{"gemm"};
    napkin::mark("checkpoint");
    napkin::unique_range u{"job {}", 7};
    napkin::name_current_thread("off");
    solver::solve();
    CHECK_NOTHROW([] { napkin::range r(napkin::runtime_format("layer {} {}"), 1); }());  // never formatted
    napkin::set_nvtx_enabled(true);
  }  // while_off pops nothing; open_before pops
  CHECK(take_without_tids() == strings{
                                   R"(push domain=napkin name="x" color=0xFF39E664 category=0 payload=none)",
                                   "pop domain=napkin",
                               });
  CHECK(napkin::nvtx_enabled());
}

TEST_CASE("many threads at once: every push has its pop on the same thread") {
  take();
  constexpr int threads = 8;
  constexpr int per_thread = 500;
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&go, t] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < per_thread; ++i) {
        NAPKIN_FUNC_RANGE();
        napkin::range r{"worker {}", t};
      }
    });
  }
  go = true;
  for (auto& th : pool) th.join();
  const strings got = take();
  CHECK(got.size() == static_cast<std::size_t>(threads * per_thread * 4 + 1));  // + one registration
  std::map<std::string, int> depth;
  int max_depth = 0;
  for (const auto& line : got) {
    if (line.rfind("register", 0) == 0) continue;
    int& d = depth[value_of(line, "tid")];
    d += line.rfind("push", 0) == 0 ? 1 : -1;
    CHECK(d >= 0);
    max_depth = std::max(max_depth, d);
  }
  CHECK(depth.size() == static_cast<std::size_t>(threads));
  for (const auto& [tid, d] : depth) CHECK(d == 0);
  CHECK(max_depth == 2);
}

TEST_CASE("invalid NAPKIN_NVTX is reported and leaves ranges on" * doctest::skip()) {
  // Run by CTest with NAPKIN_NVTX=maybe; the warning itself is matched by PASS_REGULAR_EXPRESSION.
  CHECK(napkin::nvtx_enabled());
  take();
  { napkin::range r{"x"}; }
  CHECK(take().size() == 2);
}

TEST_CASE("with no tool attached nothing is recorded and nothing breaks" * doctest::skip()) {
  // Run by CTest without NVTX_INJECTION64_PATH.
  CHECK_FALSE(napkin::nvtx_tool_attached());
  CHECK(napkin::nvtx_enabled());
  {
    napkin::range r{"layer {}", 1};
    CHECK_NOTHROW([] { napkin::range bad(napkin::runtime_format("layer {} {}"), 1); }());  // never formatted
    napkin::unique_range u{"x"};
    CHECK_FALSE(u.running());
    napkin::mark("checkpoint");
    solver::solve();
  }
  CHECK_FALSE(napkin_test::recorder_loaded());
}
