#!/usr/bin/env python3
"""Writes include/tessera/gemm/select/timed_table.hpp, the data of Auto's default selector
(select::NearestShapes, include/tessera/gemm/select/nearest_shapes.hpp): every entry of Auto's
table timed on a sweep of shapes, kept as each entry's log time over the shape's fastest entry.

  fit_selector_table.py SWEEP.json [SWEEP2.json ...] -o include/tessera/gemm/select/timed_table.hpp
      the table from sweeps run with `tessera_bench --suite=sweep --sweep-entries
      --sweep-seed=S --benchmark_out=SWEEP.json --benchmark_out_format=json` (one device);
  fit_selector_table.py SWEEP.json ... --report HELDOUT.json
      how the selector built from the given sweeps chooses on another sweep (one that also has
      --sweep-entries data): per shape its entry's measured time against the fastest entry's,
      the rule's (tessera_auto) and the default tile's (tessera_wgmma), as in the C++ code.

The selector (the C++ header mirrors choose() below; the unit test test_nearest_shapes checks
both on the same cases): the kNeighbours calibrated shapes nearest to the call, by
  distance = sqrt(dlog2(M)^2 + dlog2(N)^2 + dlog2(K)^2) + kBetaPenalty [C read or not differs]
             + kLayoutPenalty [B's layout differs],
each weighted 1 / (distance + kDistanceFloor), vote for every entry with their log time over
their own fastest entry; an entry needs measurements on at least half of the neighbours' weight
and must run the call (AutoRule::runs); the smallest weighted mean wins, unless the default
entry (kLarge, 128 x 256) is within kDefaultMargin of it: the default is kept where the data
cannot tell them apart (the sweep's run-to-run spread is about 2%).
Why neighbours rather than a fitted formula: on two 240-shape H100 sweeps the fitted cost model
chose within 2% of the fastest entry on 64% of held-out shapes (geomean 1.065x the fastest),
the neighbours on about 80% (1.02x): benchmark/notes/sweep.md.
"""
import argparse
import collections
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_plot import geomean  # noqa: E402
from sweep_report import percentile  # noqa: E402

ENTRIES = ["kSmallM16", "kSmallM32", "kSmallM64", "kSplit64", "kSplit128", "kTile128", "kStreamK",
           "kStreamK128", "kLarge", "kLarge2x1", "kTile64"]
K_NEIGHBOURS = 8
BETA_PENALTY = 0.5
LAYOUT_PENALTY = 0.3
DISTANCE_FLOOR = 0.25
DEFAULT_MARGIN = 0.04
NOT_MEASURED = -1.0

SHAPE = re.compile(r"^(\d+)x(\d+)x(\d+)_b(\d)_(bn|bt)$")


def load(path):
    """{shape label: {implementation: median seconds}}, and the device name."""
    with open(path) as f:
        d = json.load(f)
    times = collections.defaultdict(dict)
    for b in d.get("benchmarks", []):
        if b.get("aggregate_name", "median") != "median" or b.get("run_type") == "iteration":
            continue
        parts = b["name"].split("/")
        if len(parts) < 3 or not parts[0].startswith("sweep"):
            continue
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ms")]
        times[parts[2]][parts[1]] = b["real_time"] * unit
    return times, d.get("context", {}).get("device", "unknown device")


def features(label):
    m = SHAPE.match(label)
    if not m:
        return None
    M, N, K, beta, b = m.groups()
    return (math.log2(int(M)), math.log2(int(N)), math.log2(int(K)), beta == "1", b == "bt")


def rows_of(times):
    """One row per shape with entry timings: features and per-entry log(time / fastest)."""
    rows = []
    for label in sorted(times):
        f = features(label)
        t = {e: times[label].get("tessera_entry_" + e) for e in ENTRIES}
        measured = [v for v in t.values() if v]
        if f is None or not measured:
            continue
        best = min(measured)
        rows.append((label, f, [math.log(t[e] / best) if t[e] else NOT_MEASURED for e in ENTRIES]))
    return rows


