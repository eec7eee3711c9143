// Invalid inputs must fail to compile in constant evaluation. CMake compiles this file once per case
// (-DNAPKIN_CASE_ID=<n>, named in CMakeLists.txt) and expects the compiler to fail with a diagnostic that names the problem (the
// napkin::detail function the bad input reached). Case 0 (control) must compile, which proves that
// the failures come from the bad inputs and not from a broken file.
#include "napkin/quantify.hpp"
#include "napkin/roofline.hpp"

#if NAPKIN_CASE_ID == 0
constexpr double ok = napkin::gemm(4096, 4096, 4096).intensity() + napkin::ridge_point(napkin::find_gpu("h100-sxm"), napkin::parse_pipe("fp16-tc")) +
                      napkin::amdahl_speedup(0.5, 2) + napkin::peak_flops(napkin::gpus::h100_sxm, napkin::pipe::fp16_tensor, napkin::sparsity::sparse_2_4) +
                      static_cast<double>(napkin::parse_dtype("bf16")) + static_cast<double>(napkin::tensor_pipe(napkin::dtype::fp16, napkin::dtype::fp32));
#elif NAPKIN_CASE_ID == 1
constexpr auto bad = napkin::gemm(0, 4096, 4096);
#elif NAPKIN_CASE_ID == 2
constexpr auto bad = napkin::softmax(-8, 1024);
#elif NAPKIN_CASE_ID == 3
constexpr auto bad = napkin::gemm(1ll << 40, 1ll << 40, 1ll << 40);
#elif NAPKIN_CASE_ID == 4
constexpr auto bad = napkin::find_gpu("h100-sxm6").memory_bandwidth;
#elif NAPKIN_CASE_ID == 5
constexpr auto bad = napkin::parse_pipe("fp17");
#elif NAPKIN_CASE_ID == 6
constexpr auto bad = napkin::ridge_point(napkin::gpus::v100_sxm2, napkin::pipe::bf16_tensor);
#elif NAPKIN_CASE_ID == 7
constexpr auto bad = napkin::peak_flops(napkin::gpus::h100_sxm, napkin::pipe::fp32, napkin::sparsity::sparse_2_4);
#elif NAPKIN_CASE_ID == 8
constexpr auto bad = napkin::parse_dtype("fp12");
#elif NAPKIN_CASE_ID == 9
constexpr auto bad = napkin::amdahl_speedup(1.5, 3);
#elif NAPKIN_CASE_ID == 10
constexpr auto bad = napkin::tensor_pipe(napkin::dtype::fp32, napkin::dtype::fp32);
#else
#error "unknown NAPKIN_CASE_ID"
#endif

int main() { return 0; }
