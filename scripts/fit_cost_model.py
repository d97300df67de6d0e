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
      bytes and the predicted fix-up seconds), so that this script needs no copy of the model.

The fit, per entry: on the shapes the model calls compute-bound, time - fix-up = fixed +
work / rate (least squares for fixed and 1 / rate); then one bandwidth for all entries from the
memory-bound shapes (time - fix-up - fixed = bytes / bandwidth); three rounds, as the split
between compute- and memory-bound follows the constants. An entry with fewer than 3 points
keeps its first-principles constants. The fix-up rates stay first-principles.

First principles (H200; benchmark/notes/fma.md: 132 SMs, 1980 MHz observed; a device-to-device
copy measured at 4.24 TB/s):
  peak        132 SMs x 4096 dense 16-bit tensor FLOP per clock per SM (Hopper's wgmma rate:
              the H100 SXM's published 989 TFLOP/s dense bf16 at 1830 MHz over 132 SMs, noted in
              benchmark/notes/grouped.md) x 1.98 GHz
  per entry   the peak times the share shared memory can carry: per k16 step a 128 x n tile's
              TMA copies write (128 + n) x 32 bytes of A and B, and its two consumer warpgroups
              read 2 x 2 KiB of A and 2 x 32 n bytes of B, in the n clocks the tensor cores take,
              against 128 bytes per clock per SM of shared memory (32 banks x 4 bytes;
              benchmark/notes/fp8.md meets that limit): min(1, 128 / (8192 / n + 96)); a 2 x 1
              cluster's multicast does not change what each SM's shared memory carries
  bandwidth   the copy rate above, for every DRAM byte
  DSMEM       the same 128 bytes per clock per SM for a cluster's partial sums, and for the
              stream-K tile owner's reads of its sharers' partial tiles
  fixed       0 (no launch or ramp cost is assumed before one is measured)
"""
import argparse
import json
import math
import re
import sys

# The order of AutoEntry (include/tessera/gemm/select/auto_rule.hpp); the header's
# static_assert in cost_model.hpp checks the count.
ENTRIES = ["kSmallM16", "kSmallM32", "kSmallM64", "kSplit64", "kSplit128", "kTile128", "kStreamK",
           "kStreamK128", "kLarge", "kLarge2x1"]
TILE_N = {"kSmallM16": 16, "kSmallM32": 32, "kSmallM64": 64, "kSplit64": 64, "kSplit128": 128,
          "kTile128": 128, "kStreamK": 256, "kStreamK128": 128, "kLarge": 256, "kLarge2x1": 256}

SMS = 132
CLOCK_GHZ = 1.98
FLOP_PER_CLOCK_PER_SM = 4096
SMEM_BYTES_PER_CLOCK = 128
COPY_GBS = 4240.0


def first_principles():
    peak = SMS * FLOP_PER_CLOCK_PER_SM * CLOCK_GHZ * 1e9 / 1e12
    tflops = {}
    for e in ENTRIES:
        n = TILE_N[e]
        need = 8192.0 / n + 96.0  # bytes per clock a 128 x n tile moves through shared memory
        tflops[e] = peak * min(1.0, SMEM_BYTES_PER_CLOCK / need)
    return {
        "source": "first principles (scripts/fit_cost_model.py: H200 facts, no timing)",
        "sms": SMS,
        "peak_tflops": peak,
        "bandwidth_gbs": COPY_GBS,
        "dsmem_gbs_per_sm": SMEM_BYTES_PER_CLOCK * CLOCK_GHZ,
        "tflops": tflops,
        "fixed_us": {e: 0.0 for e in ENTRIES},
    }


def seconds(b):
    t = b["real_time"]
    unit = b.get("time_unit", "ns")
    return t * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


def sweep_points(paths):
    """(entry, work FLOP, bytes, fix-up s, time s) for every entry benchmark with model counts."""
    points = []
    sms = None
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        ctx = doc.get("context", {})
        if "sweep_sms" in ctx:
            sms = int(ctx["sweep_sms"])
        model = {}
        for key, value in ctx.items():
            if not key.startswith("sweep_model/"):
                continue
            shape = key[len("sweep_model/"):]
            for item in value.split(";"):
                if not item:
                    continue
                name, nums = item.split("=")
                work, nbytes, fixup = (float(x) for x in nums.split(","))
                model[(shape, name)] = (work, nbytes, fixup)
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            if b.get("error_occurred"):
                continue
            parts = b.get("run_name", b["name"]).split("/")
            if len(parts) != 3 or not parts[1].startswith("tessera_entry_"):
                continue
            name = parts[1][len("tessera_entry_"):]
            if name not in ENTRIES or (parts[2], name) not in model:
                continue
            work, nbytes, fixup = model[(parts[2], name)]
            points.append((name, work, nbytes, fixup, seconds(b)))
    return points, sms


def least_squares(xs, ys):
    """y = a + b x; returns (a, b)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx <= 0:
        return 0.0, my / mx if mx else 0.0
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def fit(points, sms):
    t = first_principles()
    t["source"] = "fitted by scripts/fit_cost_model.py to a sweep's entry timings"
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweeps", nargs="*", help="Google Benchmark JSON of tessera_bench --suite=sweep --sweep-entries")
    ap.add_argument("--first-principles", action="store_true", help="no sweep: the table from the facts above")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    if args.first_principles == bool(args.sweeps):
        ap.error("give either --first-principles or sweep JSON files")
    if args.first_principles:
        table = first_principles()
    else:
        points, sms = sweep_points(args.sweeps)
        if not points:
            sys.exit("fit_cost_model.py: no tessera_entry_* medians with sweep_model counts in the input "
                     "(was the sweep run with --sweep-entries?)")
        table = fit(points, sms)
        print(f"fit_cost_model.py: {len(points)} entry timings", file=sys.stderr)
    with open(args.output, "w") as f:
        f.write(header(table))


if __name__ == "__main__":
    main()