def scores(f, runs, rows):
    """{entry: weighted mean log time over the neighbours' fastest} for every candidate of a call
    with features f among the entries in `runs` (names)."""
    near = []
    for _, g, cost in rows:
        d = math.sqrt((f[0] - g[0]) ** 2 + (f[1] - g[1]) ** 2 + (f[2] - g[2]) ** 2)
        d += BETA_PENALTY * (f[3] != g[3]) + LAYOUT_PENALTY * (f[4] != g[4])
        near.append((d, cost))
    near.sort(key=lambda x: x[0])
    near = near[:K_NEIGHBOURS]
    total = sum(1.0 / (d + DISTANCE_FLOOR) for d, _ in near)
    score, weight = [0.0] * len(ENTRIES), [0.0] * len(ENTRIES)
    for d, cost in near:
        w = 1.0 / (d + DISTANCE_FLOOR)
        for i, c in enumerate(cost):
            if c != NOT_MEASURED:
                score[i] += w * c
                weight[i] += w
    return {e: score[i] / weight[i] for i, e in enumerate(ENTRIES)
            if e in runs and weight[i] >= 0.5 * total and weight[i] > 0}


def choose(f, runs, rows):
    """The entry for a call with features f among the entries in `runs` (names): the smallest
    score (the earlier entry on a tie), or the default within DEFAULT_MARGIN of it."""
    s = scores(f, runs, rows)
    if not s:
        return "kLarge"
    low = min(s.values())
    best = min(ENTRIES.index(e) for e in s if s[e] == low)
    if "kLarge" in s and s["kLarge"] - s[ENTRIES[best]] < DEFAULT_MARGIN:
        return "kLarge"
    return ENTRIES[best]


def write_header(rows, sources, device, out):
    lines = [
        "// GENERATED by scripts/fit_selector_table.py; do not edit (regenerate: see that script's header).",
        "// The data of Auto's default selector (select/nearest_shapes.hpp): shapes of a sweep with every",
        "// entry of Auto's table timed, per entry its log time over the shape's fastest entry (-1: not run).",
        "// Entries in AutoEntry's order: " + ", ".join(ENTRIES) + ".",
        "#pragma once",
        "",
        "namespace tessera::gemm::select {",
        "",
        "struct TimedShape {",
        "  float log2_m, log2_n, log2_k;",
        "  bool reads_c;    // beta != 0",
        "  bool k_major_b;  // B column-major (W[N][K])",
        "  float cost[%d];" % len(ENTRIES),
        "};",
        "",
        "struct TimedTable {",
        '  static constexpr const char* kSource = "%s";' % (
            "%d shapes of %s on the %s" % (len(rows), " and ".join(sources), device)),
        "  static constexpr int kEntries = %d;" % len(ENTRIES),
        "  static constexpr int kNeighbours = %d;" % K_NEIGHBOURS,
        "  static constexpr float kBetaPenalty = %rf, kLayoutPenalty = %rf, kDistanceFloor = %rf, kDefaultMargin = %rf;" % (
            BETA_PENALTY, LAYOUT_PENALTY, DISTANCE_FLOOR, DEFAULT_MARGIN),
        "  static constexpr float kNotMeasured = %rf;" % NOT_MEASURED,
        "  static constexpr int kShapes = %d;" % len(rows),
        "  static constexpr TimedShape kData[kShapes] = {",
    ]
    def literal(x, digits):
        s = "%.*g" % (digits, x)
        return s + ("" if "." in s or "e" in s else ".0") + "f"

    for label, f, cost in rows:
        lines.append("      {%s, %s, %s, %s, %s, {%s}},  // %s" % (
            literal(f[0], 5), literal(f[1], 5), literal(f[2], 5), "true" if f[3] else "false",
            "true" if f[4] else "false", ", ".join(literal(x, 4) for x in cost), label))
    lines += ["  };", "};", "", "}  // namespace tessera::gemm::select", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))


def runs_of(label, times):
    """Entries that ran the shape in the held-out sweep: the ones the C++ code could choose."""
    return {e for e in ENTRIES if times[label].get("tessera_entry_" + e)}


