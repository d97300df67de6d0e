#!/usr/bin/env python3
"""Writes include/tessera/gemm/select/cost_table.hpp, the constants of the Auto cost model
(include/tessera/gemm/select/cost_model.hpp).

  fit_cost_model.py --first-principles -o include/tessera/gemm/select/cost_table.hpp
      the table derived from the device's published and noted facts (below), no timing;
  fit_cost_model.py SWEEP.json [SWEEP2.json ...] -o include/tessera/gemm/select/cost_table.hpp
      the table fitted to a sweep: `tessera_bench --suite=sweep --sweep-entries
      --benchmark_out=SWEEP.json --benchmark_out_format=json` times every entry of Auto's table
      that takes each shape, and writes the model's own counts for each (context key
      sweep_model/<shape>: per entry the FLOP one SM computes on the critical path, the DRAM
      bytes and the predicted fix-up seconds), so that this script needs no copy of the model;
  fit_cost_model.py SWEEP.json [-o HEADER] --report HELDOUT.json
  fit_cost_model.py --first-principles --report HELDOUT.json
  fit_cost_model.py --table include/tessera/gemm/select/cost_table.hpp --report HELDOUT.json
      how well a table (fitted here, first principles, or a generated header) predicts the
      fastest entry of each shape of another --sweep-entries run (a held-out seed): the share of
      shapes where the model's choice, among the entries that ran the shape, is within 2% of the
      best entry's time, the geomean of chosen / best time, the worst shapes; beside it the
      first-principles table for the held-out device and the selectors the sweep timed
      (tessera_auto, tessera_auto_model, tessera_tuned) against the same best entry. Markdown.

The sweeps may come from an H100 or an H200: the device facts below (SM count, clock, copy
rate) are taken from the JSON's context when it has them (sm_count or sweep_sms,
sm_clock_max_mhz, and the copy rate scaled by mem_clock_max_mhz x mem_bus_bits against the
H200's 3201 MHz x 6016 bits); the sweeps given to one fit must come from one device name.

The fit, per entry: on the shapes the model calls compute-bound, time - fix-up = fixed +
work / rate (least squares for fixed and 1 / rate); then one bandwidth for all entries from the
memory-bound shapes (time - fix-up - fixed = bytes / bandwidth); three rounds, as the split
between compute- and memory-bound follows the constants. An entry with fewer than 3 points
keeps its first-principles constants. The fix-up rates stay first-principles.

First principles (H200 unless a sweep's context names the device's facts, as above;
benchmark/notes/fma.md: 132 SMs, 1980 MHz observed; a device-to-device copy measured at
4.24 TB/s):
  peak        132 SMs x 4096 dense 16-bit tensor FLOP per clock per SM (Hopper's wgmma rate:
              the H100 SXM's published 989 TFLOP/s dense bf16 at 1830 MHz over 132 SMs, noted in
              benchmark/notes/grouped.md) x 1.98 GHz
  per entry   the peak times the share shared memory can carry: per k16 step an m x n tile's
              TMA copies write (m + n) x 32 bytes of A and B, and its m / 64 consumer
              warpgroups read 32 m bytes of A and m / 64 x 32 n bytes of B, in the m n / 128
              clocks the tensor cores take, against 128 bytes per clock per SM of shared memory
              (32 banks x 4 bytes; benchmark/notes/fp8.md meets that limit): for m = 128,
              min(1, 128 / (8192 / n + 96)); for the 64 x 128 Pingpong tile (one warpgroup per
              tile) 128 / 192 of the peak; a 2 x 1 cluster's multicast does not change what each
              SM's shared memory carries
  bandwidth   the copy rate above, for every DRAM byte
  DSMEM       the same 128 bytes per clock per SM for a cluster's partial sums, and for the
              stream-K tile owner's reads of its sharers' partial tiles
  fixed       0 (no launch or ramp cost is assumed before one is measured)
The fix-up seconds in a sweep's counts were computed with the DSMEM and bandwidth constants of
the table tessera_bench was built with; the fit and the report take them as they are.
"""
import argparse
import functools
import json
import math
import re
import sys

