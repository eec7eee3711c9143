// The short CUDA_CHECK never clashes with a program's own: napkin/check.hpp defines it only when the
// program has not defined one and has not defined NAPKIN_NO_SHORT_MACROS. Each configuration is its own
// translation unit (short_macros/*.cpp), compiled with -Werror: a redefinition of CUDA_CHECK by napkin
// would be a build error there ("CUDA_CHECK redefined").
#include <doctest/doctest.h>
#include <napkin/check.hpp>

cudaError_t own_cuda_check(cudaError_t e);  // short_macros/own_cuda_check.cpp
int own_cuda_check_calls();
cudaError_t check_without_short_macros(cudaError_t e);  // short_macros/no_short_macros.cpp

TEST_CASE("by default CUDA_CHECK is napkin's NAPKIN_CUDA_CHECK") {
  CHECK(CUDA_CHECK(cudaSuccess) == cudaSuccess);
  CHECK_THROWS_AS(CUDA_CHECK(cudaErrorInvalidValue), napkin::cuda_error);
}

TEST_CASE("a CUDA_CHECK the program defined before including napkin is the program's") {
  CHECK(own_cuda_check(cudaErrorInvalidValue) == cudaErrorInvalidValue);  // the program's: counts, never throws
  CHECK(own_cuda_check_calls() == 1);
}

TEST_CASE("with NAPKIN_NO_SHORT_MACROS there is no CUDA_CHECK, and the NAPKIN_ names work") {
  CHECK(check_without_short_macros(cudaSuccess) == cudaSuccess);
  CHECK_THROWS_AS(check_without_short_macros(cudaErrorInvalidValue), napkin::cuda_error);
}
