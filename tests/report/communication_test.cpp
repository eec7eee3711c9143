// SPDX-License-Identifier: Apache-2.0
// napkin/system/communication.hpp: which kernels communicate (NCCL, NVSHMEM) by name, as CUPTI reports
// it (demangled, mangled, with a return type), and the communication / compute split's arithmetic.
// The names are those NCCL's sources declare (src/device/common.h: ncclDevKernel_<coll>_<op>_<type>_
// <algo>_<proto>, taking ncclDevKernelArgsStorage<4096>; before NCCL 2.19: ncclKernel_...) and NVSHMEM's
// internal nvshmemi_ kernels; the mangled forms follow the Itanium C++ ABI (_Z, length, name).
#include <doctest/doctest.h>

#include "napkin/system/communication.hpp"

using napkin::is_communication_kernel;
using napkin::time_split;

TEST_CASE("NCCL and NVSHMEM kernels, however the name is written") {
  // Demangled, as CUPTI's demangled names and nsys print them.
  CHECK(is_communication_kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  CHECK(is_communication_kernel("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"));
  CHECK(is_communication_kernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"));
  CHECK(is_communication_kernel("void ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  // Before NCCL 2.19.
  CHECK(is_communication_kernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"));
  // Mangled: _Z + the length of the name (28 for ncclDevKernel_AllReduce_Sum) + the name + parameters.
  CHECK(is_communication_kernel("_Z28ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE"));
  CHECK(is_communication_kernel("_Z41ncclKernel_AllReduce_RING_LL_Sum_floatP10ncclDevCommmP8ncclWork"));
  // A nested (namespaced) mangled name: _ZN + length + the first component, here namespace nvshmem.
  CHECK(is_communication_kernel("_ZN6nvshmem8internal4fooEv"));
  CHECK_FALSE(is_communication_kernel("_ZN2at6native6reduceEv"));
  CHECK(is_communication_kernel("nvshmemi_transfer_rma_kernel(void*)"));
  CHECK(is_communication_kernel("_Z28nvshmemi_init_array_kernelPii"));
}

TEST_CASE("compute kernels are not communication") {
  CHECK_FALSE(is_communication_kernel("ampere_sgemm_128x64_nn"));
  CHECK_FALSE(is_communication_kernel("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"));
  CHECK_FALSE(is_communication_kernel("_Z6reducePfS_i"));
  CHECK_FALSE(is_communication_kernel("my_nccl_like_kernel"));  // "nccl" must start the name
  CHECK_FALSE(is_communication_kernel("Nccl_kernel"));           // case matters: NCCL's names are lower case
  CHECK_FALSE(is_communication_kernel(""));
  CHECK_FALSE(is_communication_kernel("_Z"));
  CHECK_FALSE(is_communication_kernel("void "));
}

TEST_CASE("time_split: sums, fraction, the more-than-half rule") {
  time_split s;
  CHECK(s.total_ns() == 0);
  CHECK(s.communication_fraction() == 0);  // no GPU time: 0, not NaN
  CHECK_FALSE(s.mostly_communication());
  s.add("gemm", 300);
  s.add("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 100);
  CHECK(s.compute_ns == 300);
  CHECK(s.communication_ns == 100);
  CHECK(s.total_ns() == 400);
  CHECK(s.communication_fraction() == 0.25);  // 100 / 400
  CHECK_FALSE(s.mostly_communication());
  s.add("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 200);
  CHECK(s.communication_fraction() == 0.5);  // 300 / 600: exactly half is not "mostly"
  CHECK_FALSE(s.mostly_communication());
  s.add("nvshmemi_transfer_rma_kernel(void*)", 1);
  CHECK(s.communication_ns == 301);
  CHECK(s.mostly_communication());  // 301 / 601
  static_assert(napkin::is_communication_kernel("ncclKernel_x"), "usable in constant evaluation");
}