# The order of AutoEntry (include/tessera/gemm/select/auto_rule.hpp); the header's
# static_assert in cost_model.hpp checks the count.
ENTRIES = ["kSmallM16", "kSmallM32", "kSmallM64", "kSplit64", "kSplit128", "kTile128", "kStreamK",
           "kStreamK128", "kLarge", "kLarge2x1", "kTile64"]
TILE_N = {"kSmallM16": 16, "kSmallM32": 32, "kSmallM64": 64, "kSplit64": 64, "kSplit128": 128,
          "kTile128": 128, "kStreamK": 256, "kStreamK128": 128, "kLarge": 256, "kLarge2x1": 256,
          "kTile64": 128}
TILE_M = {e: 64 if e == "kTile64" else 128 for e in ENTRIES}

SMS = 132
CLOCK_GHZ = 1.98
FLOP_PER_CLOCK_PER_SM = 4096
SMEM_BYTES_PER_CLOCK = 128
COPY_GBS = 4240.0
# The H200's DRAM interface as cudaDeviceProp reports it (tessera_bench's context), against
# which another device's copy rate is scaled.
H200_MEM_MHZ, H200_MEM_BITS = 3201.0, 6016.0
H200 = {"name": "H200", "sms": SMS, "clock_ghz": CLOCK_GHZ, "copy_gbs": COPY_GBS}


def device_facts(ctx):
    """The first-principles facts of the device a sweep ran on, from its JSON context (what
    tessera_bench writes: device, sm_count, sm_clock_max_mhz, mem_clock_max_mhz, mem_bus_bits);
    the H200's constants where the context says nothing."""
    f = dict(H200)
    if not ctx:
        return f
    if ctx.get("device"):
        f["name"] = ctx["device"]
    if ctx.get("sm_count") or ctx.get("sweep_sms"):
        f["sms"] = int(ctx.get("sm_count") or ctx.get("sweep_sms"))
    if ctx.get("sm_clock_max_mhz"):
        f["clock_ghz"] = float(ctx["sm_clock_max_mhz"]) / 1000.0
    if ctx.get("mem_clock_max_mhz") and ctx.get("mem_bus_bits"):
        f["copy_gbs"] = COPY_GBS * float(ctx["mem_clock_max_mhz"]) * float(ctx["mem_bus_bits"]) / (
            H200_MEM_MHZ * H200_MEM_BITS)
    return f


def first_principles(facts=None):
    f = facts or H200
    peak = f["sms"] * FLOP_PER_CLOCK_PER_SM * f["clock_ghz"] * 1e9 / 1e12
    tflops = {}
    for e in ENTRIES:
        m, n = TILE_M[e], TILE_N[e]
        # Bytes per clock an m x n tile moves through shared memory (the docstring's count).
        need = (32.0 * (m + n) + 32.0 * m + m / 64.0 * 32.0 * n) / (m * n / 128.0)
        tflops[e] = peak * min(1.0, SMEM_BYTES_PER_CLOCK / need)
    source = ("first principles (scripts/fit_cost_model.py: H200 facts, no timing)" if facts is None else
              f"first principles (scripts/fit_cost_model.py: {f['name']} facts from a sweep's context, no timing)")
    return {
        "source": source,
        "sms": f["sms"],
        "peak_tflops": peak,
        "bandwidth_gbs": f["copy_gbs"],
        "dsmem_gbs_per_sm": SMEM_BYTES_PER_CLOCK * f["clock_ghz"],
        "tflops": tflops,
        "fixed_us": {e: 0.0 for e in ENTRIES},
    }


def seconds(b):
    t = b["real_time"]
    unit = b.get("time_unit", "ns")
    return t * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


