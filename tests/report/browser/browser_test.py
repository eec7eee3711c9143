#!/usr/bin/env python3
"""The roofline SVGs and HTML pages as a person sees them, in headless Chromium (Debian's chromium and
chromium-driver, driven by Debian's python3-selenium).

write_samples (a C++ program, samples.hpp) writes the files; this opens each in ONE browser session and checks:
  - no console errors, and nothing loaded from anywhere (the files are self-contained);
  - the points, ceilings, ridges and arrows are where the numbers put them: rendered positions read back with
    getBoundingClientRect, compared within a pixel with positions computed HERE from the input numbers
    (the sample counters below, the H100 SXM datasheet) and the axis range, itself recomputed here;
  - no text is clipped (every <text> box lies inside the SVG) and labels do not overlap;
  - the kernels table sorts by time when its header is clicked; SOL bars are as long as their percentage;
    the baseline comparison says what napkin diff says: old -> new, the change in %, better / worse / same, the
    outcome, every number beyond the threshold and the verdict changes;
  - the monitor page (monitor_page.hpp, tests/report/monitor_samples.hpp): its device summary and three tables;
    each table sorts by GPU time; names that need escaping read back as given; a reading never taken reads
    "not measured" with no bar; SOL bars as long as their percentage; partial rows marked; the baseline's diff;
  - the monitor page's System section (report/system_html.hpp, tests/report/system_samples.hpp): each phase's
    timeline bar split into kernels, copies with no kernel beside them and idle time, each part as wide as its
    share of the phase's span; the findings and the next target;
  - report sections on the run page (section_html.hpp): a section of shares is one stacked bar, largest part
    first, each part as wide as its share; a section's numbers read back in its table;
  - the source lines page (source_lines_page.hpp, tests/report/source_lines_samples.hpp): each line's stall
    reasons one stacked bar, each part as wide as its share of the line's samples and in the colour key's colour;
    the share bar as long as the line's share; the hot lines sort by samples;
  - a screenshot is not blank (decoded by the browser: colour variety, share of non-white pixels).

Exits 77 (CTest: Skipped) with the reason when Selenium, chromium or chromedriver is missing.
Usage: browser_test.py --samples DIR [--screenshot FILE.png] [--monitor-screenshot FILE.png]
"""
import argparse
import base64
import math
import os
import shutil
import sys

SKIP = 77
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# --- Inputs: the numbers samples.hpp gives napkin, and the datasheet ---------------------------------------------
# NVIDIA H100 SXM datasheet, dense (napkin's gpu_table cites the same figures): FLOP/s per pipe, DRAM B/s.
H100_DRAM = 3.35e12
H100_PEAKS = {
    "fp64": 33.5e12, "fp32": 66.9e12, "fp16": 133.8e12, "bf16": 133.8e12, "fp64-tc": 66.9e12, "tf32-tc": 494.7e12,
    "fp16-tc": 989.4e12, "fp16-tc-f16acc": 989.4e12, "bf16-tc": 989.4e12, "fp8-tc": 1978.9e12,
    "fp8-tc-f16acc": 1978.9e12, "int8-tc": 1978.9e12,
}
E = 8192 * 8192  # softmax elements


def measured(fadd, fmul, ffma, dram_bytes, ns):
    flop = fadd + fmul + 2 * ffma  # ncu's roofline formula
    return flop / dram_bytes, flop / (ns * 1e-9)


SGEMM = measured(0, 16777216, 68736253952, 1006632960, 2780000)
SOFTMAX_NAIVE = measured(2 * E, 2 * E, 0, 1073741824, 620000)
SOFTMAX_FUSED = measured(3 * E, 3 * E, 0, 536870912, 182000)
# napkin's softmax model: 5 FLOP per element (max, subtract, exp, sum, divide) over 8 bytes (read + write fp32);
# memory-bound, so the attainable FLOP/s is DRAM B/s x intensity.
SOFTMAX_ESTIMATE = (5 / 8, H100_DRAM * 5 / 8)

CHARTS = {
    "h100": {
        "pipes": set(H100_PEAKS), "memory": {"DRAM": H100_DRAM},
        "points": {"sgemm 4096^3": SGEMM, "softmax, 3 passes": SOFTMAX_NAIVE,
                   "softmax, online (1 pass)": SOFTMAX_FUSED, "softmax, napkin estimate": SOFTMAX_ESTIMATE},
        "pairs": [("softmax, 3 passes", "softmax, online (1 pass)")],
    },
    # The CLI's two-workload chart (write_samples.cpp): 4096^3 fp16 GEMM = 2*4096^3 FLOP / (3*4096^2*2 B) =
    # 1365.3 FLOP/B at the fp16-tc peak; softmax 32000 x 16384 fp32: 5 FLOP / 8 B = 0.625 FLOP/B, memory-bound.
    "two_estimates": {
        "pipes": set(H100_PEAKS), "memory": {"DRAM": H100_DRAM},
        "points": {"gemm 4096 4096 4096 --dtype fp16": (4096 / 3, 989.4e12),
                   "softmax 32000 16384": (0.625, H100_DRAM * 0.625)},
        "pairs": [],
    },
    "two_pipes": {
        "pipes": {"fp32", "fp16-tc"}, "memory": {"DRAM": H100_DRAM, "L2 <sample>": 10e12},
        "points": {'<b>&amp;"x"</b>': (2.0, 5e12), "a long label at the right edge of the frame": (2000.0, 400e12),
                   "low": (0.05, 1e11)},
        "pairs": [],
    },
}

