#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""napkin's sections beyond SOL against Nsight Compute's, per zoo kernel: Markdown tables to stdout.

Usage:
  python3 benchmarks/zoo/why_table.py NAPKIN_OUTPUT why_raw.csv [--details why_details.csv] > why.md
  python3 benchmarks/zoo/why_table.py --synthesize why_raw.csv > napkin_fake.txt   (a self-test input)

NAPKIN_OUTPUT is what `zoo why` printed: ZOO_CASE index=I name=N lines, then one NAPKIN_WHY line per kernel
(case=, index= within the case, kernel=, and every collected counter as metric=value). why_raw.csv is
`ncu --page raw --csv --print-units base` over `zoo plain` (benchmarks/device/why_ncu.sh): each case's kernels
follow a zoo_case_marker kernel whose grid size is the case index + 1, and are matched to napkin's in launch
order. --details adds ncu's own HighPipeUtilization pipe name (the rule text) beside the one the raw counters give.

The bars are the issue's "Done when" (docs/why.md): top stall reason equal on every kernel where ncu's numbers
have a clear leader (the rule of napkin/profiler/sections/warp_state.hpp, applied to ncu's counters), each
stall share within 5 points, achieved occupancy within 2 points, hit rates within 2 points, sectors and
wavefronts per request within 2 %, busiest pipe equal (napkin's own busiest= answer against ncu's rule text or,
where the rule names none, ncu's counters; a pipe and the aggregate it is part of count as equal when they read
within 0.1 point: ncu names Shared, Tensor or Tensor (FP) for the same GEMM). An L2 hit rate is compared only
where most L2 sectors are the kernel's (its SMs' share, the far partition's echoes left out, as napkin's memory
chart computes it): a kernel that touches no memory reads other units' traffic (ncu printed 132 %). Stdlib only.
"""
import csv
import math
import re
import sys

MARKER = "zoo_case_marker"
LATENCY = "smsp__average_warp_latency_per_inst_issued.ratio"
STALL = re.compile(r"^smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$")
OCCUPANCY = "sm__warps_active.avg.pct_of_peak_sustained_active"
CYCLES_ELAPSED = re.compile(r"^sm__pipe_(\w+)_cycles_active\.avg\.pct_of_peak_sustained_elapsed$")
# A pipe's aggregate (napkin/profiler/sections/section_metrics.hpp, all_sm_pipes).
PARENT = {"fp64": "shared", "tensor": "shared", "tensor_op_hmma": "tensor", "tensor_op_imma": "tensor",
          "tensor_op_dmma": "tensor", "tensor_op_gmma": "tensor", "fma_type_fp16": "fma"}
# ncu's HighPipeUtilization labels -> the names in the metrics.
NCU_PIPE_LABEL = {"FP64": "fp64", "FMA": "fma", "ALU": "alu", "Shared": "shared", "Tensor": "tensor",
                  "Tensor (FP)": "tensor_op_hmma", "Tensor (INT)": "tensor_op_imma", "Tensor (DP)": "tensor_op_dmma",
                  "TMA": "tma", "FMA (FP16)": "fma_type_fp16"}
CLEAR_RATIO, CLEAR_POINTS = 1.5, 10.0
TOL_SHARE, TOL_OCC, TOL_HIT, TOL_REL = 5.0, 2.0, 2.0, 0.02
MEMORY = (  # (column, how: "pct" compares points, "ratio" relative), numerator, denominator)
    ("L1 hit %", "pct", "l1tex__t_sector_hit_rate.pct", None),
    ("L2 hit %", "pct", "lts__t_sector_hit_rate.pct", None),
    ("ld sectors/req", "ratio", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("st sectors/req", "ratio", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("shared ld wavefronts/req", "ratio", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     ("smsp__inst_executed_op_shared_ld_pred_on_any.sum", "smsp__sass_inst_executed_op_shared_ld.sum")),
    ("shared st wavefronts/req", "ratio", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     ("smsp__inst_executed_op_shared_st_pred_on_any.sum", "smsp__sass_inst_executed_op_shared_st.sum")),
)


def number(text):
    try:
        v = float(str(text).replace(",", ""))
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def csv_rows(path):
    """The rows of one of ncu's CSV files; lines starting with '#' (a note on where a cut copy came from) skipped."""
    return list(csv.reader(line for line in open(path, newline="") if not line.startswith("#")))


