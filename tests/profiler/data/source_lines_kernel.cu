// A kernel for the PC -> line test (tests/profiler/source_lines_test.cpp); data/make_source_lines_cubin.sh
// builds the cubins and records nvdisasm's line table for them.
__device__ __forceinline__ float twice(float v) {
  return v * 2.0f;
}

extern "C" __global__ void strided_sum(const float* in, int n, int stride, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int i = t * stride; i < n; i += stride * 32)
    acc += in[i];
  out[t] = twice(acc);
}