def baseline_report(times, choices):
    """Issue 28's measures on a held-out sweep, against the faster of cuBLAS and cuBLASLt in the
    same run (speed ratio: the baseline's time over ours): the table's choice (`choices`, label ->
    entry, as report() made them; its entry's measured time), the selector as the binary timed
    it (tessera_auto) and the fastest entry."""
    ratios = collections.defaultdict(lambda: collections.defaultdict(list))
    for label, e in choices.items():
        f = features(label)
        base = [times[label][b] for b in ("cublas", "cublaslt") if times[label].get(b)]
        if not base:
            continue
        entry_time = lambda e: times[label]["tessera_entry_" + e]
        candidates = {
            "nearest shapes (this table)": entry_time(e),
            "fastest entry (an oracle)": min(entry_time(x) for x in runs_of(label, times)),
        }
        if times[label].get("tessera_auto"):
            candidates["Auto as timed (the binary's table)"] = times[label]["tessera_auto"]
        for name, t in candidates.items():
            for part in ("all", "beta 1" if f[3] else "beta 0"):
                ratios[name][part].append(min(base) / t)
    if not ratios:
        return
    print()
    print("Against the faster of cuBLAS and cuBLASLt in the same run (its time over ours):")
    print()
    print("| | shapes | geomean beta 0 | geomean beta 1 | p10 | worst |")
    print("|---|---|---|---|---|---|")
    for name, parts in ratios.items():
        xs = parts["all"]
        part = lambda key: "%.3f" % geomean(parts[key]) if parts[key] else "-"
        print("| %s | %d | %s | %s | %.3f | %.3f |" % (
            name, len(xs), part("beta 0"), part("beta 1"), percentile(xs, 10), min(xs)))


def report(rows, path):
    times, device = load(path)
    chosen, rule, default_ratio, rule_default = [], [], [], []
    off, choices = [], {}
    for label in sorted(times):
        f = features(label)
        runs = runs_of(label, times)
        if f is None or not runs:
            continue
        best = min(times[label]["tessera_entry_" + e] for e in runs)
        e = choices[label] = choose(f, runs, rows)
        t = times[label]["tessera_entry_" + e]
        chosen.append(t / best)
        if "tessera_wgmma" in times[label]:
            default_ratio.append((t / times[label]["tessera_wgmma"], label))
        if "tessera_auto" in times[label]:
            rule.append(times[label]["tessera_auto"] / best)
            if "tessera_wgmma" in times[label]:
                rule_default.append(times[label]["tessera_auto"] / times[label]["tessera_wgmma"])
        if t / best > 1.02:
            off.append((t / best, label, e, min(runs, key=lambda x: times[label]["tessera_entry_" + x])))
    if not chosen:
        sys.exit("fit_selector_table.py: %s has no tessera_entry_* medians (run the held-out sweep with --sweep-entries)" % path)
    print("Held-out sweep %s (%s), %d shapes, against the fastest entry of each shape:" % (path, device, len(chosen)))
    print()
    print("| selector | within 2% of the fastest | geomean time / fastest | worst | > 2% slower than the default tile |")
    print("|---|---|---|---|---|")
    print("| nearest shapes (this table) | %d (%.0f%%) | %.3f | %.3f | %d |" % (
        sum(x <= 1.02 for x in chosen), 100.0 * sum(x <= 1.02 for x in chosen) / len(chosen), geomean(chosen),
        max(chosen), sum(x > 1.02 for x, _ in default_ratio)))
    if rule:
        print("| the rule as timed (tessera_auto) | %d (%.0f%%) | %.3f | %.3f | %d |" % (
            sum(x <= 1.02 for x in rule), 100.0 * sum(x <= 1.02 for x in rule) / len(rule), geomean(rule), max(rule),
            sum(x > 1.02 for x in rule_default)))
    baseline_report(times, choices)
    print()
    print("The nearest-shapes choices more than 2%% slower than the fastest entry (%d; the worst 10):" % len(off))
    for r, label, e, b in sorted(off, reverse=True)[:10]:
        print("- %s: %s, %.3fx the fastest (%s)" % (label, e, r, b))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweeps", nargs="+", help="--sweep-entries JSON files of one device")
    ap.add_argument("-o", "--output", help="the header to write")
    ap.add_argument("--report", help="a held-out --sweep-entries JSON to judge the selector on")
    a = ap.parse_args()
    rows, devices, sources = [], set(), []
    for path in a.sweeps:
        times, device = load(path)
        devices.add(device)
        got = rows_of(times)
        if not got:
            sys.exit("fit_selector_table.py: %s has no tessera_entry_* medians (run the sweep with --sweep-entries)" % path)
        rows += got
        sources.append(path.split("/")[-1])
    if len(devices) > 1:
        sys.exit("fit_selector_table.py: sweeps of different devices (%s): one table is one device's" % ", ".join(sorted(devices)))
    if a.output:
        write_header(rows, sources, devices.pop(), a.output)
        print("fit_selector_table.py: %d shapes -> %s" % (len(rows), a.output))
    if a.report:
        report(rows, a.report)
    if not a.output and not a.report:
        ap.error("give -o HEADER, --report HELDOUT.json or both")


if __name__ == "__main__":
    main()
