// The check macros in device code, compiled by nvcc (CTest: check_device_*). Without a GPU these are
// build tests: the default build must compile warning-free and its PTX must hold the device-side check
// (a printf, i.e. a call to vprintf, and a `trap;`), and each NAPKIN_TEST_* variant must fail to build
// with an error that names the problem. Before device-side checks existed, NAPKIN_CUDA_CHECK in a
// __host__ __device__ function compiled to nothing on the device (nvcc warning #20011, no trap).
// gpu_test.cu runs the same checks on a GPU.
#include <napkin/check.hpp>
#include <napkin/check/cublas.hpp>

// Host code in a .cu file keeps the host behaviour, for every status type (the device pass must not
// reject a cuBLAS status that only host code checks).
void host_checks(cublasStatus_t s, int* p);

__host__ __device__ cudaError_t status_for(int i) { return i == 0 ? cudaErrorInvalidValue : cudaSuccess; }

// A __host__ __device__ function: checked on both sides.
__host__ __device__ int checked_on_both_sides(int i) { return NAPKIN_CUDA_CHECK(status_for(i)) == cudaSuccess; }

__device__ bool device_checks(int i) {
  NAPKIN_CUDA_CHECK_ALLOW(status_for(i), cudaErrorInvalidValue);
  return NAPKIN_CUDA_CHECK_NOTHROW(status_for(i));
}

__global__ void kernel(int* out) { out[threadIdx.x] = checked_on_both_sides(threadIdx.x) + device_checks(threadIdx.x); }

void host_checks(cublasStatus_t s, int* p) {
  NAPKIN_CUDA_CHECK(s);
  NAPKIN_CUDA_CHECK_ALLOW(s, CUBLAS_STATUS_NOT_INITIALIZED);
  (void)NAPKIN_CUDA_CHECK_NOTHROW(s);
  NAPKIN_CUDA_LAUNCH(kernel<<<1, 2>>>(p));
  (void)checked_on_both_sides(1);
}

#if defined(NAPKIN_TEST_DEVICE_OTHER_STATUS)
// cuBLAS has no device-side API returning cublasStatus_t; its traits do not say checkable_on_device.
__global__ void other_status(cublasStatus_t s) { NAPKIN_CUDA_CHECK(s); }
#endif
#if defined(NAPKIN_TEST_DEVICE_LAUNCH_CHECK)
__global__ void launch_check() { NAPKIN_CUDA_CHECK_LAUNCH(); }
#endif
#if defined(NAPKIN_TEST_DEVICE_LAUNCH)
__host__ __device__ void nothing() {}
__host__ __device__ void launch_in_hd() { NAPKIN_CUDA_LAUNCH(nothing()); }
__global__ void launch() { launch_in_hd(); }
#endif