class Sweep:
    """One sweep JSON: its context, the model's counts per (shape, entry), the median seconds
    per (shape, implementation) (tessera_entry_<e> as <e>), in the order shapes first appear."""

    def __init__(self, path):
        with open(path) as f:
            doc = json.load(f)
        self.path = path
        self.context = doc.get("context", {})
        self.model, self.seconds, self.shapes = {}, {}, []
        for key, value in self.context.items():
            if not key.startswith("sweep_model/"):
                continue
            shape = key[len("sweep_model/"):]
            for item in value.split(";"):
                if not item:
                    continue
                name, nums = item.split("=")
                work, nbytes, fixup = (float(x) for x in nums.split(","))
                self.model[(shape, name)] = (work, nbytes, fixup)
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            if b.get("error_occurred") or "real_time" not in b:
                continue
            # sweep_bf16/<impl>/<shape>[/iterations:N/repeats:R/manual_time]
            parts = b.get("run_name", b["name"]).split("/")
            if len(parts) < 3:
                continue
            impl, shape = parts[1], parts[2]
            if impl.startswith("tessera_entry_"):
                impl = impl[len("tessera_entry_"):]
            self.seconds[(shape, impl)] = seconds(b)
            if shape not in self.shapes:
                self.shapes.append(shape)

    def device(self):
        return self.context.get("device")

    def entry_points(self):
        """(entry, work FLOP, bytes, fix-up s, time s) for every entry timed with model counts."""
        return [(e,) + self.model[(shape, e)] + (self.seconds[(shape, e)],)
                for shape in self.shapes for e in ENTRIES
                if (shape, e) in self.seconds and (shape, e) in self.model]


def sweep_points(paths):
    """The entry points of all the sweeps, the SM count and the device facts (from the first
    sweep's context; the sweeps must name one device)."""
    points, sms, facts, device = [], None, None, None
    for path in paths:
        sw = Sweep(path)
        if sw.device() and device and sw.device() != device:
            sys.exit(f"fit_cost_model.py: {path} is from {sw.device()}, an earlier sweep from {device}: "
                     "fit one device at a time")
        device = device or sw.device()
        if "sweep_sms" in sw.context:
            sms = int(sw.context["sweep_sms"])
        if facts is None and sw.context:
            facts = device_facts(sw.context)
        points += sw.entry_points()
    return points, sms, facts


def least_squares(xs, ys):
    """y = a + b x; returns (a, b)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx <= 0:
        return 0.0, my / mx if mx else 0.0
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def fit(points, sms, facts=None):
    t = first_principles(facts)
    t["source"] = "fitted by scripts/fit_cost_model.py to a sweep's entry timings" + (
        f" ({facts['name']})" if facts and facts.get("name") != H200["name"] else "")
    if sms:
        t["sms"] = sms
    for _ in range(3):
        per_sm = {e: t["tflops"][e] * 1e12 / t["sms"] for e in ENTRIES}
        bw = t["bandwidth_gbs"] * 1e9
        for e in ENTRIES:
            mine = [p for p in points if p[0] == e and p[1] / per_sm[e] >= p[2] / bw]
            if len(mine) < 3:
                continue
            a, b = least_squares([p[1] for p in mine], [p[4] - p[3] for p in mine])
            if b <= 0:
                continue
            t["tflops"][e] = min(1.0 / b * t["sms"] / 1e12, t["peak_tflops"])
            t["fixed_us"][e] = max(a, 0.0) * 1e6
        per_sm = {e: t["tflops"][e] * 1e12 / t["sms"] for e in ENTRIES}
        mem = [p for p in points if p[2] / bw > p[1] / per_sm[p[0]]]
        if len(mem) >= 3:
            num = sum(p[2] * p[2] for p in mem)
            den = sum(p[2] * max(p[4] - p[3] - t["fixed_us"][p[0]] * 1e-6, 1e-12) for p in mem)
            if den > 0:
                t["bandwidth_gbs"] = num / den / 1e9
    return t


def header(t):
    def row(key, fmt):
        return ", ".join(fmt.format(t[key][e]) for e in ENTRIES)

    names = ", ".join(ENTRIES)
    return f"""// GENERATED by scripts/fit_cost_model.py; do not edit (regenerate: see that script's header).
// The constants of the Auto cost model (select/cost_model.hpp), one per AutoEntry in its order:
// {names}.
// Source: {t['source']}.
#pragma once