# Kernels of report.html: duration (ns) and SOL percentages (SM, Memory, DRAM, L1/TEX, L2), as samples.hpp.
KERNELS = {
    "sgemm_128x128_kernel<float, 4096>": (2780000, [82.5, 45.0, 10.8, 61.0, 38.0]),
    "softmax_kernel": (182000, [36.0, 89.0, 88.0, 52.0, 71.0]),
    "add_bias<float>": (95000, [18.0, 86.0, 84.4, 30.0, 62.0]),
}
RUN_ORDER = ["sgemm_128x128_kernel<float, 4096>", "softmax_kernel", "add_bias<float>"]
BAR_METRICS = ["sm", "memory", "dram", "l1tex", "l2"]

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def near(a, b, tol):
    return abs(a - b) <= tol


def decade_range(lo, hi, below, above):
    """The axis rule napkin documents: whole decades holding every value with the margin factors."""
    return 10.0 ** math.floor(math.log10(lo / below)), 10.0 ** math.ceil(math.log10(hi * above))


def expected_ranges(chart):
    peaks = {H100_PEAKS[p] for p in chart["pipes"]}
    ridges = [pk / bw for pk in peaks for bw in chart["memory"].values()]
    xs = ridges + [i for i, _ in chart["points"].values()]
    ys = list(peaks) + [f for _, f in chart["points"].values()]
    return decade_range(min(xs), max(xs), 4, 4) + decade_range(min(ys), max(ys), 4, 2)


def rect(driver, el):
    return driver.execute_script("var r=arguments[0].getBoundingClientRect();"
                                 "return {l:r.left,t:r.top,r:r.right,b:r.bottom,w:r.width,h:r.height};", el)


