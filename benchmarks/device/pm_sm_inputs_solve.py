#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Offline solve of pm_sm_inputs_probe.cu's dumps (docs/monitor.md, "Why the 5 ms rows do not resolve").

Usage: pm_sm_inputs_solve.py ALONE.txt [NCU.csv] MIX.txt...

ALONE.txt (probe mode `alone`): each kernel's own readings, the mean of the windows it filled alone (>= 98 % of
the window, nothing else in it). NCU.csv: ncu --csv --print-units base with sm__throughput and its breakdown,
for the kernel ncu names as the leading input. Each MIX.txt (probe mode `mix`): per metric, the least-squares
rates of the 13 kernels under the time-weighted model r_w = sum_k (o_wk / W_w) x_k, its rms residual, and per
kernel the maximum of the solved SM inputs against the maximum of its own (ALONE) inputs; first with every
window, then without the windows whose SM counters dropped out (sm__cycles_active under 5 % while kernels that
fill the SMs covered more than half of the window; see the docs). Plain Python, no packages.
"""
import csv
import math
import sys

KERNELS = [('copy', 'copy_kernel'), ('softmax', 'softmax_smem_naive'), ('fma', 'fma_loop'), ('sgemm', 'gemm'),
           ('smem_reduce', 'smem_tree_reduce'), ('strided', 'mw_strided_passes'), ('transpose', 'mw_transpose_naive'),
           ('l1_reread', 'mw_l1_reread'), ('atomics', 'mw_atomic_histogram'), ('fp64_fma', 'mw_fp64_fma'),
           ('sfu', 'mw_sfu'), ('pointer_chase', 'mw_pointer_chase'), ('long_fma', 'mw_long_fma')]
# The inputs TriageCompute.sm__throughput is the maximum of (ALONE: it equals the largest of these in every
# kernel's windows), each a counter over elapsed cycles and so additive over time.
SM_INPUTS = ['sm__inst_executed_realtime', 'sm__inst_executed_pipe_alu_realtime',
             'sm__inst_executed_pipe_fma_realtime', 'sm__inst_executed_pipe_fmaheavy_realtime',
             'sm__pipe_fp64_cycles_active_realtime', 'sm__pipe_tensor_cycles_active_realtime',
             'sm__inst_executed_pipe_uniform_realtime', 'sm__inst_executed_pipe_xu_realtime']


def kernel_index(name):
    for i, (_, key) in enumerate(KERNELS):
        if key in name:
            return i
    return 3 if ('xmma' in name or 'sm90' in name or 'cutlass' in name) else None  # cuBLAS's SGEMM kernel


def short(metric):
    m = metric.replace('.avg.pct_of_peak_sustained_elapsed', '')
    return m.split('TriageCompute.')[-1]


def load(path, raw_names=False):
    """The dump's metric names (shortened unless raw_names), samples and kernel records (start, end, index)."""
    metrics, samples, kernels = None, [], []
    for line in open(path):
        p = line.split()
        if not p:
            continue
        if p[0] == 'M':
            metrics = p[1:] if raw_names else [short(m) for m in p[1:]]
        elif p[0] == 'S':
            samples.append([float(x) for x in p[1:]])
        elif p[0] == 'K':
            kernels.append((int(p[1]), int(p[2]), kernel_index(' '.join(p[3:]))))
    return metrics, samples, sorted(kernels)


def load_ncu(path):
    """ncu's --csv --print-units base values, per kernel index: {metric name: value}."""
    ncu = {}
    rows = [r for r in csv.reader(open(path)) if len(r) > 10]
    h = rows[0]
    for r in rows[1:]:
        i = kernel_index(r[h.index('Kernel Name')])
        if i is None:
            continue
        try:
            ncu.setdefault(i, {})[r[h.index('Metric Name')]] = float(r[h.index('Metric Value')].replace(',', ''))
        except ValueError:
            pass
    return ncu


def shares(samples, kernels):
    """Per window: the share of its time each kernel ran, and the share of unknown kernels."""
    out, first = [], 0
    for s in samples:
        t0, t1 = s[0], s[1]
        f, other = [0.0] * len(KERNELS), 0.0
        while first < len(kernels) and kernels[first][1] < t0 - 1e8:
            first += 1
        for a, b, i in kernels[first:]:
            if a >= t1:
                break
            overlap = min(t1, b) - max(t0, a)
            if overlap > 0:
                if i is None:
                    other += overlap / (t1 - t0)
                else:
                    f[i] += overlap / (t1 - t0)
        out.append((f, other))
    return out


