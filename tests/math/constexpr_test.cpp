// Invalid inputs must fail to compile in constant evaluation, with and without exceptions. CMake compiles
// this file once per case (-DNAPKIN_CASE_ID=<n>, named in CMakeLists.txt) and expects the compiler to
// fail with a diagnostic that names the problem (the napkin::detail function the bad input reached).
// Case 0 (control) must compile, which proves that the failures come from the bad inputs and not from a
// broken file.
#include <cmath>

#include "napkin/math.hpp"

#if NAPKIN_CASE_ID == 0
constexpr double ok = napkin::gemm(4096, 4096, 4096).intensity() + napkin::ridge_point(napkin::find_gpu("h100-sxm"), napkin::parse_pipe("fp16-tc")) +
                      napkin::amdahl_speedup(0.5, 2) + napkin::peak_flops(napkin::gpus::h100_sxm, napkin::pipe::fp16_tensor, napkin::sparsity::sparse_2_4) +
                      static_cast<double>(napkin::parse_dtype("bf16")) + static_cast<double>(napkin::tensor_pipe(napkin::dtype::fp16, napkin::dtype::fp32));
// The functions of the later cases, with good input: each case fails because of its bad value alone.
constexpr double ok_too =
    napkin::roof{1e15, 1e12}.ridge() + napkin::bandwidth_waste(16, 4) +
    napkin::derive_gpu_spec({9, 0, 132, 1980000, 2619000, 5120, 0}).peak(napkin::pipe::fp32) +
    napkin::derate(napkin::roof_of(napkin::gpus::h100_sxm, napkin::pipe::fp32), 0.8, 0.9).ridge() +
    napkin::gpus::h100_sxm.peak(static_cast<napkin::pipe>(11)) +
    static_cast<double>(napkin::bytes_per_element(static_cast<napkin::dtype>(7))) +
    napkin::roof{1e15, 1e12}.attainable_flops(1);
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
#elif NAPKIN_CASE_ID == 11
static_assert(napkin::roof{INFINITY, 1e12}.ridge() == INFINITY);
#elif NAPKIN_CASE_ID == 12
constexpr double bad = napkin::bandwidth_waste(INFINITY, 4);
#elif NAPKIN_CASE_ID == 13
constexpr auto bad = napkin::derive_gpu_spec({9, 0, 132, INFINITY, 2619000, 5120, 0});
#elif NAPKIN_CASE_ID == 14
constexpr auto bad = napkin::derate(napkin::roof_of(napkin::gpus::h100_sxm, napkin::pipe::fp32), NAN, 0.9);
#elif NAPKIN_CASE_ID == 15
constexpr auto bad = napkin::gpus::h100_sxm.peak(static_cast<napkin::pipe>(12));
#elif NAPKIN_CASE_ID == 16
constexpr auto bad = napkin::bytes_per_element(static_cast<napkin::dtype>(99));
#elif NAPKIN_CASE_ID == 17
constexpr auto bad = napkin::roof{1e15, NAN}.attainable_flops(1);
#else
#error "unknown NAPKIN_CASE_ID"
#endif

int main() { return 0; }
