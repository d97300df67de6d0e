#!/usr/bin/env python3
"""Summarise a sweep (tessera_bench --suite=sweep, benchmark/suite_sweep.hpp): for each Tessera
implementation (tessera_auto, tessera_auto_model, tessera_tuned, tessera_wgmma, tessera_entry_*),
its speed as a ratio to the faster of cublas and cublaslt on each shape, then

  geomean over all shapes, beta 0 and beta 1; p10 (the 10th percentile); the worst shape;
  geomean per size bucket (2 M N K: below 1 GFLOP, 1-10, 10-100, 100-1000, above);
  against the default tile (tessera_wgmma), per implementation but the entries: the count of
  shapes where it is slower by more than 2%, the geomean, p10 and worst of its speed over the
  default's, and the worst shapes;
  the tuned mode's choices (from tessera_tuned's labels, "tuned=<entry> candidates=<...>"):
  how often it kept the selector's own entry, the entries it chose, and tessera_tuned against
  tessera_auto (the rule it tunes) shape by shape;
  a PNG of ratio against GFLOP (log scale) beside the JSON, when matplotlib is there.
Markdown, for benchmark/notes.

With --against BEFORE.json (an A/B: the same shapes run by another build, e.g. main's binary
then a branch's on the same machine), a section per implementation in both: its speed here over
its speed there, shape by shape (geomean, the shapes that moved by more than 3%), beside the
same for its ratio to the faster baseline, and the baselines' own drift between the two runs
(what the speed change cannot be told apart from).

Usage: scripts/sweep_report.py SWEEP.json [--no-plot] [--out PNG] [--against BEFORE.json]
Medians are read as bench_plot.py reads them (its Results class). A shape where an
implementation was skipped (a failed check, a refused shape) has no ratio for it and is
listed at the end.
"""
import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_plot import Results, best, geomean  # noqa: E402

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


def report(r, group, labels=None):
    shapes = r.shapes[group]
    ours = [i for i in r.impls[group] if "tessera" in i]
    base = {s: best(r, group, BASELINES, s) for s in shapes}
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
    compared = [i for i in ours if i != "tessera_wgmma" and not i.startswith("tessera_entry_")]
    if "tessera_wgmma" in ratios and compared:
        d = ratios["tessera_wgmma"]
        out += ["", "Against tessera_wgmma (the default tile): speed / the default's on the shapes both ran", "",
                "| implementation | slower by > 2% | geomean | p10 | worst (shape) |", "|---|---|---|---|---|"]
        details = []
        for i in compared:
            a = ratios[i]
            vs = {s: a[s] / d[s] for s in a if s in d}
            if not vs:
                continue
            slower = sorted((s for s in vs if vs[s] < 0.98), key=vs.get)
            worst = min(vs, key=vs.get)
            out.append(f"| {i} | {len(slower)} of {len(vs)} | {fmt(geomean(vs.values()))} | "
                       f"{fmt(percentile(list(vs.values()), 10))} | {fmt(vs[worst])} ({worst}) |")
            details += ["", f"{i} against tessera_wgmma (the default tile): slower by more than 2% on "
                            f"{len(slower)} of {len(vs)} shapes; geomean {i} / default {fmt(geomean(vs.values()))}"]
            details += [f"- {s}: {fmt(vs[s])}" for s in slower[:10]]
        out += details
    if labels:
        out += tuned_section(ratios, labels)
    missing = [(i, s, r.errors.get((group, i, s), "no median")) for i in ours for s in shapes if s not in ratios[i]]
    if missing:
        out += ["", f"Not timed ({len(missing)}):"]
        out += [f"- {i} {s}: {e}" for i, s, e in missing[:40]]
    return "\n".join(out), ratios