def read_ncu(path):
    """[(case index, kernel name, {metric: value})] in launch order; kernels before the first marker dropped."""
    rows = csv_rows(path)
    header = rows[0]
    out, case = [], None
    for row in rows[2:]:  # row 1 holds the units
        values = dict(zip(header, row))
        name = values.get("Kernel Name", "")
        if name.startswith(MARKER):
            grid = re.match(r"\((\d+)", values.get("Grid Size", ""))
            case = int(grid.group(1)) - 1 if grid else None
            continue
        if case is None:
            continue
        out.append((case, name, {k: v for k, v in values.items() if number(v) is not None}))
    return out


def read_napkin(path):
    names, kernels = {}, {}
    for line in open(path):
        fields = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
        if line.startswith("ZOO_CASE "):
            names[int(fields["index"])] = fields["name"]
        elif line.startswith("NAPKIN_WHY "):
            kernels.setdefault(fields["case"], []).append(fields)
    return names, kernels


def get(values, name):
    if isinstance(name, tuple):
        for n in name:
            if n in values:
                return get(values, n)
        return None
    return number(values.get(name)) if name in values else None


def stalls(values):
    """{reason: (cycles, share %)}, the leader (Selected excluded) and whether it leads clearly."""
    total = get(values, LATENCY)
    if not total:
        return {}, None, False
    out = {}
    for k in values:
        m = STALL.match(k)
        if m and get(values, k) is not None:
            out[m.group(1)] = (get(values, k), 100.0 * get(values, k) / total)
    ranked = sorted(((v[1], r) for r, v in out.items() if r != "selected"), reverse=True)
    if not ranked or ranked[0][0] <= 0:
        return out, None, False
    second = ranked[1][0] if len(ranked) > 1 else 0.0
    clear = ranked[0][0] >= CLEAR_RATIO * second and ranked[0][0] - second >= CLEAR_POINTS
    return out, ranked[0][1], clear


def busiest(values):
    """(pipe, % of elapsed cycles) by ncu's rule: the highest sm__pipe_*_cycles_active over elapsed cycles."""
    pipes = {CYCLES_ELAPSED.match(k).group(1): get(values, k) for k in values if CYCLES_ELAPSED.match(k)}
    pipes = {k: v for k, v in pipes.items() if v is not None}
    if not pipes:
        return None, None
    top = max(pipes.values())
    if top <= 0:  # no pipe busy at all (the pointer chase): no busiest
        return None, None
    tied = [p for p, v in pipes.items() if v >= top - 0.05]
    # the most specific among the tied (the part, not the aggregate), as napkin names it
    tied.sort(key=lambda p: -depth(p))
    return tied[0], pipes[tied[0]]


def depth(pipe):
    d = 0
    while pipe in PARENT:
        pipe, d = PARENT[pipe], d + 1
    return d


def family(a, b):
    """a and b the same pipe, or one part of the other."""
    def ancestors(p):
        out = {p}
        while p in PARENT:
            p = PARENT[p]
            out.add(p)
        return out
    return a == b or a in ancestors(b) or b in ancestors(a)


def l2_sm_share(values):
    """% of the L2 sectors that the SMs' loads and stores brought, the far partition's echoes left out
    (lts__t_sectors_srcunit_tex / (lts__t_sectors - lts__t_sectors_srcunit_ltcfabric)), as napkin's memory chart."""
    part, whole = get(values, "lts__t_sectors_srcunit_tex.sum"), get(values, "lts__t_sectors.sum")
    echo = get(values, "lts__t_sectors_srcunit_ltcfabric.sum")
    if part is None or not whole or echo is None or echo >= whole:
        return None
    return 100.0 * part / (whole - echo)


def l2_is_kernels(values):
    share = l2_sm_share(values)
    return share is None or share >= 50.0


def ratio(values, num, den):
    if den is None:
        return get(values, num)
    n, d = get(values, num), get(values, den)
    return n / d if n is not None and d else None


def fmt(v, decimals=1):
    return "-" if v is None else f"{v:.{decimals}f}"


