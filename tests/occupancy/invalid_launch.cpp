// Compiled by CTest with -DNAPKIN_CASE=<n>: each invalid launch must stop the compiler in constant
// evaluation, and the diagnostic must name the failed check (tests/occupancy/CMakeLists.txt has the
// expected names). Case 0 is a valid launch and must compile.
#include <napkin/occupancy.hpp>

constexpr napkin::compute_capability h100{9, 0};

#if NAPKIN_CASE == 0
constexpr auto r = napkin::occupancy(h100, 256, 32, 8 * 1024);
static_assert(r.blocks_per_sm == 8);
#elif NAPKIN_CASE == 1
constexpr auto r = napkin::occupancy(h100, 0, 32);
#elif NAPKIN_CASE == 2
constexpr auto r = napkin::occupancy(h100, 1025, 32);
#elif NAPKIN_CASE == 3
constexpr auto r = napkin::occupancy(h100, 256, 256);
#elif NAPKIN_CASE == 4
constexpr auto r = napkin::occupancy(h100, 256, 32, 227 * 1024 + 1);
#elif NAPKIN_CASE == 5
constexpr auto r = napkin::occupancy(napkin::limits_of(h100), 256, napkin::kernel_resources{32, 48 * 1024 + 1});
#elif NAPKIN_CASE == 6
constexpr auto r = napkin::occupancy(napkin::compute_capability{13, 0}, 256, 32);
#elif NAPKIN_CASE == 7
constexpr napkin::kernel_resources not_opted_in{32, 0, 48 * 1024};
constexpr auto r = napkin::occupancy(napkin::limits_of(h100), 256, not_opted_in, 64 * 1024);
#endif

int main() { return r.blocks_per_sm > 0 ? 0 : 1; }
