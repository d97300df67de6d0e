#!/usr/bin/env python3
"""Summarise a tessera_bench Google Benchmark JSON: markdown tables on stdout, one per
group (the benchmark name's first component), under a heading per suite, and one PNG per
group that has Tessera entries beside the JSON (<stem>_<group>.png): each Tessera
implementation's TFLOP/s as a fraction of the faster baseline's, per shape.

Usage: scripts/bench_plot.py RESULTS.json [--no-plot] [--out-dir DIR]

Benchmark names are <group>/<implementation>/<shape>[/...]; the median aggregate of each
counter is used (or the median of the plain runs when the file has no aggregates).
Implementations are read by name:
  tessera*           Tessera's (any name containing "tessera")
  floor              the decode floor: a streaming read of the weights
  naive              the naive kernel (the classic fp32 tables)
  dense_*, plain_*   comparison points: one dense GEMM of the grouped problem's total M;
                     the plain GEMM beside a fused epilogue (dense_tessera, plain_tessera:
                     Tessera's own, counted as Tessera's but also a comparison point)
  anything else      a baseline (cublas, cublaslt, rocblas, cublas_grouped, ...)
Each table has every implementation's TFLOP/s, each Tessera implementation's ratio to the
faster baseline of that shape (and to the best comparison point, where there is one; a
group without Tessera entries shows its best baseline's ratio to the best comparison
point instead; and to each Tessera comparison point, dense_tessera or plain_tessera, where
the group has one: the grouped GEMM against Tessera's dense GEMM of the same rows, the
fused epilogue against Tessera's plain GEMM), and the geometric mean of each ratio column over the shapes where it is
defined. Decode shapes get a second table: the floor's bandwidth of weights, each
implementation's bandwidth of weights and its fraction of the floor's (the JSON's
weights_GB/s and floor_fraction counters). The tables need only the standard library;
the plots need matplotlib and are skipped with a note when it is missing.
"""
import argparse
import json
import math
import os
import statistics
import sys

FLOOR = "floor"
NAIVE = "naive"
COMPARISON_PREFIXES = ("dense_", "plain_")
COUNTERS = ("TFLOP/s", "GB/s", "weights_GB/s", "floor_fraction")

# Suite headings by group name (first match wins).
SUITES = [
    ("llm_", "LLM shapes"),
    ("fp8moe_", "FP8 for mixture of experts (grouped, masked decode, fused bias+GELU, decode split K)"),
    ("fp8_", "FP8 (cuBLASLt e4m3)"),
    ("lowp", "Low precision on AMD (fp8, MXFP8, MXFP4 MFMA vs hipBLASLt)"),
    ("grouped", "Many GEMMs: grouped (mixture of experts)"),
    ("batched", "Many GEMMs: strided-batched"),
    ("epilogue", "Many GEMMs: fused epilogues"),
    ("", "Classic (all row-major)"),
]


def kind(impl):
    if "tessera" in impl:
        return "ours"
    if impl == FLOOR:
        return "floor"
    if impl == NAIVE:
        return "naive"
    if impl.startswith(COMPARISON_PREFIXES):
        return "comparison"
    return "baseline"


def suite_of(group):
    for prefix, title in SUITES:
        if group.startswith(prefix):
            return title
    return SUITES[-1][1]


