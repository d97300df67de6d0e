#!/usr/bin/env python3
"""Summarise a tessera_bench Google Benchmark JSON: a markdown table on stdout and one
PNG per element type beside the JSON (<stem>_<type>.png) with each implementation's
TFLOP/s as a fraction of cuBLAS's, per shape.

Usage: scripts/bench_plot.py RESULTS.json [--no-plot] [--out-dir DIR]

Benchmark names are <type>/<implementation>/<M>x<N>x<K>[/...]; the median aggregate of
each is used (or the median of the plain runs when the file has no aggregates). The
table needs only the standard library; the plots need matplotlib and are skipped with
a note when it is missing.
"""
import argparse
import json
import os
import statistics
import sys

BASELINE = "cublas"
NAIVE = "naive"


def parse(path):
    """Returns (context, types, shapes_by_type, impls_by_type, tflops, errors)."""
    with open(path) as f:
        data = json.load(f)
    context = data.get("context", {})
    types, shapes, impls = [], {}, {}
    medians, plain, errors = {}, {}, {}
    for b in data.get("benchmarks", []):
        parts = b.get("run_name", b.get("name", "")).split("/")
        if len(parts) < 3:
            continue
        typ, impl, shape = parts[0], parts[1], parts[2]
        if typ not in types:
            types.append(typ)
            shapes[typ], impls[typ] = [], []
        if shape not in shapes[typ]:
            shapes[typ].append(shape)
        if impl not in impls[typ]:
            impls[typ].append(impl)
        key = (typ, impl, shape)
        if b.get("error_occurred"):
            errors.setdefault(key, b.get("error_message", "error"))
            continue
        value = b.get("TFLOP/s")
        if value is None:
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = float(value)
        else:
            plain.setdefault(key, []).append(float(value))
    for key, values in plain.items():
        medians.setdefault(key, statistics.median(values))
    for key in medians:  # a success in any repetition outweighs a skipped one
        errors.pop(key, None)
    return context, types, shapes, impls, medians, errors


def ordered_impls(impls):
    """Tessera implementations first, then cuBLAS, then the naive kernel."""
    rank = {BASELINE: 1, NAIVE: 2}
    return sorted(impls, key=lambda i: (rank.get(i, 0), impls.index(i)))


def fmt(x, digits=1):
    return "—" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def table(typ, shapes, impls, tflops, errors):
    ours = [i for i in ordered_impls(impls) if i not in (BASELINE, NAIVE)]
    has_naive = NAIVE in impls
    head = ["shape"] + [f"{i} TFLOP/s" for i in ours] + ["cuBLAS TFLOP/s"]
    head += [f"{i} / cuBLAS" for i in ours]
    if has_naive:
        head += ["naive TFLOP/s"] + [f"{i} / naive" for i in ours]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in shapes:
        get = lambda impl: tflops.get((typ, impl, s))
        base = get(BASELINE)
        row = [s] + [fmt(get(i)) for i in ours] + [fmt(base)]
        row += [fmt(ratio(get(i), base), 2) for i in ours]
        if has_naive:
            naive = get(NAIVE)
            row += [fmt(naive)] + [fmt(ratio(get(i), naive), 1) for i in ours]
        lines.append("| " + " | ".join(row) + " |")
    notes = [f"- `{t}/{i}/{s}` skipped: {msg}" for (t, i, s), msg in errors.items() if t == typ]
    return "\n".join(lines + ([""] + notes if notes else []))


def plot(typ, shapes, impls, tflops, errors, title, out_png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [i for i in ordered_impls(impls) if i != BASELINE]
    width = 0.8 / max(len(series), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(shapes) + 2), 4.5))
    top = 1.1
    for n, impl in enumerate(series):
        xs, ys = [], []
        for k, s in enumerate(shapes):
            r = ratio(tflops.get((typ, impl, s)), tflops.get((typ, BASELINE, s)))
            if r is not None:
                xs.append(k + (n - (len(series) - 1) / 2) * width)
                ys.append(r)
        ax.bar(xs, ys, width, label=f"{impl} / cuBLAS")
        for x, y in zip(xs, ys):
            ax.annotate(f"{y:.2f}", (x, y), ha="center", va="bottom", fontsize=7)
        top = max([top] + [y * 1.12 for y in ys])
        for k, s in enumerate(shapes):  # say why a bar is missing rather than leave a gap
            if (typ, impl, s) in errors:
                x = k + (n - (len(series) - 1) / 2) * width
                ax.annotate("skipped", (x, 0.02), ha="center", va="bottom", fontsize=7,
                            rotation=90, color="tab:red")
    ax.axhline(1.0, color="black", linewidth=1.0)
    ax.axhline(0.9, color="tab:red", linewidth=1.0, linestyle="--", label="0.9")
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels(shapes, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("TFLOP/s relative to cuBLAS")
    ax.set_ylim(0, top + 0.2)  # a band above the bars for the legend
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left", ncol=len(series) + 1)
    fig.tight_layout()
    fig.savefig(out_png, dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="Google Benchmark JSON written by tessera_bench")
    ap.add_argument("--no-plot", action="store_true", help="print the table only")
    ap.add_argument("--out-dir", help="where the PNGs go (default: beside the JSON)")
    args = ap.parse_args()

    context, types, shapes, impls, tflops, errors = parse(args.json)
    device = context.get("device", context.get("host_name", "unknown device"))
    date = str(context.get("date", ""))[:10]
    flush = context.get("l2_flush", "")
    print(f"### {device}, {date}" + (f" (L2 flush: {flush})" if flush else ""))
    for typ in types:
        print(f"\n**{typ}** (median TFLOP/s)\n")
        print(table(typ, shapes[typ], impls[typ], tflops, errors))

    if args.no_plot:
        return 0
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("\n(bench_plot: matplotlib not available; no plots written)", file=sys.stderr)
        return 0
    out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.json))
    stem = os.path.splitext(os.path.basename(args.json))[0]
    for typ in types:
        if BASELINE not in impls[typ]:
            continue
        png = os.path.join(out_dir, f"{stem}_{typ}.png")
        hot = " (hot L2)" if flush.startswith("off") else ""
        plot(typ, shapes[typ], impls[typ], tflops, errors, f"{device}, {date}: {typ}{hot}", png)
        print(f"wrote {png}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
