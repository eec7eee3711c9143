// Every library's status goes through the same macro, named by the library's own getter (or the table
// generated from its header). Each library is also made to fail for real where it can fail without a GPU.
#include <doctest/doctest.h>
#include <napkin/check/cublas.hpp>
#include <napkin/check/cufft.hpp>
#include <napkin/check/cupti.hpp>
#include <napkin/check/curand.hpp>
#include <napkin/check/cusolver.hpp>
#include <napkin/check/cusparse.hpp>
#include <napkin/check/driver.hpp>
#include <napkin/check/nvjitlink.hpp>
#include <napkin/check/nvrtc.hpp>

#include <cublas_v2.h>
#include <cupti.h>

#include <string>

#include "support/gpu.hpp"

namespace {
template <class Status>
napkin::cuda_error thrown_by(Status s) {
  try {
    NAPKIN_CUDA_CHECK(s);
  } catch (const napkin::cuda_error& e) {
    return e;
  }
  FAIL("no throw");
  throw;  // unreachable
}
}  // namespace

TEST_CASE("driver API: CUresult names, texts and stickiness, with or without a driver") {
  const auto e = thrown_by(CUDA_ERROR_OUT_OF_MEMORY);
  CHECK(e.library() == "CUDA driver");
  CHECK(e.name() == "CUDA_ERROR_OUT_OF_MEMORY");
  CHECK(e.code() == 2);
  CHECK_FALSE(e.description().empty());
  CHECK(napkin::to_string(CUDA_ERROR_ILLEGAL_ADDRESS) == "CUDA_ERROR_ILLEGAL_ADDRESS");
  CHECK(napkin::is_sticky(CUDA_ERROR_ILLEGAL_ADDRESS));
  CHECK_FALSE(napkin::is_sticky(CUDA_ERROR_INVALID_VALUE));
  CHECK(NAPKIN_CUDA_CHECK_NOTHROW(CUDA_ERROR_DEINITIALIZED));  // shutting down: quiet
  // A code that no header knows still reports its number.
  const auto unknown = thrown_by(static_cast<CUresult>(123456));
  CHECK(unknown.code() == 123456);
  CHECK(std::string(unknown.what()).find("(123456)") != std::string::npos);
  if (napkin_test::why_no_gpu().empty())
    CHECK(cudaPeekAtLastError() == cudaSuccess);  // looking up the getters left nothing pending
}

TEST_CASE("cuBLAS / cuBLASLt: names and texts from cuBLAS itself") {
  const auto e = thrown_by(CUBLAS_STATUS_ALLOC_FAILED);
  CHECK(e.library() == "cuBLAS");
  CHECK(e.name() == "CUBLAS_STATUS_ALLOC_FAILED");
  CHECK(e.description() == cublasGetStatusString(CUBLAS_STATUS_ALLOC_FAILED));
  CHECK(napkin::to_string(CUBLAS_STATUS_NOT_SUPPORTED) == "CUBLAS_STATUS_NOT_SUPPORTED");
}

TEST_CASE("cuBLAS fails for real without a device") {
  if (!napkin_test::why_no_gpu().empty()) {
    cublasHandle_t h = nullptr;
    const auto e = [&] {
      try {
        NAPKIN_CUDA_CHECK(cublasCreate(&h));
      } catch (const napkin::cuda_error& err) {
        return std::string(err.what());
      }
      return std::string();
    }();
    CHECK(e.find("cublasCreate(&h)") != std::string::npos);
    CHECK(e.find("CUBLAS_STATUS_NOT_INITIALIZED") != std::string::npos);
  } else {
    MESSAGE("skipped: a GPU is present (cublasCreate succeeds); a null handle fails anywhere:");
  }
  // Fails on any machine: cuBLAS rejects a null handle.
  try {
    NAPKIN_CUDA_CHECK(cublasSetStream(nullptr, nullptr));
    FAIL("no throw");
  } catch (const napkin::cuda_error& err) {
    CHECK(err.library() == "cuBLAS");
    CHECK(err.code() != 0);
    CHECK(err.expression() == "cublasSetStream(nullptr, nullptr)");
  }
}