namespace tessera::gemm::select {{

struct CostTable {{
  static constexpr const char* kSource = "{t['source']}";
  static constexpr int kEntries = {len(ENTRIES)};
  static constexpr int kSms = {t['sms']};                       // the device the rates are for
  static constexpr double kPeakTflops = {t['peak_tflops']:.6g};  // dense 16-bit tensor peak
  static constexpr double kBandwidthGBs = {t['bandwidth_gbs']:.6g};  // DRAM, every byte
  static constexpr double kDsmemGBsPerSm = {t['dsmem_gbs_per_sm']:.6g};  // a cluster's partial sums
  // TFLOP/s of the whole device at full occupancy, per entry.
  static constexpr double kTflops[kEntries] = {{{row('tflops', '{:.6g}')}}};
  // Microseconds every call of the entry pays beyond its compute or memory time.
  static constexpr double kFixedUs[kEntries] = {{{row('fixed_us', '{:.6g}')}}};
}};

}}  // namespace tessera::gemm::select
"""


def parse_header(text):
    """The constants of a generated header (for the round-trip test)."""
    out = {}
    for key in ("kSms", "kPeakTflops", "kBandwidthGBs", "kDsmemGBsPerSm"):
        m = re.search(rf"{key} = ([0-9.eE+-]+);", text)
        out[key] = float(m.group(1))
    for key in ("kTflops", "kFixedUs"):
        m = re.search(rf"{key}\[kEntries\] = \{{([^}}]*)\}};", text)
        out[key] = dict(zip(ENTRIES, (float(x) for x in m.group(1).split(","))))
    return out


def table_from_header(text):
    """A generated header's constants as the table fit() and first_principles() return."""
    h = parse_header(text)
    m = re.search(r'kSource = "([^"]*)"', text)
    return {"source": m.group(1) if m else "a generated header", "sms": int(h["kSms"]),
            "peak_tflops": h["kPeakTflops"], "bandwidth_gbs": h["kBandwidthGBs"],
            "dsmem_gbs_per_sm": h["kDsmemGBsPerSm"], "tflops": h["kTflops"], "fixed_us": h["kFixedUs"]}


def predicted(t, e, work, nbytes, fixup):
    """(total s, compute s) of entry e as select/cost_model.hpp computes them from the counts."""
    compute = work / (t["tflops"][e] * 1e12 / t["sms"])
    memory = nbytes / (t["bandwidth_gbs"] * 1e9)
    return max(compute, memory) + fixup + t["fixed_us"][e] * 1e-6, compute


def model_choice(t, sw, shape, entries):
    """The entry CostModel::rank puts first among `entries` (ties: less compute, the earlier)."""
    def better(a, b):  # CostModel::better on (total, compute, index)
        scale = max(a[0], b[0])
        if a[0] - b[0] < -1e-9 * scale:
            return -1
        if a[0] - b[0] > 1e-9 * scale:
            return 1
        return -1 if (a[1], a[2]) < (b[1], b[2]) else 1
    costs = [predicted(t, e, *sw.model[(shape, e)]) + (ENTRIES.index(e), e) for e in entries]
    return sorted(costs, key=functools.cmp_to_key(better))[0][3]