def solve(g, b):
    n = len(b)
    a = [g[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-12:
            continue
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    return [a[i][n] / a[i][i] if abs(a[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(rows, col):
    n = len(KERNELS)
    g = [[sum(f[i] * f[j] for _, f in rows) for j in range(n)] for i in range(n)]
    b = [sum(f[i] * s[col] for s, f in rows) for i in range(n)]
    x = solve(g, b)
    rss = sum((s[col] - sum(f[i] * x[i] for i in range(n))) ** 2 for s, f in rows)
    return x, math.sqrt(rss / len(rows))


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    metrics, samples, kernels = load(argv[1])
    col = {m: 2 + j for j, m in enumerate(metrics)}
    sm_cols = [col[m] for m in SM_INPUTS]
    own = {}
    for i in range(len(KERNELS)):
        w = [s for s, (f, o) in zip(samples, shares(samples, kernels)) if f[i] > 0.98 and o == 0]
        own[i] = [sum(s[c] for s in w) / len(w) for c in range(len(samples[0]))] if w else None
    ncu = {}
    rest = argv[2:]
    if rest and rest[0].endswith('.csv'):
        ncu = load_ncu(rest[0])
        rest = rest[1:]
    sm_name = 'sm__throughput.avg.pct_of_peak_sustained_elapsed'
    print('## Each kernel alone (%s)\n' % argv[1])
    print('| kernel | ncu SM % | ncu leading input | sampled SM % | max of the sampled SM inputs | its leading input '
          '| L1 LSU wavefronts % |')
    print('|---|---:|---|---:|---:|---|---:|')
    for i, (name, _) in enumerate(KERNELS):
        v = own[i]
        if v is None:
            continue
        lead = max((v[c], metrics[c - 2]) for c in sm_cols)
        n = ncu.get(i, {})
        nlead = max(((x, short(m)) for m, x in n.items()
                     if m != sm_name and m.startswith(('sm__', 'idc__')) and m.endswith('pct_of_peak_sustained_elapsed')),
                    default=(float('nan'), '-'))
        print('| %s | %.2f | %s | %.2f | %.2f | %s | %.2f |' % (
            name, n.get(sm_name, float('nan')), nlead[1], v[col['sm__throughput']], lead[0], lead[1],
            v[col['l1tex__data_pipe_lsu_wavefronts']]))
    cycles = col['sm__cycles_active']
    for path in rest:
        _, s2, k2 = load(path)
        windows = [(s, f) for s, (f, o) in zip(s2, shares(s2, k2)) if sum(f) > 0.001 and o < 0.001 and s[1] > s[0]]
        dropped = [(s, f) for s, f in windows
                   if sum(f[i] for i in range(len(KERNELS)) if KERNELS[i][0] != 'pointer_chase') > 0.5
                   and s[cycles] < 5]
        for label, rows in (('every window', windows),
                            ('without SM dropouts', [w for w in windows if id(w[0]) not in {id(d[0]) for d in dropped}])):
            print('\n## %s: %s (%d of %d windows; %d dropouts)\n' % (path, label, len(rows), len(windows),
                                                                      len(dropped)))
            solved = {c: fit(rows, c) for c in [col['sm__throughput'], col['dram__throughput']] + sm_cols}
            print('rms residual, points: ' + ', '.join('%s %.3f' % (metrics[c - 2], solved[c][1]) for c in solved))
            print('\n| kernel | own SM % | solved SM % (the max reading) | max of solved inputs | own DRAM % '
                  '| solved DRAM % | within 3 points (max of inputs) |')
            print('|---|---:|---:|---:|---:|---:|---|')
            for i, (name, _) in enumerate(KERNELS):
                if own[i] is None:
                    continue
                mx = max(solved[c][0][i] for c in sm_cols)
                own_mx = max(own[i][c] for c in sm_cols)
                print('| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %s |' % (
                    name, own[i][col['sm__throughput']], solved[col['sm__throughput']][0][i], mx,
                    own[i][col['dram__throughput']], solved[col['dram__throughput']][0][i],
                    'yes' if abs(mx - own_mx) <= 3 else 'no'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