TEST_CASE("cuSPARSE: names from cusparseGetErrorName") {
  const auto e = thrown_by(CUSPARSE_STATUS_INVALID_VALUE);
  CHECK(e.library() == "cuSPARSE");
  CHECK(e.name() == "CUSPARSE_STATUS_INVALID_VALUE");
  CHECK_FALSE(e.description().empty());
}

TEST_CASE("cuFFT, cuRAND, cuSOLVER, nvJitLink: names from the generated tables") {
  CHECK(thrown_by(CUFFT_INVALID_SIZE).name() == "CUFFT_INVALID_SIZE");
  CHECK(thrown_by(CUFFT_INVALID_SIZE).library() == "cuFFT");
  CHECK(thrown_by(CUFFT_NVJITLINK_FAILURE).name() == "CUFFT_NVJITLINK_FAILURE");
  CHECK(thrown_by(CURAND_STATUS_TYPE_ERROR).name() == "CURAND_STATUS_TYPE_ERROR");
  CHECK(thrown_by(CURAND_STATUS_TYPE_ERROR).description() == "Generator is wrong type");
  CHECK(thrown_by(CUSOLVER_STATUS_ZERO_PIVOT).name() == "CUSOLVER_STATUS_ZERO_PIVOT");
  CHECK(thrown_by(NVJITLINK_ERROR_MISSING_ARCH).name() == "NVJITLINK_ERROR_MISSING_ARCH");
  CHECK(thrown_by(static_cast<cufftResult>(0x7777)).code() == 0x7777);
}

TEST_CASE("cuRAND fails for real: an unknown generator type") {
  curandGenerator_t g = nullptr;
  const auto bad = static_cast<curandRngType_t>(12345);
  try {
    NAPKIN_CUDA_CHECK(curandCreateGeneratorHost(&g, bad));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.library() == "cuRAND");
    CHECK(e.name() == "CURAND_STATUS_TYPE_ERROR");
    CHECK(e.expression() == "curandCreateGeneratorHost(&g, bad)");
  }
}

TEST_CASE("NVRTC fails for real: a program that does not compile") {
  nvrtcProgram prog = nullptr;
  NAPKIN_CUDA_CHECK(nvrtcCreateProgram(&prog, "__global__ void k() { this is not C++; }", "bad.cu", 0,
                                       nullptr, nullptr));
  try {
    NAPKIN_CUDA_CHECK(nvrtcCompileProgram(prog, 0, nullptr));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.library() == "NVRTC");
    CHECK(e.name() == "NVRTC_ERROR_COMPILATION");
    CHECK(std::string(e.what()).find("nvrtcGetProgramLog") != std::string::npos);
  }
  CHECK(NAPKIN_CUDA_CHECK_NOTHROW(nvrtcDestroyProgram(&prog)));
}

TEST_CASE("nvJitLink fails for real: no -arch option") {
  nvJitLinkHandle h = nullptr;
  const char* options[] = {"-O3"};
  try {
    NAPKIN_CUDA_CHECK(nvJitLinkCreate(&h, 1, options));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.library() == "nvJitLink");
    CHECK(e.name() == "NVJITLINK_ERROR_MISSING_ARCH");
  }
  // nvJitLinkCreate hands back a handle even when it fails (CUDA 13.0; LeakSanitizer found it): destroy it.
  if (h != nullptr) nvJitLinkDestroy(&h);
}

TEST_CASE("CUPTI: name and message from CUPTI, and a hint for restricted counters") {
  const auto e = thrown_by(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  CHECK(e.library() == "CUPTI");
  CHECK(e.name() == "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
  CHECK_FALSE(e.description().empty());
  CHECK(std::string(e.what()).find("NVreg_RestrictProfilingToAdminUsers=0") != std::string::npos);
  CHECK(std::string(thrown_by(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED).what()).find("ncu") !=
        std::string::npos);
  // The same advice as the profiler's messages (one table): a busy counter unit names DCGM.
  CHECK(std::string(thrown_by(CUPTI_ERROR_HARDWARE_BUSY).what()).find("DCGM") != std::string::npos);
}

TEST_CASE("CUPTI fails for real: a null argument") {
  try {
    NAPKIN_CUDA_CHECK(cuptiGetVersion(nullptr));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.name() == "CUPTI_ERROR_INVALID_PARAMETER");
  }
}
