#!/usr/bin/env python3
"""The sweep's scripts on made-up sweeps with known answers:

  fit_cost_model.py: entry timings made from known constants (a rate and a fixed cost per
  entry, one bandwidth) through the model's own formula, time = max(work / rate, bytes /
  bandwidth) + fix-up + fixed, are fitted back to those constants, and the header it writes
  compiles (when a C++ compiler is found) and parses back to them; the sweep's context names
  an H100 with its own clock and DRAM interface, which the first-principles peak, the source
  line and device_facts take up; --first-principles writes the shipped header byte for byte
  while that header says it is the first-principles one. --report on a made-up held-out sweep
  whose model choice and entry times are known: the count within 2% of the best entry, the
  geomean of chosen / best, the worst shape, the measured selectors' rows.
  sweep_report.py: ratios to the faster baseline made known per shape come out as the
  geomeans, the worst shape and the count of shapes where Auto is slower than the default;
  tessera_tuned is in the tables, the table against the default tile has its count, p10 and
  worst, and its labels give the count of shapes where the selector's own entry was kept.
  sweep_report.py --against: two made-up runs whose speeds and baselines' drift are known per
  shape come out as the speed change, the change of the ratio to the baseline, the drift and
  the shapes that moved.
  device/calibrate_selector.sh, with a stand-in for tessera_bench: seeds timed over two calls,
  the JSON kept to medians, the table written once both calibration seeds are there, the
  held-out report, a skipped benchmark failing the run.
The benchmark names carry Google Benchmark's suffix (/iterations:N/repeats:R/manual_time), as
tessera_bench writes them.

Usage: test_sweep_scripts.py REPO_ROOT (exit status 0 when all hold)
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fit_cost_model as fit  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED:", what)


def median(name, tflops=None, ms=None, label=None):
    name += "/iterations:50/repeats:3/manual_time"
    e = {"name": name + "_median", "run_name": name, "run_type": "aggregate", "aggregate_name": "median",
         "time_unit": "ms"}
    if tflops is not None:
        e["TFLOP/s"] = tflops
    if ms is not None:
        e["real_time"] = ms
    if label is not None:
        e["label"] = label
    return e


# What tessera_bench writes about an H100 SXM (its clock here made up, to be told from the H200's).
H100_CONTEXT = {"device": "NVIDIA H100 80GB HBM3", "sm_count": "132", "sm_clock_max_mhz": "1755",
                "mem_clock_max_mhz": "2619", "mem_bus_bits": "5120"}


def fit_round_trip(tmp):
    rng = random.Random(5)
    truth_rate = {e: rng.uniform(300, 900) for e in fit.ENTRIES}
    truth_fixed = {e: rng.uniform(2, 9) for e in fit.ENTRIES}
    truth_bw = 3900.0
    sms = 132
    context = dict(H100_CONTEXT, sweep_sms=str(sms))
    benchmarks = []
    for i in range(60):
        label = f"{i + 1}x4096x4096_b0_bt"
        items = []
        for e in fit.ENTRIES:
            work = rng.uniform(1e8, 5e9)                     # FLOP per SM
            compute_bound = i % 3 != 0
            per_sm = truth_rate[e] * 1e12 / sms
            compute_s = work / per_sm
            # A third of the shapes memory-bound by a clear margin, the rest compute-bound.
            nbytes = (compute_s * (2.0 if not compute_bound else 0.3)) * truth_bw * 1e9
            fixup = rng.choice([0.0, rng.uniform(0, 3e-6)])
            items.append(f"{e}={work:.9g},{nbytes:.9g},{fixup:.9g}")
            t = max(compute_s, nbytes / (truth_bw * 1e9)) + fixup + truth_fixed[e] * 1e-6
            benchmarks.append(median(f"sweep_bf16/tessera_entry_{e}/{label}", ms=t * 1e3))
        context[f"sweep_model/{label}"] = ";".join(items) + ";"
    sweep = os.path.join(tmp, "sweep.json")
    with open(sweep, "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f)
    out = os.path.join(tmp, "cost_table.hpp")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fit_cost_model.py"), sweep, "-o", out], check=True)
    with open(out) as f:
        text = f.read()
    got = fit.parse_header(text)
    check(got["kSms"] == sms, "fit: the SM count of the sweep")
    peak = 132 * 4096 * 1.755e9 / 1e12
    check(abs(got["kPeakTflops"] / peak - 1) < 1e-5, f"fit: the H100's peak {got['kPeakTflops']} vs {peak}")
    check(abs(got["kDsmemGBsPerSm"] - 128 * 1.755) < 1e-3, "fit: DSMEM rate from the H100's clock")
    check("(NVIDIA H100 80GB HBM3)" in text, "fit: the source names the sweep's device")
    facts = fit.device_facts(H100_CONTEXT)
    copy = 4240.0 * 2619 * 5120 / (3201 * 6016)
    check(facts["sms"] == 132 and abs(facts["clock_ghz"] - 1.755) < 1e-12 and abs(facts["copy_gbs"] - copy) < 1e-9,
          f"device_facts: {facts}")
    check(fit.device_facts({}) == fit.H200, "device_facts: the H200's without a context")
    check(fit.device_facts({"sweep_sms": "114"})["sms"] == 114, "device_facts: sweep_sms alone")
    other = os.path.join(tmp, "other_device.json")
    with open(other, "w") as f:
        json.dump({"context": dict(context, device="NVIDIA H200"), "benchmarks": benchmarks}, f)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fit_cost_model.py"), sweep, other, "-o", out],
                       capture_output=True, text=True)
    check(r.returncode != 0 and "one device at a time" in r.stderr, "fit: sweeps of two devices refused")
    check(abs(got["kBandwidthGBs"] / truth_bw - 1) < 0.01, f"fit: bandwidth {got['kBandwidthGBs']} vs {truth_bw}")
    for e in fit.ENTRIES:
        check(abs(got["kTflops"][e] / truth_rate[e] - 1) < 0.01, f"fit: {e} rate {got['kTflops'][e]} vs {truth_rate[e]}")
        check(abs(got["kFixedUs"][e] - truth_fixed[e]) < 0.05, f"fit: {e} fixed {got['kFixedUs'][e]} vs {truth_fixed[e]}")
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx:
        src = os.path.join(tmp, "use.cpp")
        with open(src, "w") as f:
            f.write('#include "cost_table.hpp"\nstatic_assert(tessera::gemm::select::CostTable::kTflops[0] > 0, "");\n'
                    'static_assert(tessera::gemm::select::CostTable::kEntries == %d, "");\n'
                    'int main() { return 0; }\n' % len(fit.ENTRIES))
        r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-I", tmp, src], capture_output=True, text=True)
        check(r.returncode == 0, "fit: the generated header compiles: " + r.stderr)
    shipped = os.path.join(ROOT, "include/tessera/gemm/select/cost_table.hpp")
    with open(shipped) as f:
        shipped_text = f.read()
    if "Source: first principles" in shipped_text:
        fp = os.path.join(tmp, "fp.hpp")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fit_cost_model.py"), "--first-principles", "-o", fp],
                       check=True)
        with open(fp) as f:
            check(f.read() == shipped_text, "the shipped cost_table.hpp is what --first-principles writes")


def report(tmp):
    rng = random.Random(9)
    benchmarks, truth = [], {}
    for i in range(40):
        label = f"{1 + i * 37}x{1024 * (1 + i % 4)}x4096_{'b1' if i % 4 == 0 else 'b0'}_bt"
        base = rng.uniform(100, 800)
        lt = base * rng.uniform(0.8, 1.0)
        auto, dflt, tuned = rng.uniform(0.5, 1.2), rng.uniform(0.5, 1.2), rng.uniform(0.5, 1.2)
        truth[label] = (auto, dflt, tuned)
        # The tuned mode keeps the selector's own entry (the first candidate) on every third shape.
        chosen = "kSplit64" if i % 3 == 0 else "kLarge"
        benchmarks += [median(f"sweep_bf16/cublas/{label}", base), median(f"sweep_bf16/cublaslt/{label}", lt),
                       median(f"sweep_bf16/tessera_auto/{label}", auto * base),
                       median(f"sweep_bf16/tessera_tuned/{label}", tuned * base,
                              label=f"bf16->bf16 ld=4096,4096,1024 tuned={chosen} candidates=kSplit64,kLarge,kStreamK"),
                       median(f"sweep_bf16/tessera_wgmma/{label}", dflt * base)]
    sweep = os.path.join(tmp, "report.json")
    with open(sweep, "w") as f:
        json.dump({"context": {}, "benchmarks": benchmarks}, f)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/sweep_report.py"), sweep, "--no-plot"],
                       capture_output=True, text=True, check=True)
    text = r.stdout
    def gm(values):
        values = list(values)
        return math.exp(sum(math.log(v) for v in values) / len(values))

    g = gm(a for a, _, _ in truth.values())
    check(f"| tessera_auto | 40 | {g:.3f} |" in text, f"report: Auto's geomean {g:.3f} in\n{text}")
    check(f"| tessera_tuned | 40 | {gm(t for _, _, t in truth.values()):.3f} |" in text, "report: tessera_tuned's row")
    worst = min(truth, key=lambda s: truth[s][0])
    check(f"{truth[worst][0]:.3f} ({worst})" in text, "report: the worst shape")
    for name, k in (("tessera_auto", 0), ("tessera_tuned", 2)):
        vs = {s: v[k] / v[1] for s, v in truth.items()}
        slower = sum(1 for v in vs.values() if v < 0.98)
        check(f"{name} against tessera_wgmma (the default tile): slower by more than 2% on {slower} of 40 shapes"
              in text, f"report: {name}: {slower} shapes slower than default")
        s = sorted(vs.values())
        at = 39 * 0.1
        p10 = s[int(at)] + (s[int(at) + 1] - s[int(at)]) * (at - int(at))
        w = min(vs, key=vs.get)
        row = f"| {name} | {slower} of 40 | {gm(vs.values()):.3f} | {p10:.3f} | {vs[w]:.3f} ({w}) |"
        check(row in text, f"report: {row} against the default")
    check("tessera_tuned's choices (40 shapes): the selector's own entry kept on 14; chosen: kLarge 26, kSplit64 14"
          in text, "report: the tuned mode's choices")
    vs = [v[2] / v[0] for v in truth.values()]
    check(f"tessera_tuned against tessera_auto: geomean {gm(vs):.3f}; faster by more than 2% on "
          f"{sum(v > 1.02 for v in vs)} of 40 shapes, slower by more than 2% on {sum(v < 0.98 for v in vs)}" in text,
          "report: tessera_tuned against tessera_auto")


def fit_report(tmp):
    """--report with a table whose choice is known: every entry at 100 TFLOP/s on 100 SMs, no
    fixed cost, DRAM never the bound, so the model picks the entry with less work."""
    t = fit.first_principles()
    t.update(sms=100, bandwidth_gbs=1e9, tflops={e: 100.0 for e in fit.ENTRIES}, fixed_us={e: 0.0 for e in fit.ENTRIES})
    t["source"] = "made up for the test"
    os.makedirs(os.path.join(tmp, "made_up"), exist_ok=True)
    table = os.path.join(tmp, "made_up", "cost_table.hpp")
    with open(table, "w") as f:
        f.write(fit.header(t))
    # Per shape: kLarge has the less work (the model's choice), its time and kSplit64's (us),
    # and tessera_auto's and tessera_tuned's times.
    shapes = {"64x4096x4096_b0_bt": (10.0, 10.1), "128x4096x4096_b0_bt": (12.0, 10.0),
              "256x4096x4096_b1_bt": (10.15, 10.0), "512x4096x4096_b0_bn": (20.0, 10.0)}
    context = dict(H100_CONTEXT, sweep_sms="100")
    benchmarks = []
    for shape, (large_us, split_us) in shapes.items():
        context[f"sweep_model/{shape}"] = "kLarge=1e6,1,0;kSplit64=2e6,1,0;kTile128=1e5,1,0;"  # kTile128 not timed
        benchmarks += [median(f"sweep_bf16/tessera_entry_kLarge/{shape}", ms=large_us * 1e-3),
                       median(f"sweep_bf16/tessera_entry_kSplit64/{shape}", ms=split_us * 1e-3),
                       median(f"sweep_bf16/tessera_auto/{shape}", ms=min(large_us, split_us) * 1e-3),
                       median(f"sweep_bf16/tessera_tuned/{shape}", ms=large_us * 1e-3)]
    benchmarks.append({"name": "sweep_bf16/tessera_entry_kTile128/64x4096x4096_b0_bt", "error_occurred": True,
                       "error_message": "refused"})
    heldout = os.path.join(tmp, "heldout.json")
    with open(heldout, "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fit_cost_model.py"), "--table", table,
                        "--report", heldout], capture_output=True, text=True)
    text = r.stdout
    check(r.returncode == 0, "report: runs: " + r.stderr)
    g = (1.0 * 1.2 * 1.015 * 2.0) ** 0.25
    check(f"| {table} | 4 | 2 (50.0%) | {g:.3f} | 2.000 (512x4096x4096_b0_bn: kLarge vs kSplit64) |" in text,
          f"report: the table's row ({g:.3f}) in\n{text}")
    check("| first principles (NVIDIA H100 80GB HBM3 facts) | 4 |" in text, "report: the held-out device's first principles")
    check("| tessera_auto | 4 | 4 (100.0%) | 1.000 |" in text, "report: tessera_auto measured at the best")
    check(f"| tessera_tuned | 4 | 2 (50.0%) | {g:.3f} |" in text, "report: tessera_tuned measured")
    check("- 512x4096x4096_b0_bn: kLarge 20.0 us vs kSplit64 10.0 us (2.000)" in text, "report: the worst shape listed")
    check("(2; the worst 2)" in text and "- 256x4096x4096_b1_bt" not in text, "report: only shapes off by > 2% listed")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fit_cost_model.py"), "--first-principles",
                        "--report", os.path.join(tmp, "report.json")], capture_output=True, text=True)
    check(r.returncode != 0 and "--sweep-entries" in r.stderr, "report: a sweep without entry timings is refused")


def against_report(tmp):
    """Two runs: tessera_auto sped up by a known factor per shape, cuBLAS by a known drift."""
    rng = random.Random(5)
    before, after, speed, drift = [], [], {}, {}
    for i in range(20):
        label = f"{1 + i}x4096x{1024 + 8 * i}_b0_bt"
        base, auto = rng.uniform(100, 800), rng.uniform(50, 700)
        speed[label] = 1.10 if i < 4 else (0.90 if i == 4 else 1.0)
        drift[label] = rng.uniform(0.98, 1.02)
        before += [median(f"sweep_bf16/cublas/{label}", base), median(f"sweep_bf16/tessera_auto/{label}", auto)]
        after += [median(f"sweep_bf16/cublas/{label}", base * drift[label]),
                  median(f"sweep_bf16/tessera_auto/{label}", auto * speed[label])]
    paths = []
    for name, benchmarks in (("before.json", before), ("after.json", after)):
        paths.append(os.path.join(tmp, name))
        with open(paths[-1], "w") as f:
            json.dump({"context": {}, "benchmarks": benchmarks}, f)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/sweep_report.py"), paths[1], "--no-plot",
                        "--against", paths[0]], capture_output=True, text=True, check=True)
    text = r.stdout
    def gm(values):
        values = list(values)
        return math.exp(sum(math.log(v) for v in values) / len(values))
    rel = gm(speed[s] / drift[s] for s in speed)
    row = f"| tessera_auto | 20 | {gm(speed.values()):.3f} | {rel:.3f} | 4 | 1 |"
    check(row in text, f"against: {row} in\n{text}")
    check(f"geomean {gm(drift.values()):.3f}" in text, "against: the baseline's drift")
    check("- tessera_auto 5x4096x1056_b0_bt: 0.900" in text, "against: the shape that slowed down")


FAKE_BENCH = r"""#!/usr/bin/env python3
# A stand-in for tessera_bench --suite=sweep --sweep-entries: per seed 12 shapes, on which
# kTile64 is fastest where M is odd and kLarge elsewhere, cuBLAS 1 ms; median and mean rows.
import json, sys
args = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
if "--device-name" in sys.argv:
    print("Made_Up_GPU")
    sys.exit(0)
