// The unit with exceptions that no_exceptions_test.cpp (without) is linked with: napkin's NVTX
// state must be one for the whole process, whatever each unit's exception setting.
#include <napkin/nvtx.hpp>

static_assert(NAPKIN_HAS_EXCEPTIONS == 1, "this unit must be compiled with exceptions");

void mixed_set_nvtx_enabled(bool on) { napkin::set_nvtx_enabled(on); }
bool mixed_nvtx_enabled() { return napkin::nvtx_enabled(); }
void mixed_open_range(const char* name) { napkin::range r{name}; }
