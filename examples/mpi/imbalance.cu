// SPDX-License-Identifier: Apache-2.0
// napkin in an MPI job: one rank per GPU, each iteration a compute kernel and an NCCL all-reduce, with a
// deliberate imbalance (the last rank computes twice as long). Every rank runs napkin::monitor and, once,
// napkin::profiler's per_kernel(); napkin::mpi gathers both to rank 0, which prints the cross-rank tables
// (min/median/max per kernel and phase, the slowest rank, time in NCCL vs compute) and writes one JSON
// document per job. Each rank also writes its own JSON (OUT/monitor/rankN.json, OUT/kernels/rankN.json),
// which `napkin merge OUT/monitor` puts side by side without MPI.
//
//   NCCL_NVLS_ENABLE=0 mpirun -np 2 ./mpi_imbalance [--iterations N] [--out DIR]
//
// docs/multi-gpu.md "On two GPUs" quotes a run on two H200s.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "kernels.cuh"
#include "napkin/check.hpp"
#include "napkin/check/nccl.hpp"
#include "napkin/monitor.hpp"
#include "napkin/mpi.hpp"
#include "napkin/nvtx.hpp"
#include "napkin/profiler.hpp"
#include "napkin/report.hpp"
#include "napkin/document/context_cuda.hpp"
#include "napkin/report/rank_summaries.hpp"

namespace k = napkin_kernels;

namespace {

struct job {
  int rank = 0, size = 1, device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  float* work = nullptr;     // the compute kernel's output
  float* gradients = nullptr;  // what the all-reduce sums
  std::size_t count = std::size_t(32) << 20;  // 32 Mi floats: 128 MiB per all-reduce
  unsigned blocks = 0;
  int fma_iterations = 0;  // per thread; the last rank gets twice as many
};

void iteration(job& j) {
  napkin::range step{"step"};
  {
    napkin::range r{"compute"};
    NAPKIN_CUDA_CHECK(k::fma_loop(j.work, j.blocks, 256, j.fma_iterations, j.stream));
  }
  {
    napkin::range r{"allreduce"};
    NAPKIN_CUDA_CHECK(ncclAllReduce(j.gradients, j.gradients, j.count, ncclFloat, ncclSum, j.comm, j.stream));
  }
  NAPKIN_CUDA_CHECK(cudaStreamSynchronize(j.stream));
}

std::string arg(int argc, char** argv, const char* name, const char* fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  return fallback;
}

// Writes DIR/NAME, making DIR if needed (`napkin merge DIR` reads one kind per folder).
void write_file(const std::string& dir, const std::string& name, const std::string& text) {
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  if (const std::string why = napkin::write_text_file(dir + "/" + name, text); !why.empty())
    std::fprintf(stderr, "cannot write %s/%s: %s\n", dir.c_str(), name.c_str(), why.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    job j;
    MPI_Comm_rank(MPI_COMM_WORLD, &j.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &j.size);
    const int iterations = std::atoi(arg(argc, argv, "--iterations", "200").c_str());
    const std::string out = arg(argc, argv, "--out", ".");
    const napkin::report_context where = napkin::mpi::context();  // host, rank, world size, local rank
    int devices = 0;
    NAPKIN_CUDA_CHECK(cudaGetDeviceCount(&devices));
    j.device = static_cast<int>(where.local_rank.value_or(0)) % devices;
    NAPKIN_CUDA_CHECK(cudaSetDevice(j.device));
    napkin::report_context here = napkin::device_context(j.device);  // index, name, PCI bus id, UUID
    here.host = where.host;
    here.rank = where.rank;
    here.world_size = where.world_size;
    here.local_rank = where.local_rank;
    NAPKIN_CUDA_CHECK(cudaStreamCreateWithFlags(&j.stream, cudaStreamNonBlocking));
    int sms = 0;
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, j.device));
    j.blocks = static_cast<unsigned>(sms) * 8;
    j.fma_iterations = j.rank == j.size - 1 ? 2 * 40000 : 40000;  // the deliberate imbalance
    NAPKIN_CUDA_CHECK(cudaMalloc(&j.work, std::size_t(j.blocks) * 256 * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&j.gradients, j.count * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMemset(j.gradients, 0, j.count * sizeof(float)));

    ncclUniqueId id;
    if (j.rank == 0) NAPKIN_CUDA_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
    NAPKIN_CUDA_CHECK(ncclCommInitRank(&j.comm, j.size, id, j.rank));
    for (int i = 0; i < 3; ++i) iteration(j);  // warm-up: NCCL's first collectives set up its channels

    // 1. The monitor, left on while the job runs.
    {
      napkin::monitor_settings s;
      s.enabled = true;
      s.device = j.device;
      s.interval_ns = 1'000'000;  // 1 ms
      napkin::monitor mon(s);
      if (!mon.running()) std::fprintf(stderr, "rank %d: monitor %s\n", j.rank, mon.status().c_str());
      for (int i = 0; i < iterations; ++i) iteration(j);
      mon.stop();
      const napkin::monitor_report r = mon.report();
      napkin::document_options o;
      o.context = here;
      write_file(out + "/monitor", "rank" + std::to_string(j.rank) + ".json", napkin::to_json(r, o));
      if (r.system)  // each rank's system view: where its GPU waited (docs/system.md)
        std::printf("== rank %d: the system view\n%s", j.rank, napkin::to_text(*r.system).c_str());
      const auto table = napkin::mpi::gather(napkin::summary_of(r, here));
      if (table) {
        std::printf("== napkin::monitor, %d iterations, gathered from %d ranks\n", iterations, j.size);
        const std::string why = napkin::mpi::report(*table, out + "/job_monitor.json");
        if (!why.empty()) std::fprintf(stderr, "%s\n", why.c_str());
      }
    }

    // 2. One iteration's kernels, measured by the profiler on every rank (the same passes everywhere, so
    //    the all-reduces of each pass meet).
    {
      napkin::profiler_options po;
      po.device = j.device;
      napkin::profiler prof(napkin::metric_sets::sol_fast(), po);
      const napkin::kernel_reports kr = prof.per_kernel([&] { iteration(j); }, napkin::replay::application);
      napkin::document_options o;
      o.context = here;
      write_file(out + "/kernels", "rank" + std::to_string(j.rank) + ".json", napkin::to_json(kr, o));
      const auto table = napkin::mpi::gather(napkin::summary_of(kr, here));
      if (table) {
        std::printf("\n== napkin::profiler per_kernel (one iteration, application replay), %d ranks\n", j.size);
        const std::string why = napkin::mpi::report(*table, out + "/job_kernels.json");
        if (!why.empty()) std::fprintf(stderr, "%s\n", why.c_str());
      }
      if (j.rank == 0)  // rank 0's own kernels, as per_kernel reports them
        for (const napkin::sol_report& r : kr.kernels) std::printf("\n%s", napkin::to_text(r).c_str());
    }

    NAPKIN_CUDA_CHECK(ncclCommDestroy(j.comm));
    NAPKIN_CUDA_CHECK(cudaFree(j.gradients));
    NAPKIN_CUDA_CHECK(cudaFree(j.work));
    NAPKIN_CUDA_CHECK(cudaStreamDestroy(j.stream));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_imbalance: %s\n", e.what());
    code = 1;
  }
  if (code != 0) MPI_Abort(MPI_COMM_WORLD, code);
  MPI_Finalize();
  return code;
}