class Results:
    """Medians per (group, impl, shape, counter), the order things first appear in, errors."""

    def __init__(self, data):
        self.context = data.get("context", {})
        self.groups, self.shapes, self.impls = [], {}, {}
        self.median, self.errors = {}, {}
        plain = {}
        for b in data.get("benchmarks", []):
            parts = b.get("run_name", b.get("name", "")).split("/")
            if len(parts) < 3:
                continue
            group, impl, shape = parts[0], parts[1], parts[2]
            if group not in self.groups:
                self.groups.append(group)
                self.shapes[group], self.impls[group] = [], []
            if shape not in self.shapes[group]:
                self.shapes[group].append(shape)
            if impl not in self.impls[group]:
                self.impls[group].append(impl)
            key = (group, impl, shape)
            if b.get("error_occurred"):
                self.errors.setdefault(key, b.get("error_message", "error"))
                continue
            for counter in COUNTERS:
                value = b.get(counter)
                if value is None:
                    continue
                if b.get("run_type") == "aggregate":
                    if b.get("aggregate_name") == "median":
                        self.median[key + (counter,)] = float(value)
                else:
                    plain.setdefault(key + (counter,), []).append(float(value))
        for key, values in plain.items():
            self.median.setdefault(key, statistics.median(values))
        for key in list(self.errors):  # a success in any repetition outweighs a skipped one
            if any(key + (c,) in self.median for c in COUNTERS):
                del self.errors[key]

    def get(self, group, impl, shape, counter="TFLOP/s"):
        return self.median.get((group, impl, shape, counter))

    def of_kind(self, group, k):
        return [i for i in self.impls[group] if kind(i) == k]


def fmt(x, digits=1):
    return "—" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def best(r, group, impls, shape):
    values = [v for v in (r.get(group, i, shape) for i in impls) if v is not None]
    return max(values) if values else None


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def ratio_columns(r, group):
    """[(title, {shape: ratio})] for the table's ratio columns."""
    ours, baselines = r.of_kind(group, "ours"), r.of_kind(group, "baseline")
    comparisons = r.of_kind(group, "comparison")
    columns = []
    subjects = ours if ours else (["best baseline"] if baselines and comparisons else [])
    for subject in subjects:
        def value(shape, s=subject):
            if s == "best baseline":
                return best(r, group, baselines, shape)
            return r.get(group, s, shape)
        if ours and baselines:
            columns.append((f"{subject} ÷ best baseline",
                            {s: ratio(value(s), best(r, group, baselines, s)) for s in r.shapes[group]}))
        if comparisons:
            columns.append((f"{subject} ÷ best {'/'.join(comparisons)}",
                            {s: ratio(value(s), best(r, group, comparisons, s)) for s in r.shapes[group]}))
    # Tessera's own comparison points (dense_tessera, plain_tessera): every other Tessera
    # implementation's ratio to each.
    own_points = [i for i in ours if i.startswith(COMPARISON_PREFIXES)]
    for subject in [i for i in ours if i not in own_points]:
        for point in own_points:
            columns.append((f"{subject} ÷ {point}",
                            {s: ratio(r.get(group, subject, s), r.get(group, point, s)) for s in r.shapes[group]}))
    if NAIVE in r.impls[group]:
        for subject in ours:
            columns.append((f"{subject} ÷ naive",
                            {s: ratio(r.get(group, subject, s), r.get(group, NAIVE, s)) for s in r.shapes[group]}))
    return columns