def ncu_rule_pipes(details_path):
    """{ncu kernel ID: pipe} from the HighPipeUtilization rule text ("X is the highest-utilized pipeline")."""
    out = {}
    rows = csv_rows(details_path)
    for row in (dict(zip(rows[0], r)) for r in rows[1:]):
        if row.get("Rule Name") == "HighPipeUtilization":
            m = re.match(r"^(.*?) is the highest-utilized pipeline", row.get("Rule Description", ""))
            if m:
                out[row["ID"]] = NCU_PIPE_LABEL.get(m.group(1), m.group(1).lower())
    return out


def synthesize(raw_path):
    """A napkin output made of ncu's own counters: every bar must be met (the script's self-test)."""
    rows = read_ncu(raw_path)
    cases = sorted({c for c, _, _ in rows})
    for c in range(max(cases) + 1 if cases else 0):
        print(f"ZOO_CASE index={c} name=case{c}")
    seen = {}
    for case, name, values in rows:
        i = seen.get(case, 0)
        seen[case] = i + 1
        kernel = re.sub(r"[\s=]", "_", name)
        fields = " ".join(f"{k}={number(v)!r}" for k, v in values.items() if re.match(r"^[a-z0-9_]+__", k))
        pipe = busiest(values)[0] or "none"  # napkin's busiest= field, ranked over the same counters
        print(f"NAPKIN_WHY case=case{case} index={i} kernel={kernel} passes=15 busiest={pipe} {fields}")


