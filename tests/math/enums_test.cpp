// Enum values outside the enumerators (a cast from a file, a network message, a bad index) never read
// past an array or give a silently wrong number: names print as "unknown", computations refuse them.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "math/error_message.hpp"
#include "support/value_lists.hpp"
#include "napkin/math.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

namespace {
const pipe bad_pipe = static_cast<pipe>(12);  // pipe_count: one past the last enumerator
const pipe worse_pipe = static_cast<pipe>(255);
const dtype bad_dtype = static_cast<dtype>(99);
}  // namespace

static_assert(to_string(static_cast<pipe>(12)) == "unknown");
static_assert(describe(static_cast<pipe>(200)) == "unknown pipe");
static_assert(to_string(static_cast<dtype>(8)) == "unknown");
static_assert(to_string(static_cast<regime>(2)) == "unknown");
static_assert(!gpus::h100_sxm.has(static_cast<pipe>(12)));

TEST_CASE("names of out-of-range values") {
  CHECK(to_string(bad_pipe) == "unknown");
  CHECK(to_string(worse_pipe) == "unknown");
  CHECK(describe(worse_pipe) == "unknown pipe");
  CHECK(to_string(bad_dtype) == "unknown");
  CHECK(to_string(static_cast<regime>(7)) == "unknown");
  // The enumerators keep their names.
  CHECK(to_string(pipe::int8_tensor) == "int8-tc");
  CHECK(to_string(regime::memory_bound) == "memory-bound");
  CHECK(to_string(dtype::int32) == "int32");
  // The short names the CLI accepts (--algorithm, --pass) and prints (sparsity).
  CHECK(to_string(softmax_algorithm::three_pass) == "three-pass");
  CHECK(to_string(pass::forward_backward) == "fwd+bwd");
  CHECK(to_string(sparsity::sparse_2_4) == "2:4-sparse");
  CHECK(describe(sparsity::sparse_2_4) == "2:4 sparse");
  CHECK(describe(sparsity::dense) == "dense");
  CHECK(to_string(static_cast<softmax_algorithm>(3)) == "unknown");
  CHECK(to_string(static_cast<pass>(3)) == "unknown");
  CHECK(to_string(static_cast<sparsity>(2)) == "unknown");
  CHECK(describe(static_cast<sparsity>(2)) == "unknown");
}

TEST_CASE("computations refuse out-of-range values") {
  CHECK_FALSE(gpus::h100_sxm.has(worse_pipe));
  CHECK_THROWS_AS(gpus::h100_sxm.peak(bad_pipe), std::invalid_argument);
  CHECK(contains(error_message([] { gpus::h100_sxm.peak(static_cast<pipe>(12)); }), "not a napkin::pipe (12)"));
  CHECK_THROWS_AS(ridge_point(gpus::h100_sxm, bad_pipe), std::invalid_argument);
  CHECK_THROWS_AS((make_peaks({{bad_pipe, 1e12}})), std::invalid_argument);
  CHECK_THROWS_AS(bytes_per_element(bad_dtype), std::invalid_argument);
  CHECK(contains(error_message([] { bytes_per_element(static_cast<dtype>(99)); }), "not a napkin::dtype (99)"));
  CHECK_THROWS_AS((gemm(8, 8, 8, element_types{bad_dtype, dtype::fp32, dtype::fp32})), std::invalid_argument);
  CHECK_THROWS_AS(input_reads(static_cast<softmax_algorithm>(3)), std::invalid_argument);
  CHECK_THROWS_AS(softmax(8, 8, dtype::fp32, static_cast<softmax_algorithm>(3)), std::invalid_argument);
  CHECK_THROWS_AS((attention(attention_shape{}, dtype::fp16, static_cast<pass>(3))), std::invalid_argument);
  CHECK_THROWS_AS(peak_flops(gpus::h100_sxm, pipe::fp16_tensor, static_cast<sparsity>(2)), std::invalid_argument);
  CHECK_THROWS_AS(estimate(gemm(8, 8, 8), gpus::h100_sxm, pipe::fp32, static_cast<sparsity>(2)),
                  std::invalid_argument);
}

// One value list per enum that is read back from text; from_string reads to_string's names and nothing else.
static_assert(from_string("fp16-tc", all_pipes) == pipe::fp16_tensor);
static_assert(!from_string("unknown", all_pipes).has_value());
static_assert(from_string("int32", all_dtypes) == dtype::int32);
static_assert(parse_dtype("half") == dtype::fp16);

TEST_CASE("value lists of the math enums") {
  napkin_test::check_value_list(all_dtypes, 8);
  napkin_test::check_value_list(all_pipes, pipe_count);
  napkin_test::check_value_list(all_softmax_algorithms, 3);
  napkin_test::check_value_list(all_passes, 3);
  CHECK(from_string("three-pass", all_softmax_algorithms) == softmax_algorithm::three_pass);
  CHECK(from_string("fwd+bwd", all_passes) == pass::forward_backward);
  CHECK_FALSE(from_string("FP16", all_dtypes).has_value());  // exact names; the CLI lowers what it is given
  // The aliases parse_dtype accepts name real types and never shadow a name.
  for (const dtype_alias& a : dtype_aliases) {
    CHECK(parse_dtype(a.alias) == a.type);
    CHECK_FALSE(from_string(a.alias, all_dtypes).has_value());
  }
  for (dtype t : all_dtypes) CHECK(parse_dtype(to_string(t)) == t);
  for (pipe p : all_pipes) CHECK(parse_pipe(to_string(p)) == p);
}