def table(r, group):
    impls = [i for i in r.impls[group] if kind(i) != "floor"]
    impls.sort(key=lambda i: ["ours", "baseline", "comparison", "naive"].index(kind(i)))
    columns = ratio_columns(r, group)
    head = ["shape"] + [f"{i} TFLOP/s" for i in impls] + [title for title, _ in columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    shapes = [s for s in r.shapes[group] if any(r.get(group, i, s) is not None or (group, i, s) in r.errors
                                                 for i in impls)]
    for s in shapes:
        row = [s] + [fmt(r.get(group, i, s)) for i in impls] + [fmt(values.get(s), 2) for _, values in columns]
        lines.append("| " + " | ".join(row) + " |")
    if columns:
        row = ["geomean"] + [""] * len(impls) + [fmt(geomean([v.get(s) for s in shapes]), 2) for _, v in columns]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def decode_table(r, group):
    """The decode shapes: the floor, and each implementation's share of it."""
    shapes = [s for s in r.shapes[group]
              if r.get(group, FLOOR, s, "GB/s") is not None or (group, FLOOR, s) in r.errors
              or any(r.get(group, i, s, "floor_fraction") is not None for i in r.impls[group])]
    if not shapes:
        return None
    impls = [i for i in r.impls[group] if kind(i) in ("ours", "baseline")]
    head = ["decode shape", "floor GB/s of weights"]
    for i in impls:
        head += [f"{i} GB/s", f"{i} ÷ floor"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in shapes:
        row = [s, fmt(r.get(group, FLOOR, s, "GB/s"), 0)]
        for i in impls:
            row += [fmt(r.get(group, i, s, "weights_GB/s"), 0), fmt(r.get(group, i, s, "floor_fraction"), 2)]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def errors_of(r, group):
    return [f"- `{g}/{i}/{s}` skipped: {msg}" for (g, i, s), msg in r.errors.items() if g == group]


def plot(r, group, title, out_png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ours, baselines = r.of_kind(group, "ours"), r.of_kind(group, "baseline")
    shapes = r.shapes[group]
    width = 0.8 / max(len(ours), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.55 * len(shapes) + 2), 4.5))
    top = 1.1
    for n, impl in enumerate(ours):
        xs, ys = [], []
        for k, s in enumerate(shapes):
            x = k + (n - (len(ours) - 1) / 2) * width
            v = ratio(r.get(group, impl, s), best(r, group, baselines, s))
            if v is not None:
                xs.append(x)
                ys.append(v)
            elif (group, impl, s) in r.errors:  # say why a bar is missing rather than leave a gap
                ax.annotate("skipped", (x, 0.02), ha="center", va="bottom", fontsize=7, rotation=90,
                            color="tab:red")
        ax.bar(xs, ys, width, label=f"{impl} / best baseline")
        for x, y in zip(xs, ys):
            ax.annotate(f"{y:.2f}", (x, y), ha="center", va="bottom", fontsize=6)
        top = max([top] + [y * 1.12 for y in ys])
    ax.axhline(1.0, color="black", linewidth=1.0)
    ax.axhline(0.95, color="tab:red", linewidth=1.0, linestyle="--", label="0.95")
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels(shapes, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel(f"TFLOP/s relative to the faster of {', '.join(baselines)}")
    ax.set_ylim(0, top + 0.2)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left", ncol=len(ours) + 1)
    fig.tight_layout()
    fig.savefig(out_png, dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="Google Benchmark JSON written by tessera_bench")
    ap.add_argument("--no-plot", action="store_true", help="print the tables only")
    ap.add_argument("--out-dir", help="where the PNGs go (default: beside the JSON)")
    args = ap.parse_args()

    with open(args.json) as f:
        r = Results(json.load(f))
    device = r.context.get("device", r.context.get("host_name", "unknown device"))
    date = str(r.context.get("date", ""))[:10]
    flush = r.context.get("l2_flush", "")
    print(f"### {device}, {date}" + (f" (L2 flush: {flush})" if flush else ""))
    suite = None
    for group in r.groups:
        if suite_of(group) != suite:
            suite = suite_of(group)
            print(f"\n## {suite}")
        print(f"\n**{group}** (median TFLOP/s)\n")
        print(table(r, group))
        decode = decode_table(r, group)
        if decode:
            print(f"\n**{group}**, decode: weights read per second (median GB/s) and the fraction of the floor's\n")
            print(decode)
        notes = errors_of(r, group)
        if notes:
            print("\n" + "\n".join(notes))

    if args.no_plot:
        return 0
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("\n(bench_plot: matplotlib not available; no plots written)", file=sys.stderr)
        return 0
    out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.json))
    stem = os.path.splitext(os.path.basename(args.json))[0]
    hot = " (hot L2)" if flush.startswith("off") else ""
    for group in r.groups:
        if not (r.of_kind(group, "ours") and r.of_kind(group, "baseline")):
            continue
        png = os.path.join(out_dir, f"{stem}_{group}.png")
        plot(r, group, f"{device}, {date}: {group}{hot}", png)
        print(f"wrote {png}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
