// The functions whose -O3 code benchmarks/nvtx/hot_path.sh compares: each holds one empty napkin range,
// mark or macro, i.e. the inlined constructor/destructor pair a user's code carries (issue #13: the
// split of napkin/nvtx.hpp into napkin/nvtx/ had to leave this code unchanged).
#include <napkin/nvtx.hpp>

#include <cstdint>

void empty_range() { napkin::range r{"x"}; }
void empty_range_attr(long long b) { napkin::range r{"x", napkin::payload{static_cast<std::int64_t>(b)}}; }
void empty_formatted(int i) { napkin::range r{"x {}", i}; }
void empty_func() { NAPKIN_FUNC_RANGE(); }
void empty_literal() { NAPKIN_RANGE("lit"); }
void empty_unique() { napkin::unique_range u{"x"}; }
void empty_mark() { napkin::mark("x"); }