def check_svg(driver, svg, name, chart):
    By = webdriver.common.by.By
    origin = rect(driver, svg)
    x_min, x_max, y_min, y_max = expected_ranges(chart)
    got = [float(svg.get_attribute(a)) for a in ("data-x-min", "data-x-max", "data-y-min", "data-y-max")]
    check(all(near(g, e, e * 1e-9) for g, e in zip(got, (x_min, x_max, y_min, y_max))),
          f"{name}: axis range {got}, expected {[x_min, x_max, y_min, y_max]}")
    frame = rect(driver, svg.find_element(By.CSS_SELECTOR, "rect.plot-area"))
    left, top, width, height = frame["l"] - origin["l"], frame["t"] - origin["t"], frame["w"], frame["h"]
    check(near(left, float(svg.get_attribute("data-plot-left")), 0.5) and
          near(width, float(svg.get_attribute("data-plot-width")), 0.5), f"{name}: plot frame where its data- says")

    def X(i):
        return left + (math.log10(i) - math.log10(x_min)) / (math.log10(x_max) - math.log10(x_min)) * width

    def Y(f):
        return top + height - (math.log10(f) - math.log10(y_min)) / (math.log10(y_max) - math.log10(y_min)) * height

    def centre(el):
        r = rect(driver, el)
        return (r["l"] + r["r"]) / 2 - origin["l"], (r["t"] + r["b"]) / 2 - origin["t"]

    # Points: every input point drawn once, at its numbers.
    points = svg.find_elements(By.CSS_SELECTOR, "circle.point")
    labels = {p.get_attribute("data-label"): p for p in points}
    check(sorted(labels) == sorted(chart["points"]) and len(points) == len(chart["points"]),
          f"{name}: points drawn {sorted(labels)}, expected {sorted(chart['points'])}")
    for label, (i, f) in chart["points"].items():
        if label not in labels:
            continue
        el = labels[label]
        check(near(float(el.get_attribute("data-intensity")), i, i * 1e-5) and
              near(float(el.get_attribute("data-flops")), f, f * 1e-5), f"{name}: data- numbers of point {label!r}")
        cx, cy = centre(el)
        check(near(cx, X(i), 1) and near(cy, Y(f), 1),
              f"{name}: point {label!r} at ({cx:.1f}, {cy:.1f}), expected ({X(i):.1f}, {Y(f):.1f})")
    # Point labels say the label as given (escaping survives), one per point.
    texts = [t.get_attribute("textContent") for t in svg.find_elements(By.CSS_SELECTOR, "text.point-label")]
    check(sorted(texts) == sorted(chart["points"]), f"{name}: point labels read {texts}")

    # Compute ceilings: one horizontal line per distinct peak, from the ridge with the fastest memory level.
    fastest = max(chart["memory"].values())
    drawn_pipes = set()
    ceilings = svg.find_elements(By.CSS_SELECTOR, "line.ceiling.compute")
    check(len(ceilings) == len({H100_PEAKS[p] for p in chart["pipes"]}), f"{name}: one line per distinct peak")
    for line in ceilings:
        pipes = line.get_attribute("data-pipe").split()
        drawn_pipes.update(pipes)
        peaks = {H100_PEAKS[p] for p in pipes}
        check(len(peaks) == 1, f"{name}: ceiling {pipes} groups pipes of one peak")
        peak = peaks.pop()
        r = rect(driver, line)
        check(near(r["t"] - origin["t"], Y(peak), 1) and near(r["b"] - origin["t"], Y(peak), 1),
              f"{name}: ceiling {pipes} at y {r['t'] - origin['t']:.1f}, expected {Y(peak):.1f}")
        check(near(r["l"] - origin["l"], X(peak / fastest), 1) and near(r["r"] - origin["l"], left + width, 1),
              f"{name}: ceiling {pipes} from x {r['l'] - origin['l']:.1f}, expected {X(peak / fastest):.1f}")
    check(drawn_pipes == chart["pipes"], f"{name}: pipes drawn {sorted(drawn_pipes)}, expected {sorted(chart['pipes'])}")

    # Memory ceilings: slope bandwidth, up to the ridge with the highest peak.
    top_peak = max(H100_PEAKS[p] for p in chart["pipes"])
    lines = svg.find_elements(By.CSS_SELECTOR, "line.ceiling.memory")
    check(sorted(l.get_attribute("data-memory") for l in lines) == sorted(chart["memory"]), f"{name}: memory levels")
    for line in lines:
        bw = chart["memory"].get(line.get_attribute("data-memory"))
        if bw is None:
            continue
        r = rect(driver, line)  # rises to the right: start at the box's bottom left, end at its top right
        x0, y0, x1, y1 = r["l"] - origin["l"], r["b"] - origin["t"], r["r"] - origin["l"], r["t"] - origin["t"]
        check(near(x1, X(top_peak / bw), 1) and near(y1, Y(top_peak), 1),
              f"{name}: {line.get_attribute('data-memory')} ends at ({x1:.1f}, {y1:.1f}), expected "
              f"({X(top_peak / bw):.1f}, {Y(top_peak):.1f})")
        i0 = 10 ** (math.log10(x_min) + (x0 - left) / width * (math.log10(x_max) - math.log10(x_min)))
        check(near(y0, Y(bw * i0), 1) and x0 >= left - 0.5 and y0 <= top + height + 0.5,
              f"{name}: {line.get_attribute('data-memory')} starts on its slope inside the frame")

    # Ridges: one per (peak, memory level), where the two ceilings meet.
    ridges = svg.find_elements(By.CSS_SELECTOR, "circle.ridge")
    check(len(ridges) == len({H100_PEAKS[p] for p in chart["pipes"]}) * len(chart["memory"]), f"{name}: ridge count")
    for el in ridges:
        peak = H100_PEAKS[el.get_attribute("data-pipe").split()[0]]
        bw = chart["memory"][el.get_attribute("data-memory")]
        cx, cy = centre(el)
        check(near(cx, X(peak / bw), 1) and near(cy, Y(peak), 1), f"{name}: ridge {el.get_attribute('data-pipe')} / "
              f"{el.get_attribute('data-memory')} at ({cx:.1f}, {cy:.1f}), expected ({X(peak / bw):.1f}, {Y(peak):.1f})")

    # Arrows: from the before point towards the after point.
    arrows = svg.find_elements(By.CSS_SELECTOR, "line.pair")
    check(len(arrows) == len(chart["pairs"]), f"{name}: one arrow per pair")
    for line, (a, b) in zip(arrows, chart["pairs"]):
        (ia, fa), (ib, fb) = chart["points"][a], chart["points"][b]
        x1, y1, x2, y2 = (float(line.get_attribute(k)) for k in ("x1", "y1", "x2", "y2"))
        want = math.atan2(Y(fb) - Y(fa), X(ib) - X(ia))
        check(near(x1, X(ia), 1) and near(y1, Y(fa), 1), f"{name}: arrow starts at {a!r}")
        check(abs(math.atan2(y2 - y1, x2 - x1) - want) < 0.03 and math.hypot(X(ib) - x2, Y(fb) - y2) < 12,
              f"{name}: arrow points at {b!r} and ends next to it")

    # Text: inside the picture, and labels do not cover each other.
    boxes = {}
    for t in svg.find_elements(By.CSS_SELECTOR, "text"):
        r = rect(driver, t)
        cls = t.get_attribute("class") or "legend"
        check(r["w"] > 0 and r["l"] >= origin["l"] - 0.5 and r["r"] <= origin["r"] + 0.5 and
              r["t"] >= origin["t"] - 0.5 and r["b"] <= origin["b"] + 0.5,
              f"{name}: text {t.get_attribute('textContent')!r} ({cls}) is clipped: {r} not inside {origin}")
        boxes.setdefault(cls, []).append((t.get_attribute("textContent"), r))
    # Ceiling labels among themselves, point labels among themselves and against the ceiling labels (a
    # point on a ceiling puts its label among them).
    def overlap(a, b):
        return min(a["r"], b["r"]) - max(a["l"], b["l"]) > 1 and min(a["b"], b["b"]) - max(a["t"], b["t"]) > 1
    ceiling_labels, point_labels = boxes.get("ceiling-label compute", []), boxes.get("point-label", [])
    for group in (ceiling_labels, point_labels):
        for n, (ta, a) in enumerate(group):
            for tb, b in group[n + 1:]:
                check(not overlap(a, b), f"{name}: labels {ta!r} and {tb!r} overlap")
    for ta, a in point_labels:
        for tb, b in ceiling_labels:
            check(not overlap(a, b), f"{name}: point label {ta!r} and ceiling label {tb!r} overlap")