seed = int(args["--sweep-seed"])
rows = []
for i in range(12):
    m = 64 * (seed * 100 + i) + (i % 2)
    label = "%dx4096x4096_b0_bt" % m
    for impl, t in (("tessera_entry_kLarge", 1.0 if m % 2 == 0 else 2.0),
                    ("tessera_entry_kTile64", 2.0 if m % 2 == 0 else 1.0), ("cublas", 1.0)):
        for agg in ("median", "mean"):
            rows.append({"name": "sweep_bf16/%s/%s/iterations:50/repeats:3/manual_time_%s" % (impl, label, agg),
                         "run_type": "aggregate", "aggregate_name": agg, "real_time": t, "time_unit": "ms"})
json.dump({"context": {"device": "Made Up GPU"}, "benchmarks": rows}, open(args["--benchmark_out"], "w"))
if seed == 9:
    print("ERROR OCCURRED: made up")
"""


def calibrate_script(tmp):
    """scripts/device/calibrate_selector.sh with a stand-in for tessera_bench: seeds over two calls,
    the JSON kept to medians, the table written once both calibration seeds are there, the
    held-out report, a skipped benchmark failing the run."""
    bench = os.path.join(tmp, "fake_bench")
    with open(bench, "w") as f:
        f.write(FAKE_BENCH)
    os.chmod(bench, 0o755)
    script = os.path.join(ROOT, "scripts/device/calibrate_selector.sh")
    first, second = os.path.join(tmp, "cal1"), os.path.join(tmp, "cal2")
    run = lambda *a: subprocess.run(["bash", script, "--bench=" + bench, *a], capture_output=True, text=True)
    r = run("--run=1", "--out=" + first)
    check(r.returncode == 0 and "no JSON of seed 3 yet" in r.stdout, "calibrate: the fit waits for seed 3: " + r.stdout + r.stderr)
    check(not os.path.exists(os.path.join(first, "timed_table.hpp")), "calibrate: no table from one seed")
    kept = json.load(open(os.path.join(first, "Made_Up_GPU_sweep_entries_seed1.json")))["benchmarks"]
    check(len(kept) == 36 and all(b["aggregate_name"] == "median" for b in kept), "calibrate: the JSON kept to medians")
    r = run("--run=3,4", "--held-out=4", "--inputs=" + first, "--out=" + second)
    check(r.returncode == 0, "calibrate: the second call runs: " + r.stderr)
    header = os.path.join(second, "timed_table.hpp")
    text = open(header).read() if os.path.exists(header) else ""
    check("kShapes = 24;" in text and "Made_Up_GPU_sweep_entries_seed1.json and Made_Up_GPU_sweep_entries_seed3.json" in text,
          "calibrate: the table from seeds 1 and 3")
    written = os.path.join(second, "report" + ".md")  # the report the script writes under --out
    report_md = open(written).read() if os.path.exists(written) else ""
    check("seed4.json" in report_md and "| fastest entry (an oracle) | 12 | 1.000 |" in report_md,
          "calibrate: the report on the held-out seed:\n" + report_md)
    r = run("--calibrate=9", "--held-out=none", "--out=" + os.path.join(tmp, "cal3"))
    check(r.returncode != 0 and "skipped benchmarks" in r.stderr, "calibrate: a skipped benchmark fails the run")


def main():
    tmp = tempfile.mkdtemp(prefix="tessera_sweep_scripts_")
    try:
        fit_round_trip(tmp)
        report(tmp)
        against_report(tmp)
        fit_report(tmp)
        calibrate_script(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")
    print("sweep scripts: all checks hold")


if __name__ == "__main__":
    main()
