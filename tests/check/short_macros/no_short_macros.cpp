// A program that opts out of napkin's short macros.
#define NAPKIN_NO_SHORT_MACROS
#include <napkin/check.hpp>

#ifdef CUDA_CHECK
#error "napkin/check.hpp defined CUDA_CHECK although NAPKIN_NO_SHORT_MACROS is defined"
#endif

cudaError_t check_without_short_macros(cudaError_t e) { return NAPKIN_CUDA_CHECK(e); }
