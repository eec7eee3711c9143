// SPDX-License-Identifier: Apache-2.0
// What Nsight Compute's four Speed-Of-Light throughputs are the maximum of, on GH100 (H100, H200).
//
// A throughput metric is "the maximum of the percentage values of its constituent counters" (Nsight Compute
// Kernel Profiling Guide, "Metrics Structure: Throughputs"); ncu lists those constituents with
// `--metrics breakdown:<throughput>`. The lists below are what Nsight Compute 2025.3.1 printed for each
// throughput asked alone on an H100 and an H200 (benchmarks/device/breakdown.sh; docs/accuracy.md). They are
// data, not a guess: a number napkin derives from them is a maximum over named counters, and a report says
// which of them it did not collect. Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <vector>

NAPKIN_BEGIN_NAMESPACE

// One SOL throughput and the inputs ncu takes the maximum of.
struct throughput_breakdown {
  const char* field;       // napkin's name for the number: "sm_pct", "memory_pct", "l1tex_pct", "l2_pct"
  const char* throughput;  // ncu's metric
  std::vector<std::string> inputs;
};

namespace breakdowns {

inline throughput_breakdown gh100_sm() {
  return {"sm_pct",
          "sm__throughput.avg.pct_of_peak_sustained_elapsed",
          {"idc__request_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_cbu_pred_on_any.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_ipa.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_tex.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_elapsed",
           "sm__instruction_throughput_internal_activity.avg.pct_of_peak_sustained_elapsed",
           "sm__issue_active.avg.pct_of_peak_sustained_elapsed",
           "sm__memory_throughput_internal_activity.avg.pct_of_peak_sustained_elapsed",
           "sm__mio2rf_writeback_active.avg.pct_of_peak_sustained_elapsed",
           "sm__mio_inst_issued.avg.pct_of_peak_sustained_elapsed",
           "sm__mio_pq_read_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__mio_pq_write_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_tensor_type_hmma_hgmma_qgmma_imma_igmma_bmma_bgmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_tma_cycles_active.avg.pct_of_peak_sustained_elapsed"}};
}

inline throughput_breakdown gh100_memory() {
  return {"memory_pct",
          "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
          {"dram__cycles_active.avg.pct_of_peak_sustained_elapsed",
           "fbpa__dram_sectors.avg.pct_of_peak_sustained_elapsed",
           "gpu__compute_memory_access_throughput_internal_activity.avg.pct_of_peak_sustained_elapsed",
           "gpu__compute_memory_request_throughput_internal_activity.avg.pct_of_peak_sustained_elapsed",
           "l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed",
           "l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed",
           "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed",
           "l1tex__data_pipe_tex_wavefronts.avg.pct_of_peak_sustained_elapsed",
           "l1tex__f_wavefronts.avg.pct_of_peak_sustained_elapsed",
           "l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_elapsed",
           "l1tex__lsuin_requests.avg.pct_of_peak_sustained_elapsed",
           "l1tex__m_l1tex2xbar_req_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "l1tex__m_xbar2l1tex_read_sectors.avg.pct_of_peak_sustained_elapsed",
           "l1tex__m_xbar2l1tex_read_sectors_mem_dshared.avg.pct_of_peak_sustained_elapsed",
           "l1tex__tex_writeback_active.avg.pct_of_peak_sustained_elapsed",
           "l1tex__texin_sm2tex_req_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "l1tex__tmain_requests.avg.pct_of_peak_sustained_elapsed",
           "lts__d_atomic_input_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "lts__d_decomp_input_sectors.avg.pct_of_peak_sustained_elapsed",
           "lts__d_sectors.avg.pct_of_peak_sustained_elapsed",
           "lts__d_sectors_fill_device.avg.pct_of_peak_sustained_elapsed",
           "lts__d_sectors_fill_sysmem.avg.pct_of_peak_sustained_elapsed",
           "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "lts__t_sectors.avg.pct_of_peak_sustained_elapsed",
           "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed",
           "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed"}};
}

// ncu's L1/TEX row is over active cycles, the others over elapsed cycles.
inline throughput_breakdown gh100_l1tex() {
  return {"l1tex_pct",
          "l1tex__throughput.avg.pct_of_peak_sustained_active",
          {"l1tex__data_bank_reads.avg.pct_of_peak_sustained_active",
           "l1tex__data_bank_writes.avg.pct_of_peak_sustained_active",
           "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_active",
           "l1tex__data_pipe_tex_wavefronts.avg.pct_of_peak_sustained_active",
           "l1tex__f_wavefronts.avg.pct_of_peak_sustained_active",
           "l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_active",
           "l1tex__lsuin_requests.avg.pct_of_peak_sustained_active",
           "l1tex__m_l1tex2xbar_req_cycles_active.avg.pct_of_peak_sustained_active",
           "l1tex__m_xbar2l1tex_read_sectors.avg.pct_of_peak_sustained_active",
           "l1tex__m_xbar2l1tex_read_sectors_mem_dshared.avg.pct_of_peak_sustained_active",
           "l1tex__tex_writeback_active.avg.pct_of_peak_sustained_active",
           "l1tex__texin_sm2tex_req_cycles_active.avg.pct_of_peak_sustained_active",
           "l1tex__tmain_requests.avg.pct_of_peak_sustained_active"}};
}

// The L2 row has the fabric between the two L2 partitions, which Memory % does not.
inline throughput_breakdown gh100_l2() {
  return {"l2_pct",
          "lts__throughput.avg.pct_of_peak_sustained_elapsed",
          {"lts__d_atomic_input_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "lts__d_decomp_input_sectors.avg.pct_of_peak_sustained_elapsed",
           "lts__d_sectors.avg.pct_of_peak_sustained_elapsed",
           "lts__d_sectors_fill_device.avg.pct_of_peak_sustained_elapsed",
           "lts__d_sectors_fill_sysmem.avg.pct_of_peak_sustained_elapsed",
           "lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "lts__lts2xbar_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
           "lts__t_sectors.avg.pct_of_peak_sustained_elapsed",
           "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed",
           "lts__throughput_internal_activity.avg.pct_of_peak_sustained_elapsed",
           "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed"}};
}

// The four, in the order a report prints them.
inline std::vector<throughput_breakdown> gh100() { return {gh100_sm(), gh100_memory(), gh100_l1tex(), gh100_l2()}; }

}  // namespace breakdowns
NAPKIN_END_NAMESPACE