def against(r, before, group):
    """The A/B section: r (after) against before (a Results of the same group)."""
    if group not in before.shapes:
        return f"## {group} against the other run: not in it"
    both = [s for s in r.shapes[group] if s in before.shapes[group]]
    def here_over_there(impls):
        """{shape: the best of impls here / there} where both ran."""
        pairs = {s: (best(r, group, impls, s), best(before, group, impls, s)) for s in both}
        return {s: a / b for s, (a, b) in pairs.items() if a and b}
    out = [f"## {group}: this run against the other, {len(both)} shapes in both", ""]
    drift = here_over_there(BASELINES)
    out.append(f"The faster baseline's own drift (here / there): geomean {fmt(geomean(drift.values()))}, "
               f"range {fmt(min(drift.values(), default=None))} to {fmt(max(drift.values(), default=None))}")
    out += ["", "| implementation | shapes | speed here / there | its ratio to the baseline, here / there | "
            "faster by > 3% | slower by > 3% |", "|---|---|---|---|---|---|"]
    moves = []
    for i in (i for i in r.impls[group] if "tessera" in i and i in before.impls[group]):
        sp = here_over_there([i])
        if not sp:
            continue
        rel = {s: sp[s] / drift[s] for s in sp if s in drift}
        up = sorted((s for s in sp if sp[s] > 1.03), key=lambda s: -sp[s])
        down = sorted((s for s in sp if sp[s] < 1 / 1.03), key=sp.get)
        out.append(f"| {i} | {len(sp)} | {fmt(geomean(sp.values()))} | {fmt(geomean(rel.values()))} | {len(up)} | "
                   f"{len(down)} |")
        moves += [f"- {i} {s}: {fmt(sp[s])}" for s in up + down]
    if moves:
        out += ["", "Shapes that moved by more than 3% (speed here / there):"] + moves
    return "\n".join(out)


def tuned_choices(labels):
    """{shape: (chosen entry, [candidates, the selector's own first])} from tessera_tuned's labels."""
    out = {}
    for shape, label in labels.items():
        m = re.search(r"tuned=(\w+)(?: candidates=([\w,?]*))?", label)
        if m:
            out[shape] = (m.group(1), [c for c in (m.group(2) or "").split(",") if c])
    return out


def tuned_section(ratios, labels):
    choices = tuned_choices(labels)
    if not choices:
        return []
    kept = sum(1 for c, cands in choices.values() if cands and c == cands[0])
    counts = {}
    for c, _ in choices.values():
        counts[c] = counts.get(c, 0) + 1
    out = ["", f"tessera_tuned's choices ({len(choices)} shapes): the selector's own entry kept on {kept}; chosen: " +
           ", ".join(f"{e} {n}" for e, n in sorted(counts.items(), key=lambda x: -x[1]))]
    t, a = ratios.get("tessera_tuned", {}), ratios.get("tessera_auto", {})
    vs = {s: t[s] / a[s] for s in t if s in a}
    if vs:
        slower = sorted((s for s in vs if vs[s] < 0.98), key=vs.get)
        faster = [s for s in vs if vs[s] > 1.02]
        out.append(f"tessera_tuned against tessera_auto: geomean {fmt(geomean(vs.values()))}; faster by more than 2% "
                   f"on {len(faster)} of {len(vs)} shapes, slower by more than 2% on {len(slower)}")
        for s in slower[:10]:
            c = choices.get(s)
            out.append(f"- {s}: {fmt(vs[s])}" + (f" (tuned {c[0]}, candidates {','.join(c[1])})" if c else ""))
    return out


def read_labels(data, group, impl="tessera_tuned"):
    """{shape: label} of one implementation's medians (or plain runs) in a Google Benchmark JSON."""
    out = {}
    for b in data.get("benchmarks", []):
        parts = b.get("run_name", b.get("name", "")).split("/")
        if len(parts) >= 3 and parts[0] == group and parts[1] == impl and b.get("label"):
            out.setdefault(parts[2], b["label"])
    return out


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
    for i in ("tessera_auto", "tessera_auto_model", "tessera_tuned", "tessera_wgmma"):
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
    ap.add_argument("--against", help="another run of the same shapes (an A/B): each implementation's change")
    args = ap.parse_args()
    with open(args.json) as f:
        data = json.load(f)
    r = Results(data)
    before = None
    if args.against:
        with open(args.against) as f:
            before = Results(json.load(f))
    groups = [g for g in r.groups if g.startswith("sweep_")]
    if not groups:
        sys.exit("sweep_report.py: no sweep_* benchmarks in " + args.json)
    for g in groups:
        text, ratios = report(r, g, read_labels(data, g))
        print(text + "\n")
        if before is not None:
            print(against(r, before, g) + "\n")
        if not args.no_plot:
            png = args.out or os.path.splitext(args.json)[0] + f"_{g}.png"
            plot(ratios, png)


if __name__ == "__main__":
    main()