def no_console_errors(driver, name):
    logs = driver.get_log("browser")
    errors = [e for e in logs if e.get("level") == "SEVERE"]
    check(not errors, f"{name}: console errors {errors}")
    loaded = driver.execute_script("return performance.getEntriesByType('resource').map(function(e){return e.name;});")
    check(not loaded, f"{name}: loaded {loaded} (must be self-contained)")


def table_names(driver):
    By = webdriver.common.by.By
    return [r.find_element(By.CSS_SELECTOR, "td.name").text for r in driver.find_elements(By.CSS_SELECTOR, "#kernels tbody tr")]


def check_page(driver, name):
    By = webdriver.common.by.By
    check(table_names(driver) == RUN_ORDER, f"{name}: kernels in measured order first")
    header = driver.find_element(By.CSS_SELECTOR, "#kernels th[data-sort='data-time-ns']")
    header.find_element(By.TAG_NAME, "button").click()
    by_time = sorted(RUN_ORDER, key=lambda k: KERNELS[k][0])
    check(table_names(driver) == by_time and header.get_attribute("aria-sort") == "ascending",
          f"{name}: one click sorts by time, shortest first: {table_names(driver)}")
    header.find_element(By.TAG_NAME, "button").click()
    check(table_names(driver) == by_time[::-1] and header.get_attribute("aria-sort") == "descending",
          f"{name}: a second click sorts longest first: {table_names(driver)}")
    driver.find_element(By.CSS_SELECTOR, "#kernels th[data-sort='data-index'] button").click()
    check(table_names(driver) == RUN_ORDER, f"{name}: clicking # restores the measured order: {table_names(driver)}")

    # SOL bars: each fill is its percentage of the track.
    for section in driver.find_elements(By.CSS_SELECTOR, "section.kernel"):
        kernel = section.find_element(By.TAG_NAME, "h3").text
        for metric, pct in zip(BAR_METRICS, KERNELS[kernel][1]):
            row = section.find_element(By.CSS_SELECTOR, f".bar-row[data-metric='{metric}']")
            track = rect(driver, row.find_element(By.CSS_SELECTOR, ".bar-track"))
            fill = rect(driver, row.find_element(By.CSS_SELECTOR, ".bar-fill"))
            inner = track["w"] - 2  # 1 px border each side
            check(near(fill["w"], inner * min(pct, 100) / 100, 1),
                  f"{name}: {kernel} {metric} bar {fill['w']:.1f} px of {inner:.1f}, expected {pct}%")
            check(row.find_element(By.CSS_SELECTOR, ".bar-value").text == f"{pct:.1f}%", f"{name}: {kernel} {metric} value")

    # The baseline: old -> new, %, verdict change. Verdicts by the SOL table's rows: naive softmax has SM 24% and
    # Memory 55% (both below 60, the larger above 40: a gap, "unclassified"); fused has Memory 89% and DRAM 88%
    # (both at or above 60: "memory-bound (DRAM)").
    rows = {r.get_attribute("data-name"): r for r in driver.find_elements(By.CSS_SELECTOR, "#changes tr.change-row")}
    cell = lambda n, c: rows[n].find_element(By.CSS_SELECTOR, c).text if n in rows else None
    pct = (182000 - 620000) / 620000 * 100
    check(cell("softmax_kernel", ".time-change") == "620.00 us \u2192 182.00 us", f"{name}: softmax time change")
    check(cell("softmax_kernel", ".change") == f"{pct:.1f}%", f"{name}: softmax change {cell('softmax_kernel', '.change')}")
    check(cell("softmax_kernel", ".verdict-change") == "unclassified \u2192 memory-bound (DRAM)",
          f"{name}: softmax verdict change {cell('softmax_kernel', '.verdict-change')}")
    check(cell("sgemm_128x128_kernel<float, 4096>", ".change") == f"{(2780000 - 2810000) / 2810000 * 100:.1f}%",
          f"{name}: sgemm change")
    check(cell("add_bias<float>", ".time-change") == "new: 95.00 us", f"{name}: a kernel only in the run is new")
    check(cell("transpose_kernel", ".time-change") == "120.00 us \u2192 gone", f"{name}: a kernel only in the baseline")
    # What napkin diff says of the two runs (3% threshold): softmax faster, sgemm -1.1% "same", the others
    # added / removed; nothing got worse, so no regression.
    for kernel, status in (("softmax_kernel", "better"), ("sgemm_128x128_kernel<float, 4096>", "same"),
                           ("add_bias<float>", "added"), ("transpose_kernel", "removed")):
        check(cell(kernel, ".status") == status, f"{name}: {kernel} status {cell(kernel, '.status')!r}, expected {status}")
    outcome = driver.find_element(By.CSS_SELECTOR, "#diff-outcome")
    check(outcome.get_attribute("data-outcome") == "no-regression" and outcome.text.startswith("napkin diff: no-regression"),
          f"{name}: outcome {outcome.text!r}")
    # Every number beyond 3%, old and new as napkin diff prints them (in the unit of the field's name:
    # named_number), none of sgemm's. 4E*4 B = 1073741824 B, 2E*4 B = 536870912 B, 4E = 268435456 FLOP,
    # 6E = 402653184 FLOP, at four significant digits.
    numbers = {(r.get_attribute("data-entity"), r.get_attribute("data-field")): r
               for r in driver.find_elements(By.CSS_SELECTOR, "#diff-numbers tr.diff-row")}
    check(all(e == "softmax_kernel" for e, _ in numbers), f"{name}: only softmax numbers moved beyond 3%: {list(numbers)}")
    for field, old, new, old_text, new_text, status in (
            ("duration_ns", 620000, 182000, "620.00 us", "182.00 us", "better"),
            ("dram_bytes", 4 * E * 4, 2 * E * 4, "1.074 GB", "536.9 MB", "better"),
            ("sm_pct", 24.0, 36.0, "24.0%", "36.0%", "better"),
            ("flop", 4 * E, 6 * E, "268.4 MFLOP", "402.7 MFLOP", "changed")):
        row = numbers.get(("softmax_kernel", field))
        if not check(row is not None, f"{name}: softmax {field} listed"):
            continue
        text = [row.find_element(By.CSS_SELECTOR, c).text for c in (".old", ".new", ".change", ".status")]
        want = [old_text, new_text, f"{(new - old) / old * 100:+.1f}%", status]
        check(text == want, f"{name}: softmax {field} {text}, expected {want}")
    verdicts = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#diff-verdicts li")]
    check("softmax_kernel sol_table: unclassified \u2192 memory-bound (DRAM)" in verdicts, f"{name}: verdict changes {verdicts}")


