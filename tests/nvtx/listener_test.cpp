// The range-listener hook napkin's profiler uses to watch an annotated phase (profiler::watch_phase):
// which ranges a listener hears, with which domain and name, and which pops come back. No tool, no GPU.
#include <napkin/nvtx.hpp>

#include <doctest/doctest.h>

#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

NAPKIN_DOMAIN(lib_domain, "my-lib");

// Records what it hears; accepts pushes whose name starts with "yes".
class recording_listener final : public napkin::detail::range_listener {
 public:
  bool on_push(const char* domain, std::string_view name) noexcept override {
    const std::lock_guard<std::mutex> lock(mutex_);
    events.push_back(std::string("push ") + domain + "@" + std::string(name));
    return name.substr(0, 3) == "yes";
  }
  void on_pop() noexcept override {
    const std::lock_guard<std::mutex> lock(mutex_);
    events.emplace_back("pop");
  }
  std::vector<std::string> events;

 private:
  std::mutex mutex_;
};

recording_listener listener;  // static storage, as the hook requires

struct installed {
  installed() { napkin::detail::install_range_listener(&listener); }
  ~installed() { napkin::detail::remove_range_listener(&listener); }
};

void function_with_range() { NAPKIN_FUNC_RANGE(); }

}  // namespace

TEST_CASE("a listener hears every kind of push range, by domain and name, and the pops it asked for") {
  listener.events.clear();
  {
    const installed on;
    {
      napkin::range a{"yes literal"};
      napkin::range b{std::string("no string")};
      napkin::range c{"yes {} of {}", 3, 4};  // formatted for the listener although no tool listens
      napkin::range_in<lib_domain> d{std::string_view("yes view")};
      napkin::range_in<napkin::global_domain> e{"yes global"};
    }
    { NAPKIN_RANGE("yes site"); }
    function_with_range();
  }
  napkin::range after{"yes after"};  // no listener installed: nothing heard
  const std::vector<std::string> expected{
      "push napkin@yes literal", "push napkin@no string", "push napkin@yes 3 of 4", "push my-lib@yes view",
      "push @yes global",
      // closing in reverse order; only the four accepted ranges come back
      "pop", "pop", "pop", "pop",
      "push napkin@yes site", "pop",
      "push napkin@{anonymous}::function_with_range"};
  // __PRETTY_FUNCTION__ spells the anonymous namespace "{anonymous}" (GCC) or "(anonymous namespace)" (Clang).
  std::vector<std::string> heard = listener.events;
  for (auto& e : heard)
    if (const auto at = e.find("(anonymous namespace)"); at != std::string::npos)
      e.replace(at, std::string("(anonymous namespace)").size(), "{anonymous}");
  CHECK(heard == expected);
}

TEST_CASE("a listener hears ranges with NVTX switched off at run time, and from every thread") {
  listener.events.clear();
  {
    const installed on;
    napkin::set_nvtx_enabled(false);
    { napkin::range a{"yes off"}; }
    napkin::set_nvtx_enabled(true);
    std::thread([] { napkin::range t{"no thread"}; }).join();
  }
  const std::vector<std::string> expected{"push napkin@yes off", "pop", "push napkin@no thread"};
  CHECK(listener.events == expected);
}

TEST_CASE("a range that outlives the listener's installation loses its pop; NVTX state is kept") {
  listener.events.clear();
  napkin::set_nvtx_enabled(false);
  {
    std::optional<installed> on(std::in_place);
    CHECK_FALSE(napkin::nvtx_enabled());  // installing a listener leaves the switch as it was
    napkin::range a{"yes early"};
    on.reset();  // removed while the range is open
  }
  CHECK_FALSE(napkin::nvtx_enabled());
  napkin::set_nvtx_enabled(true);
  const std::vector<std::string> expected{"push napkin@yes early"};
  CHECK(listener.events == expected);
}

TEST_CASE("set_nvtx_enabled() while a listener is installed keeps it installed") {
  listener.events.clear();
  {
    const installed on;
    napkin::set_nvtx_enabled(false);
    napkin::set_nvtx_enabled(true);
    CHECK(napkin::nvtx_enabled());
    { napkin::range a{"no after toggling"}; }
  }
  const std::vector<std::string> expected{"push napkin@no after toggling"};
  CHECK(listener.events == expected);
}