def held_out(t, sw):
    """{shape: (chosen entry, chosen s, best entry, best s)} over the shapes with entry timings."""
    out = {}
    for shape in sw.shapes:
        timed = [e for e in ENTRIES if (shape, e) in sw.seconds and (shape, e) in sw.model]
        if not timed:
            continue
        best = min(timed, key=lambda e: sw.seconds[(shape, e)])
        chosen = model_choice(t, sw, shape, timed)
        out[shape] = (chosen, sw.seconds[(shape, chosen)], best, sw.seconds[(shape, best)])
    return out


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def report(tables, sw, worst=10):
    """Markdown: for each (title, table), how well its choice matches the fastest entry of each
    shape of the held-out sweep sw; then the measured selectors against the same best entry."""
    lines = [f"Held-out sweep {sw.path} ({sw.device() or 'device not named'}): the model's choice "
             "among the entries that ran each shape against the fastest of them", "",
             "| table | shapes | choice within 2% of the best | geomean chosen / best | worst (shape: chosen vs best) |",
             "|---|---|---|---|---|"]
    first = None
    for title, t in tables:
        r = held_out(t, sw)
        if not r:
            continue
        ratios = {s: c / b for s, (_, c, _, b) in r.items()}
        within = sum(1 for v in ratios.values() if v <= 1.02)
        w = max(ratios, key=ratios.get)
        lines.append(f"| {title} | {len(r)} | {within} ({100.0 * within / len(r):.1f}%) | "
                     f"{geomean(ratios.values()):.3f} | {ratios[w]:.3f} ({w}: {r[w][0]} vs {r[w][2]}) |")
        first = first or (title, r, ratios)
    if first is None:
        return ("fit_cost_model.py: no shape of " + sw.path + " has tessera_entry_* medians with sweep_model "
                "counts (was it run with --sweep-entries?)")
    measured = [i for i in ("tessera_auto", "tessera_auto_model", "tessera_tuned")
                if any((s, i) in sw.seconds for s in first[1])]
    if measured:
        lines += ["", "The selectors as timed in the same sweep, against the same best entry:", "",
                  "| implementation | shapes | within 2% of the best entry | geomean time / best |", "|---|---|---|---|"]
        for i in measured:
            ratios = {s: sw.seconds[(s, i)] / b for s, (_, _, _, b) in first[1].items() if (s, i) in sw.seconds}
            within = sum(1 for v in ratios.values() if v <= 1.02)
            lines.append(f"| {i} | {len(ratios)} | {within} ({100.0 * within / len(ratios):.1f}%) | "
                         f"{geomean(ratios.values()):.3f} |")
    title, r, ratios = first
    off = [s for s in sorted(ratios, key=ratios.get, reverse=True) if ratios[s] > 1.02]
    lines += ["", f"Shapes where the choice of {title} is more than 2% slower than the best entry "
                  f"({len(off)}; the worst {min(len(off), worst)}):", ""]
    for s in off[:worst]:
        chosen, c, best, b = r[s]
        lines.append(f"- {s}: {chosen} {c * 1e6:.1f} us vs {best} {b * 1e6:.1f} us ({ratios[s]:.3f})")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweeps", nargs="*", help="Google Benchmark JSON of tessera_bench --suite=sweep --sweep-entries")
    ap.add_argument("--first-principles", action="store_true", help="no sweep: the table from the facts above")
    ap.add_argument("--table", metavar="HEADER", help="no fit: a generated cost_table.hpp (with --report)")
    ap.add_argument("-o", "--output", help="the header to write (required unless --report is given)")
    ap.add_argument("--report", metavar="HELDOUT.json",
                    help="a second --sweep-entries sweep: how well the table picks its fastest entry per shape")
    args = ap.parse_args()
    if int(args.first_principles) + int(bool(args.sweeps)) + int(bool(args.table)) != 1:
        ap.error("give one of --first-principles, --table HEADER or sweep JSON files")
    if not args.output and not args.report:
        ap.error("give -o HEADER, --report HELDOUT.json or both")
    if args.table and args.output:
        ap.error("--table reads a header; -o writes one: give one of them")
    heldout = Sweep(args.report) if args.report else None
    if args.first_principles:
        # The shipped header is the H200's; a report judges the held-out device's own facts.
        table = first_principles(device_facts(heldout.context) if heldout and not args.output else None)
    elif args.table:
        with open(args.table) as f:
            table = table_from_header(f.read())
    else:
        points, sms, facts = sweep_points(args.sweeps)
        if not points:
            sys.exit("fit_cost_model.py: no tessera_entry_* medians with sweep_model counts in the input "
                     "(was the sweep run with --sweep-entries?)")
        table = fit(points, sms, facts)
        print(f"fit_cost_model.py: {len(points)} entry timings", file=sys.stderr)
    if args.output:
        with open(args.output, "w") as f:
            f.write(header(table))
    if heldout:
        if args.first_principles:
            title = "first principles" + ("" if args.output else f" ({device_facts(heldout.context)['name']} facts)")
        elif args.table:
            title = args.table
        else:
            title = "fitted to " + ", ".join(args.sweeps)
        tables = [(title, table)]
        if not args.first_principles:
            facts = device_facts(heldout.context)
            tables.append((f"first principles ({facts['name']} facts)", first_principles(facts)))
        text = report(tables, heldout)
        if text.startswith("fit_cost_model.py:"):
            sys.exit(text)
        print(text)


if __name__ == "__main__":
    main()