# The monitor page's rows (monitor_samples.hpp): GPU time (ns) per row, in the report's order (largest first,
# ties by name), and load's SOL readings: SM 20, DRAM 80, L1 30, L2 slices 40 (%).
LOAD = 'load<"a"&b>'
MONITOR_TABLES = {
    "phases": [("attn <x>", 2000), ("(no phase)", 1000), ("decode", 1000)],
    "paths": [("decode/attn <x>", 2000), ("(no phase)", 1000), ("decode", 1000)],
    "kernels": [(LOAD, 2000), ("bare", 1000), ("gemm", 1000)],
}
LOAD_BARS = {"sm": 20.0, "dram": 80.0, "l1tex": 30.0, "l2-slices": 40.0}


def check_monitor_page(driver, name):
    By = webdriver.common.by.By
    device = {r.get_attribute("data-key"): r.find_element(By.TAG_NAME, "td").text
              for r in driver.find_elements(By.CSS_SELECTOR, "#device tr")}
    check(device.get("device") == "NVIDIA H200 <sample>" and device.get("index") == "1" and
          device.get("uuid") == "GPU-00000000-1111-2222-3333-444444444444", f"{name}: device summary {device}")
    check(device.get("idle-fraction") == "0.0% of the sampled time", f"{name}: idle fraction {device.get('idle-fraction')}")
    check("not ncu's GH100 L2 fabric" in device.get("l2", ""), f"{name}: which L2: {device.get('l2')}")

    def names(table):
        return [r.find_element(By.CSS_SELECTOR, "td.name").text
                for r in driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")]

    for table, rows in MONITOR_TABLES.items():
        order = [n for n, _ in rows]
        check(names(table) == order, f"{name}: {table} in the report's order: {names(table)}")
        ns = dict(rows)
        header = driver.find_element(By.CSS_SELECTOR, f"#{table} th[data-sort='data-gpu-ns']")
        header.find_element(By.TAG_NAME, "button").click()
        times = [ns[n] for n in names(table)]
        check(times == sorted(times) and header.get_attribute("aria-sort") == "ascending" and times[-1] == 2000,
              f"{name}: {table} sorted by GPU time, shortest first: {names(table)}")
        header.find_element(By.TAG_NAME, "button").click()
        times = [ns[n] for n in names(table)]
        check(times == sorted(times, reverse=True) and header.get_attribute("aria-sort") == "descending",
              f"{name}: {table} sorted longest first: {names(table)}")
        driver.find_element(By.CSS_SELECTOR, f"#{table} th[data-sort='data-index'] button").click()
        check(names(table) == order, f"{name}: {table}: # restores the report's order")

    rows = {r.find_element(By.CSS_SELECTOR, "td.name").text: r
            for r in driver.find_elements(By.CSS_SELECTOR, "#kernels tbody tr")}
    load, bare = rows.get(LOAD), rows.get("bare")
    if check(load is not None and bare is not None, f"{name}: kernel rows {list(rows)}"):
        for metric, pct in LOAD_BARS.items():
            row = load.find_element(By.CSS_SELECTOR, f".bar-row[data-metric='{metric}']")
            track = rect(driver, row.find_element(By.CSS_SELECTOR, ".bar-track"))
            fill = rect(driver, row.find_element(By.CSS_SELECTOR, ".bar-fill"))
            check(near(fill["w"], (track["w"] - 2) * pct / 100, 1),
                  f"{name}: load {metric} bar {fill['w']:.1f} px of {track['w'] - 2:.1f}, expected {pct}%")
        # load: 600 + 400 B of the sampled launch only, marked partial; 1 of 2 launches complete.
        check(load.find_element(By.CSS_SELECTOR, "td.bytes").text == "1.000 kB*", f"{name}: load's bytes marked partial")
        check(load.find_element(By.CSS_SELECTOR, "td.complete").text == "1 of 2 (partial)", f"{name}: load complete")
        check(not bare.find_elements(By.CSS_SELECTOR, ".bar-fill") and
              [v.text for v in bare.find_elements(By.CSS_SELECTOR, ".bar-value")] == ["not measured"] * 4 and
              bare.find_element(By.CSS_SELECTOR, "td.memory").text == "not measured",
              f"{name}: bare's readings were never taken: not measured, no bar")
    outcome = driver.find_element(By.CSS_SELECTOR, "#diff-outcome")
    check(outcome.get_attribute("data-outcome") == "regression", f"{name}: outcome {outcome.text!r}")
    sm = [r for r in driver.find_elements(By.CSS_SELECTOR, "#diff-numbers tr.diff-row")
          if r.get_attribute("data-entity") == f"kernel: {LOAD}" and r.get_attribute("data-field") == "sm_pct"]
    check(len(sm) == 1 and [sm[0].find_element(By.CSS_SELECTOR, c).text for c in (".old", ".new", ".change")] ==
          ["40.0%", "20.0%", "-50.0%"], f"{name}: load's SM 40 -> 20 listed")
    changes = {r.get_attribute("data-name"): r.find_element(By.CSS_SELECTOR, ".status").text
               for r in driver.find_elements(By.CSS_SELECTOR, "#changes tr.change-row")}
    check(changes.get("kernel: transpose") == "removed", f"{name}: a row only in the baseline: {changes}")


def screenshot_stats(driver, png):
    driver.get("about:blank")
    return driver.execute_async_script("""
      var done = arguments[arguments.length - 1], img = new Image();
      img.onload = function () {
        var c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
        var g = c.getContext('2d'); g.drawImage(img, 0, 0);
        var d = g.getImageData(0, 0, c.width, c.height).data, colours = new Set(), ink = 0;
        for (var i = 0; i < d.length; i += 4) {
          colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
          if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) ink++;
        }
        done({w: img.width, h: img.height, colours: colours.size, ink: ink / (d.length / 4)});
      };
      img.onerror = function () { done(null); };
      img.src = 'data:image/png;base64,' + arguments[0];""", base64.b64encode(png).decode())


# The system sample (system_samples.hpp), per phase: span, busy, copy time and the part of it beside kernels (ns).
SYSTEM_PHASES = {"decode": (30e6, 10e6, 2e6, 0.5e6), "(no phase)": (10e6, 5e6, 1e6, 0.25e6),
                 "(run)": (40e6, 15e6, 3e6, 0.75e6)}


def check_system_section(driver, name):
    """monitor_system.html: each phase's timeline is three parts, each as wide as its share of the span: busy time
    but for copies with no kernel beside them, those copies (copy time - overlapped), idle (span - busy)."""
    By = webdriver.common.by.By
    section = driver.find_element(By.CSS_SELECTOR, "section#system")
    check(section.is_displayed(), f"{name}: the System section is shown")
    rows = section.find_elements(By.CSS_SELECTOR, "#system-phases tr.system-phase")
    check([r.get_attribute("data-name") for r in rows] == list(SYSTEM_PHASES), f"{name}: the phases, then the run")
    for row in rows:
        span, busy, copies, overlapped = SYSTEM_PHASES[row.get_attribute("data-name")]
        alone = copies - overlapped
        bar = rect(driver, row.find_element(By.CSS_SELECTOR, ".timeline"))
        inner = bar["w"] - 2  # 1 px border each side
        left = bar["l"] + 1
        for cls, ns in (("kernels", busy - alone), ("copies", alone), ("idle", span - busy)):
            r = rect(driver, row.find_element(By.CSS_SELECTOR, ".timeline ." + cls))
            check(near(r["w"], inner * ns / span, 1),
                  f"{name}: {row.get_attribute('data-name')} {cls} is {r['w']:.1f} px of {inner:.1f}")
            check(near(r["l"], left, 1), f"{name}: timeline parts follow each other")
            left += r["w"]
    rules = [li.get_attribute("data-rule") for li in section.find_elements(By.CSS_SELECTOR, "#system-findings li")]
    check(rules == ["gpu-starved", "pageable-copy"], f"{name}: the findings in order: {rules}")
    kernels = [td.text for td in section.find_elements(By.CSS_SELECTOR, "#system-kernels td.name")]
    check(kernels == ["gemm<float>", "softmax"], f"{name}: the kernels by GPU time: {kernels}")
    check("no kernel to profile yet" in section.find_element(By.ID, "system-next").text, f"{name}: the next target")


def check_sections_page(driver, name):
    """report_sections.html (write_samples.cpp, tests/report/section_samples.hpp): the stalls 60, 30 and 10 of
    100 as one stacked bar, largest first from the left, each part as wide as its share; the memory table."""
    By = webdriver.common.by.By
    section = driver.find_element(By.CSS_SELECTOR, ".report-section[data-section='warp_state']")
    bar = rect(driver, section.find_element(By.CSS_SELECTOR, ".share-bar"))
    inner = bar["w"] - 2  # 1 px border each side
    parts = section.find_elements(By.CSS_SELECTOR, ".share-bar .share")
    fields = [p.get_attribute("data-field") for p in parts]
    check(fields == ["long_scoreboard_share_pct", "barrier_share_pct", "mio_throttle_share_pct"],
          f"{name}: stall parts largest first: {fields}")
    left = bar["l"] + 1
    for part, share in zip(parts, (60, 30, 10)):
        r = rect(driver, part)
        check(near(r["w"], inner * share / 100, 1), f"{name}: a {share}% part is {r['w']:.1f} px of {inner:.1f}")
        check(near(r["l"], left, 1), f"{name}: parts follow each other: {r['l']:.1f}, expected {left:.1f}")
        left += r["w"]
    shares = [c.text for c in section.find_elements(By.CSS_SELECTOR, "td.share-pct")]
    check(shares == ["-", "60.0%", "30.0%", "10.0%"], f"{name}: the shares' table (warp cycles first) {shares}")
    memory = driver.find_element(By.CSS_SELECTOR, ".report-section[data-section='memory']")
    row = memory.find_element(By.CSS_SELECTOR, "tr[data-field='l1_hit_rate_pct']")
    check([c.text for c in row.find_elements(By.TAG_NAME, "td")] == ["L1/TEX hit rate", "87.50", "%"],
          f"{name}: the memory table's hit rate row")


def check_source_lines_page(driver, name):
    """source_lines.html (write_samples.cpp, tests/report/source_lines_samples.hpp): strided_sum's line 10 has
    980 of the function's 1000 samples: long_scoreboard 950, wait 20, selected 10; line 8 has 20 (wait 15,
    selected 5). nolines has no line information: its PCs 0x100 (250) and 0x80 (50) of 300."""
    By = webdriver.common.by.By
    rows = lambda table: driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
    line_of = lambda r: r.find_element(By.CSS_SELECTOR, "td.name").text
    check([line_of(r) for r in rows("lines-0")] == ["source_lines_kernel.cu:10", "source_lines_kernel.cu:8"],
          f"{name}: hot lines, most samples first")
    hot = rows("lines-0")[0]
    bar = rect(driver, hot.find_element(By.CSS_SELECTOR, ".stall-bar"))
    inner = bar["w"] - 2  # 1 px border each side
    parts = hot.find_elements(By.CSS_SELECTOR, ".stall-bar .stall")
    check([p.get_attribute("data-reason") for p in parts] == ["long_scoreboard", "wait", "selected"],
          f"{name}: line 10's stall parts, largest first")
    left = bar["l"] + 1
    for part, samples in zip(parts, (950, 20, 10)):
        r = rect(driver, part)
        check(near(r["w"], inner * samples / 980, 1), f"{name}: {samples} of 980 samples is {r['w']:.1f} px of {inner:.1f}")
        check(near(r["l"], left, 1), f"{name}: stall parts follow each other")
        left += r["w"]
    # Each reason has one colour on the whole page: the key's.
    key = {k.get_attribute("data-reason"): k.find_element(By.CSS_SELECTOR, ".swatch").value_of_css_property("background-color")
           for k in driver.find_elements(By.CSS_SELECTOR, "#stall-key .key")}
    check(list(key) == ["long_scoreboard", "mio_throttle", "barrier", "wait", "selected"], f"{name}: the key {list(key)}")
    for part in driver.find_elements(By.CSS_SELECTOR, ".stall"):
        reason = part.get_attribute("data-reason")
        check(part.value_of_css_property("background-color") == key.get(reason), f"{name}: {reason}'s colour is the key's")
    track = rect(driver, hot.find_element(By.CSS_SELECTOR, ".share-track"))
    fill = rect(driver, hot.find_element(By.CSS_SELECTOR, ".share-track .bar-fill"))
    check(near(fill["w"], (track["w"] - 2) * 0.98, 1), f"{name}: line 10's share bar is 98% of its track")
    check(hot.find_element(By.CSS_SELECTOR, ".share-text").text == "98.0%", f"{name}: line 10's share")
    header = driver.find_element(By.CSS_SELECTOR, "#lines-0 th[data-sort='data-samples'] button")
    header.click()
    check([line_of(r) for r in rows("lines-0")] == ["source_lines_kernel.cu:8", "source_lines_kernel.cu:10"],
          f"{name}: one click sorts by samples, fewest first")
    # nolines: the note and its PCs, no line.
    section = driver.find_element(By.CSS_SELECTOR, "section.function[data-function='nolines']")
    check("-lineinfo" in section.find_element(By.CSS_SELECTOR, ".no-line-info").text, f"{name}: how to get lines")
    check([line_of(r) for r in rows("pcs-1")] == ["+0x0100", "+0x0080"], f"{name}: nolines' PCs")
    check([r.find_element(By.CSS_SELECTOR, "td.line").text for r in rows("pcs-1")] == ["-", "-"], f"{name}: no lines")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", required=True)
    ap.add_argument("--screenshot", default="")
    ap.add_argument("--monitor-screenshot", default="")
    args = ap.parse_args()
    global webdriver
    try:
        from selenium import webdriver
        import selenium.webdriver.common.by  # noqa: F401
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        print(f"SKIPPED: Selenium is not installed for {sys.executable} ({e}); install python3-selenium")
        return SKIP
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.isfile(tool) and os.access(tool, os.X_OK)):
            print(f"SKIPPED: {tool} is missing; install chromium and chromium-driver")
            return SKIP
    samples = os.path.abspath(args.samples)
    files = ["roofline_h100.svg", "roofline_two_pipes.svg", "roofline_two_estimates.svg", "report.html",
             "report_single.html", "monitor.html", "report_sections.html", "source_lines.html",
             "monitor_system.html"]
    missing = [f for f in files if not os.path.isfile(os.path.join(samples, f))]
    if missing:
        print(f"FAIL: write_samples did not write {missing} into {samples}")
        return 1

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for a in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000",
              "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(a)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    By = webdriver.common.by.By
    try:
        url = lambda f: "file://" + os.path.join(samples, f)
        for name, chart in (("roofline_h100.svg", "h100"), ("roofline_two_pipes.svg", "two_pipes"),
                            ("roofline_two_estimates.svg", "two_estimates")):
            driver.get(url(name))
            no_console_errors(driver, name)
            svg = driver.find_element(By.CSS_SELECTOR, "svg")
            check_svg(driver, svg, name, CHARTS[chart])
            title = driver.execute_script("return document.querySelector('text.title').textContent;")
            if chart == "two_pipes":
                check(title == 'Escaped <title> & "quotes" (sample numbers), and a title long enough that it has to be '
                      'squeezed to fit the picture', f"{name}: title text {title!r}")
        driver.get(url("roofline_h100.svg"))
        png = driver.find_element(By.CSS_SELECTOR, "svg").screenshot_as_png

        driver.get(url("report.html"))
        no_console_errors(driver, "report.html")
        check(driver.title == "softmax fix, sample run", "report.html: title")
        check_svg(driver, driver.find_element(By.CSS_SELECTOR, "div.roofline svg"), "report.html roofline", CHARTS["h100"])
        check_page(driver, "report.html")
        no_console_errors(driver, "report.html after clicks")
        page_png = driver.get_screenshot_as_png()

        driver.get(url("report_single.html"))
        no_console_errors(driver, "report_single.html")
        check(table_names(driver) == ["add_bias<float>"], "report_single.html: one kernel")
        check(not driver.find_elements(By.CSS_SELECTOR, "svg, #changes"), "report_single.html: no chart, no baseline")

        driver.get(url("report_sections.html"))
        no_console_errors(driver, "report_sections.html")
        check_sections_page(driver, "report_sections.html")

        driver.get(url("monitor_system.html"))
        no_console_errors(driver, "monitor_system.html")
        check_system_section(driver, "monitor_system.html")

        driver.get(url("source_lines.html"))
        no_console_errors(driver, "source_lines.html")
        check_source_lines_page(driver, "source_lines.html")
        no_console_errors(driver, "source_lines.html after clicks")

        driver.get(url("monitor.html"))
        no_console_errors(driver, "monitor.html")
        check(driver.title == "decode step, sample monitor report", "monitor.html: title")
        check_monitor_page(driver, "monitor.html")
        no_console_errors(driver, "monitor.html after clicks")
        driver.set_window_size(1500, 1400)
        driver.get(url("monitor.html"))  # the top of the page, as it opens
        monitor_png = driver.get_screenshot_as_png()

        for what, shot, size in (("roofline screenshot", png, (820, 540)), ("page screenshot", page_png, None),
                                 ("monitor page screenshot", monitor_png, None)):
            check(shot[:8] == b"\x89PNG\r\n\x1a\n", f"{what}: a PNG")
            stats = screenshot_stats(driver, shot)
            print(f"{what}: {stats}")
            check(stats is not None and stats["colours"] >= 16 and 0.02 < stats["ink"] < 0.9,
                  f"{what}: not blank (colours, share of non-white pixels): {stats}")
            if size:
                check(stats is not None and (stats["w"], stats["h"]) == size, f"{what}: the SVG's size {size}")
        if args.screenshot:
            with open(args.screenshot, "wb") as out:
                out.write(png)
            print(f"screenshot: {args.screenshot}")
        if args.monitor_screenshot:
            with open(args.monitor_screenshot, "wb") as out:
                out.write(monitor_png)
            print(f"screenshot: {args.monitor_screenshot}")
    finally:
        driver.quit()
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all browser checks pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
