#!/usr/bin/env bash
# Probe behind docs/profiler.md "Where a pass's time goes": is the ~22 ms per replay pass the Range Profiler
# API's, or the pass itself? Times each call of a pass of CUPTI's *deprecated* Profiler API
# (cuptiProfilerBeginPass ... EndPass, cupti_profiler_target.h) on the SOL metrics, by patching the
# toolkit's own user-range sample (extras/CUPTI/samples/userrange_profiling) to time its pass loop around
# one copy kernel, and running it with napkin's sol() metrics and with one single-pass metric.
# napkin itself does not use this API. Run on the GPU machine: bash benchmarks/device/legacy_pass_probe.sh
set -euo pipefail
samples=${CUDA_HOME:-/usr/local/cuda}/extras/CUPTI/samples
work=$(mktemp -d)
cp -r "$samples" "$work/s"
(cd "$work/s/extensions/src/profilerhost_util" && make > "$work/ext.log" 2>&1) || { cat "$work/ext.log"; exit 1; }
python3 - "$work/s/userrange_profiling/user_range_profiling.cu" "$work/s/userrange_profiling/legacy_probe.cu" <<'PY'
import sys
src = open(sys.argv[1]).read()
start = src.index('    // User takes the resposiblity')
end = src.index('    CUpti_Profiler_FlushCounterData_Params flushCounterDataParams')
loop = r'''    CUpti_Profiler_BeginPass_Params beginPassParams = {CUpti_Profiler_BeginPass_Params_STRUCT_SIZE};
    CUpti_Profiler_EndPass_Params endPassParams = {CUpti_Profiler_EndPass_Params_STRUCT_SIZE};
    static float *pa = nullptr, *pb = nullptr;
    const size_t n = size_t(1) << 24;
    if (!pa) { cudaMalloc(&pa, n * 4); cudaMalloc(&pb, n * 4); }
    double t[8] = {0};
    int passes = 0;
    auto now = [] { return std::chrono::steady_clock::now(); };
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    rusage r0{}, r1{};
    getrusage(RUSAGE_THREAD, &r0);
    auto w0 = now();
    do {
        auto a = now(); CUPTI_API_CALL(cuptiProfilerBeginPass(&beginPassParams));
        auto b = now(); CUPTI_API_CALL(cuptiProfilerEnableProfiling(&enableProfilingParams));
        auto c = now(); pushRangeParams.pRangeName = "r"; CUPTI_API_CALL(cuptiProfilerPushRange(&pushRangeParams));
        auto d = now(); legacy_copy<<<1024, 256>>>(pa, pb, n);
        auto e = now(); CUPTI_API_CALL(cuptiProfilerPopRange(&popRangeParams));
        auto f = now(); CUPTI_API_CALL(cuptiProfilerDisableProfiling(&disableProfilingParams));
        auto g = now(); CUPTI_API_CALL(cuptiProfilerEndPass(&endPassParams));
        auto h = now(); cudaDeviceSynchronize();
        auto i = now();
        t[0] += ms(a, b); t[1] += ms(b, c); t[2] += ms(c, d); t[3] += ms(d, e); t[4] += ms(e, f); t[5] += ms(f, g); t[6] += ms(g, h); t[7] += ms(h, i);
        ++passes;
    } while (!endPassParams.allPassesSubmitted);
    auto w1 = now();
    getrusage(RUSAGE_THREAD, &r1);
    auto tv = [](const timeval& x) { return x.tv_sec * 1e3 + x.tv_usec / 1e3; };
    printf("legacy API, %d passes, per pass (ms): beginPass %.2f enable %.2f push %.2f launch %.2f pop %.2f disable %.2f endPass %.2f sync %.2f | total %.2f, thread user %.2f sys %.2f\n",
           passes, t[0]/passes, t[1]/passes, t[2]/passes, t[3]/passes, t[4]/passes, t[5]/passes, t[6]/passes, t[7]/passes,
           ms(w0, w1) / passes, (tv(r1.ru_utime) - tv(r0.ru_utime)) / passes, (tv(r1.ru_stime) - tv(r0.ru_stime)) / passes);

'''
src = src[:start] + loop + src[end:]
src = src.replace('#include <cuda.h>', '#include <cuda.h>\n#include <chrono>\n#include <sys/resource.h>\n'
                  '__global__ void legacy_copy(const float* in, float* out, size_t n) {\n'
                  '  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = in[i];\n}\n', 1)
old = '''    if (!RunTest(configImage, counterDataScratchBuffer, counterDataImage, profilerReplayMode, profilerRange))
    {'''
assert old in src
src = src.replace(old, '''    for (int rep = 0; rep < 3; ++rep) {
      auto s0 = std::chrono::steady_clock::now();
      if (!RunTest(configImage, counterDataScratchBuffer, counterDataImage, profilerReplayMode, profilerRange)) exit(1);
      printf("  whole session (begin, config, passes, flush, end): %.1f ms\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count());
      if (!CreateCounterDataImage(counterDataImage, counterDataScratchBuffer, counterDataImagePrefix)) exit(1);
    }
    if (false)
    {''')
open(sys.argv[2], 'w').write(src)
PY
cd "$work/s/userrange_profiling"
nvcc -std=c++17 -arch=sm_90 legacy_probe.cu -o "$work/legacy_probe" -I../extensions/include/profilerhost_util \
  -I../extensions/include/c_util -I../common -lcuda -lcupti -lnvperf_host -lnvperf_target \
  -L../extensions/src/profilerhost_util -lprofilerHostUtil > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
sol=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,gpc__cycles_elapsed.max,sm__cycles_active.avg,gpc__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,dram__bytes.sum
cd "$work"
echo "# napkin's sol() metrics"; ./legacy_probe 0 "$sol" 2>&1 | grep -E "legacy API|whole session"
echo "# gpu__time_duration.sum alone (one pass)"; ./legacy_probe 0 gpu__time_duration.sum 2>&1 | grep -E "legacy API|whole session"
