#!/usr/bin/env python3
"""Summarise a sweep (tessera_bench --suite=sweep, benchmark/suite_sweep.hpp): for each Tessera
implementation (tessera_auto, tessera_auto_model, tessera_wgmma, tessera_entry_*), its speed as a
ratio to the faster of cublas and cublaslt on each shape, then

  geomean over all shapes, beta 0 and beta 1; p10 (the 10th percentile); the worst shape;
  geomean per size bucket (2 M N K: below 1 GFLOP, 1-10, 10-100, 100-1000, above);
  Auto against the default tile: shapes where tessera_auto is slower than tessera_wgmma by
  more than 2% (and the cost model's the same way);
  a PNG of ratio against GFLOP (log scale) beside the JSON, when matplotlib is there.

Usage: scripts/sweep_report.py SWEEP.json [--no-plot] [--out PNG]
Medians are read as bench_plot.py reads them (its Results class). A shape where an
implementation was skipped (a failed check, a refused shape) has no ratio for it and is
listed at the end.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_plot import Results, geomean  # noqa: E402

BASELINES = ("cublas", "cublaslt")
BUCKETS = [(0, 1), (1, 10), (10, 100), (100, 1000), (1000, math.inf)]


def parse_label(label):
    """'MxNxK_b1_bn' -> (M, N, K, beta1, b_row_major)."""
    dims, beta, b = label.split("_")
    m, n, k = (int(x) for x in dims.split("x"))
    return m, n, k, beta == "b1", b == "bn"


def percentile(values, p):
    v = sorted(values)
    if not v:
        return None
    at = (len(v) - 1) * p / 100.0
    lo, hi = math.floor(at), math.ceil(at)
    return v[lo] + (v[hi] - v[lo]) * (at - lo)


def fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}f}"


def report(r, group):
    shapes = r.shapes[group]
    ours = [i for i in r.impls[group] if "tessera" in i]
    base = {s: max([v for v in (r.get(group, b, s) for b in BASELINES) if v is not None], default=None) for s in shapes}
    ratios = {i: {s: r.get(group, i, s) / base[s] for s in shapes if r.get(group, i, s) is not None and base[s]}
              for i in ours}
    out = [f"## {group}: {len(shapes)} shapes, ratio = TFLOP/s / the faster of {' and '.join(BASELINES)}", ""]
    out.append("| implementation | shapes | geomean | beta 0 | beta 1 | p10 | worst (shape) |")
    out.append("|---|---|---|---|---|---|---|")
    for i in ours:
        rs = ratios[i]
        if not rs:
            out.append(f"| {i} | 0 | — | — | — | — | — |")
            continue
        b0 = [v for s, v in rs.items() if not parse_label(s)[3]]
        b1 = [v for s, v in rs.items() if parse_label(s)[3]]
        worst = min(rs, key=rs.get)
        out.append(f"| {i} | {len(rs)} | {fmt(geomean(rs.values()))} | {fmt(geomean(b0))} | {fmt(geomean(b1))} | "
                   f"{fmt(percentile(list(rs.values()), 10))} | {fmt(rs[worst])} ({worst}) |")
    out += ["", "Geomean by size (GFLOP = 2 M N K / 1e9):", ""]
    out.append("| implementation | " + " | ".join(f"{lo}-{hi} GFLOP" for lo, hi in BUCKETS) + " |")
    out.append("|---|" + "---|" * len(BUCKETS))
    for i in ours:
        cells = []
        for lo, hi in BUCKETS:
            vs = [v for s, v in ratios[i].items() if lo <= gflop(s) < hi]
            cells.append(f"{fmt(geomean(vs))} ({len(vs)})")
        out.append(f"| {i} | " + " | ".join(cells) + " |")
    for selector in ("tessera_auto", "tessera_auto_model"):
        if selector not in ratios or "tessera_wgmma" not in ratios:
            continue
        a, d = ratios[selector], ratios["tessera_wgmma"]
        both = [s for s in a if s in d]
        slower = sorted((s for s in both if a[s] < 0.98 * d[s]), key=lambda s: a[s] / d[s])
        out += ["", f"{selector} against tessera_wgmma (the default tile): slower by more than 2% on "
                    f"{len(slower)} of {len(both)} shapes; geomean {selector} / default "
                    f"{fmt(geomean([a[s] / d[s] for s in both]))}"]
        for s in slower[:15]:
            out.append(f"- {s}: {fmt(a[s] / d[s])}")
    missing = [(i, s, r.errors.get((group, i, s), "no median")) for i in ours for s in shapes if s not in ratios[i]]
    if missing:
        out += ["", f"Not timed ({len(missing)}):"]
        out += [f"- {i} {s}: {e}" for i, s, e in missing[:40]]
    return "\n".join(out), ratios


def gflop(label):
    m, n, k, _, _ = parse_label(label)
    return 2.0 * m * n * k / 1e9


def plot(ratios, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no plot: matplotlib is not installed)", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(9, 5))
    for i in ("tessera_auto", "tessera_auto_model", "tessera_wgmma"):
        if i in ratios and ratios[i]:
            xs = [gflop(s) for s in ratios[i]]
            ax.scatter(xs, list(ratios[i].values()), s=10, label=i)
    ax.set_xscale("log")
    ax.axhline(1.0, color="gray", linewidth=0.8)
    ax.set_xlabel("GFLOP (2 M N K / 1e9)")
    ax.set_ylabel("TFLOP/s / faster baseline")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"plot: {png}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--out", help="PNG path (default: beside the JSON)")
    args = ap.parse_args()
    import json
    with open(args.json) as f:
        r = Results(json.load(f))
    groups = [g for g in r.groups if g.startswith("sweep_")]
    if not groups:
        sys.exit("sweep_report.py: no sweep_* benchmarks in " + args.json)
    for g in groups:
        text, ratios = report(r, g)
        print(text + "\n")
        if not args.no_plot:
            png = args.out or os.path.splitext(args.json)[0] + f"_{g}.png"
            plot(ratios, png)


if __name__ == "__main__":
    main()