def main(argv):
    if len(argv) >= 3 and argv[1] == "--synthesize":
        synthesize(argv[2])
        return 0
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    names, napkin = read_napkin(argv[1])
    ncu = read_ncu(argv[2])
    rule = {}
    if len(argv) >= 5 and argv[3] == "--details":
        rule = ncu_rule_pipes(argv[4])
    # ncu's kernel IDs per case, in launch order (for the rule text of --details).
    by_case, case_now = {}, None
    rows = csv_rows(argv[2])
    header = rows[0]
    for row in rows[2:]:
        v = dict(zip(header, row))
        if v.get("Kernel Name", "").startswith(MARKER):
            g = re.match(r"\((\d+)", v.get("Grid Size", ""))
            case_now = int(g.group(1)) - 1 if g else None
            continue
        if case_now is not None:
            by_case.setdefault(case_now, []).append(v.get("ID"))
    pairs = []  # (case name, kernel, napkin values, ncu values, ncu ID)
    counters = {}
    for case, name, values in ncu:
        counters[case] = counters.get(case, 0) + 1
        index = counters[case] - 1
        cname = names.get(case, f"case{case}")
        mine = [f for f in napkin.get(cname, []) if int(f["index"]) == index]
        if not mine:
            continue
        short = name.split("(")[0]
        theirs_name = re.sub(r"[\s=]", "_", short)
        if not mine[0].get("kernel", "").startswith(theirs_name[:30]):
            print(f"warning: {cname} kernel {index}: napkin measured {mine[0].get('kernel')}, ncu {short}",
                  file=sys.stderr)
        pairs.append((cname, short[:40], mine[0], values, by_case[case][index]))
    if not pairs:
        print("no kernel of the napkin output matched one of ncu's", file=sys.stderr)
        return 1
    n = len(pairs)

    print("## Warp state (stall reasons, % of warp cycles per issued instruction)\n")
    print("| case | kernel | napkin top | ncu top | ncu clear | top equal | worst share gap (points) "
          "| shares within 5 |")
    print("|---|---|---|---|---|---|---|---|")
    clear_n = clear_ok = share_ok = 0
    for cname, kernel, mine, theirs, _ in pairs:
        s_mine, top_mine, _ = stalls(mine)
        s_ncu, top_ncu, clear = stalls(theirs)
        gaps = [abs(s_mine[r][1] - s_ncu[r][1]) for r in s_ncu if r in s_mine]
        worst = max(gaps) if gaps else None
        within = worst is not None and worst <= TOL_SHARE
        share_ok += within
        equal = top_mine == top_ncu
        if clear:
            clear_n += 1
            clear_ok += equal
        print(f"| {cname} | {kernel} | {top_mine} | {top_ncu} | {'yes' if clear else 'no'} | "
              f"{'yes' if equal else 'NO' if clear else 'no (not clear)'} | {fmt(worst)} | "
              f"{'yes' if within else 'NO'} |")
    print(f"\nTop stall equal on {clear_ok} of {clear_n} kernels with a clear leader; every share within "
          f"{TOL_SHARE:g} points on {share_ok} of {n}.\n")

    print("## Achieved occupancy (% of peak warps over active cycles)\n")
    print("| case | kernel | napkin | ncu | gap (points) | within 2 |")
    print("|---|---|---|---|---|---|")
    occ_ok = occ_n = 0
    for cname, kernel, mine, theirs, _ in pairs:
        a, b = get(mine, OCCUPANCY), get(theirs, OCCUPANCY)
        ok = a is not None and b is not None and abs(a - b) <= TOL_OCC
        occ_n += b is not None
        occ_ok += ok
        gap = abs(a - b) if a is not None and b is not None else None
        print(f"| {cname} | {kernel} | {fmt(a)} | {fmt(b)} | {fmt(gap)} | "
              f"{'yes' if ok else 'NO'} |")
    print(f"\nAchieved occupancy within {TOL_OCC:g} points on {occ_ok} of {occ_n}.\n")

    print("## Memory chart (napkin / ncu)\n")
    print("| case | kernel | " + " | ".join(c for c, _, _, _ in MEMORY) + " | all within |")
    print("|---|---|" + "---|" * len(MEMORY) + "---|")
    mem_ok = l2_other = l2_flag_agrees = 0
    for cname, kernel, mine, theirs, _ in pairs:
        cells, ok = [], True
        for column, how, num, den in MEMORY:
            a, b = ratio(mine, num, den), ratio(theirs, num, den)
            if column == "L2 hit %" and not l2_is_kernels(theirs):
                # Mostly other units' sectors (ncu's counters): the rate is not the kernel's, on either side.
                cells.append(f"{fmt(a, 2)} / {fmt(b, 2)} (not the kernel's: {fmt(l2_sm_share(theirs), 0)} % SM sectors)")
                l2_other += 1
                l2_flag_agrees += a is not None and not l2_is_kernels(mine)
                continue
            if b is None:
                cells.append(f"{fmt(a, 2)} / -")
                continue
            if a is None:
                ok = False
            elif how == "pct":
                ok = ok and abs(a - b) <= TOL_HIT
            else:
                ok = ok and abs(a - b) <= TOL_REL * max(abs(b), 1e-9)
            cells.append(f"{fmt(a, 2)} / {fmt(b, 2)}")
        mem_ok += ok
        print(f"| {cname} | {kernel} | " + " | ".join(cells) + f" | {'yes' if ok else 'NO'} |")
    print(f"\nHit rates within {TOL_HIT:g} points and sectors / wavefronts per request within {TOL_REL:.0%} on "
          f"{mem_ok} of {n}.")
    print(f"L2 hit rate not the kernel's (under half of the L2 sectors from its SMs, ncu's counters) on {l2_other} "
          f"of {n}, not compared; napkin's report says so on {l2_flag_agrees} of them.\n")

    print("## Busiest pipe (ncu's HighPipeUtilization rule: cycles active over elapsed cycles)\n")
    print("| case | kernel | napkin | ncu (counters) | ncu (rule text) | equal |")
    print("|---|---|---|---|---|---|")
    pipe_ok = pipe_close = 0
    for cname, kernel, mine, theirs, ncu_id in pairs:
        # napkin's answer is its own section's (the busiest= field), over the pipes it ranks
        p_mine = mine.get("busiest")
        p_mine = None if p_mine in (None, "none") else p_mine
        v_mine = get(mine, f"sm__pipe_{p_mine}_cycles_active.avg.pct_of_peak_sustained_elapsed") if p_mine else None
        p_ncu, v_ncu = busiest(theirs)
        named = rule.get(ncu_id)
        target = named or p_ncu
        if p_mine is None or target is None:
            ok = p_mine is None and target is None  # no pipe busy at all, for both
        else:
            ok = family(p_mine, target)
            close = v_mine is not None and v_ncu is not None and abs(v_mine - v_ncu) <= TOL_OCC
            pipe_close += ok and close
        pipe_ok += ok
        print(f"| {cname} | {kernel} | {p_mine} ({fmt(v_mine)}) | {p_ncu} ({fmt(v_ncu)}) | {named or '-'} | "
              f"{'yes' if ok else 'NO'} |")
    print(f"\nBusiest pipe equal on {pipe_ok} of {n}.")
    print(f"Where both name the same pipe, its utilization within {TOL_OCC:g} points on {pipe_close}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
