#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Each sampled SM input against ncu's counter of the same name, per kernel (docs/monitor.md, "The LSU pipe"
and "The instruction rate and warp launches").

Usage: pm_inputs_check.py ALONE.txt NCU.csv

ALONE.txt: pm_sm_inputs_probe.cu's `alone` dump (each kernel back to back for ~60 ms), any metric set. NCU.csv:
the probe's `ncu` mode under ncu --csv --print-units base --metrics with gpc__cycles_elapsed.avg.per_second,
sm__inst_executed.sum, gpu__time_duration.sum and the counters below (.avg.pct_of_peak_sustained_elapsed).

A sampled metric's ncu counterpart is its name without the PM-sampling group (`TPC.TriageCompute.`) and without
`_realtime`: TPC.TriageCompute.sm__inst_executed_realtime is ncu's sm__inst_executed. Per kernel, from its own
windows (>= 98 % of the window, nothing else in it): the mean of each sampled metric next to ncu's, and the GPC
clock the samples span (gpc__cycles_elapsed.max over the window's nanoseconds) next to ncu's. A percentage of
peak over elapsed cycles is (work / time) / (clock x peak per cycle), so equal clocks and unequal readings mean
that the counters counted different work. Rows where both read under 1 % are left out. Plain Python.
"""
import sys

from pm_sm_inputs_solve import KERNELS, load, load_ncu, shares

PCT = '.avg.pct_of_peak_sustained_elapsed'


def ncu_name(sampled):
    base = sampled[:-len(PCT)] if sampled.endswith(PCT) else sampled
    base = base.split('TriageCompute.')[-1]
    if base.endswith('_realtime'):
        base = base[:-len('_realtime')]
    return base + PCT


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    metrics, samples, kernels = load(argv[1], raw_names=True)
    ncu = load_ncu(argv[2])
    clock_col = 2 + metrics.index('gpc__cycles_elapsed.max')
    print('| kernel | windows | metric | sampled | ncu | sampled - ncu |')
    print('|---|---:|---|---:|---:|---:|')
    window_shares = shares(samples, kernels)
    for i, (name, _) in enumerate(KERNELS):
        w = [s for s, (f, o) in zip(samples, window_shares) if f[i] > 0.98 and o == 0]
        n = ncu.get(i)
        if not w or not n:
            continue
        clock = sum(s[clock_col] / (s[1] - s[0]) for s in w) / len(w)
        if 'gpc__cycles_elapsed.avg.per_second' in n:
            ncu_clock = n['gpc__cycles_elapsed.avg.per_second'] / 1e9
            print('| %s | %d | GPC clock (GHz) | %.3f | %.3f | %+.3f |' % (name, len(w), clock, ncu_clock,
                                                                       clock - ncu_clock))
        for j, m in enumerate(metrics):
            if not m.endswith(PCT) or ncu_name(m) not in n:
                continue
            v = sum(s[2 + j] for s in w) / len(w)
            x = n[ncu_name(m)]
            if max(v, x) < 1.0:
                continue
            print('| %s | %d | `%s` | %.2f | %.2f | %+.2f |' % (name, len(w), m[:-len(PCT)], v, x, v - x))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
