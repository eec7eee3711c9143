// Compiled by CTest with -DNAPKIN_CASE=<n>: each invalid launch must stop the compiler in constant
// evaluation, and the diagnostic must name the failed check (tests/occupancy/CMakeLists.txt has the
// expected names). Case 0 is a valid launch and must compile.
#include <napkin/occupancy.hpp>

#include <climits>

constexpr napkin::compute_capability h100{9, 0};

// H100's limits with one field changed, as a user-built sm_limits (cases 11..14).
template <class Change>
constexpr napkin::sm_limits h100_with(Change change) {
  napkin::sm_limits l = napkin::limits_of(h100);
  change(l);
  return l;
}

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
#elif NAPKIN_CASE == 8
// 8.10 is not a compute capability; 8 * 10 + 10 = 90 used to return Hopper's limits.
constexpr auto r = napkin::occupancy(napkin::limits_of({8, 10}), 256, napkin::kernel_resources{32});
#elif NAPKIN_CASE == 9
constexpr auto r = napkin::occupancy(napkin::compute_capability{10, -10}, 256, 32);
#elif NAPKIN_CASE == 10
constexpr auto r = napkin::occupancy(napkin::compute_capability{INT_MAX, 0}, 256, 32);
#elif NAPKIN_CASE == 11
constexpr auto r = napkin::occupancy(h100_with([](napkin::sm_limits& l) { l.warp_size = 0; }), 256,
                                     napkin::kernel_resources{32});
#elif NAPKIN_CASE == 12
constexpr auto r = napkin::occupancy(h100_with([](napkin::sm_limits& l) { l.smem_allocation_unit = 0; }), 256,
                                     napkin::kernel_resources{32});
#elif NAPKIN_CASE == 13
constexpr auto r = napkin::occupancy(h100_with([](napkin::sm_limits& l) { l.carveout_count = 11; }), 256,
                                     napkin::kernel_resources{32});
#elif NAPKIN_CASE == 14
constexpr auto r = napkin::occupancy(h100_with([](napkin::sm_limits& l) { l.cc.major = INT_MAX; }), 256,
                                     napkin::kernel_resources{32});
#elif NAPKIN_CASE == 15
// 2 blocks x INT_MAX SMs does not fit an int.
constexpr auto best = napkin::best_block_size(napkin::limits_of(h100), napkin::kernel_resources{32});
constexpr struct {
  int blocks_per_sm;
} r{best.min_grid_size(INT_MAX)};
#endif

int main() { return r.blocks_per_sm > 0 ? 0 : 1; }
