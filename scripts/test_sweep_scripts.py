#!/usr/bin/env python3
"""The sweep's scripts on made-up sweeps with known answers:

  fit_cost_model.py: entry timings made from known constants (a rate and a fixed cost per
  entry, one bandwidth) through the model's own formula, time = max(work / rate, bytes /
  bandwidth) + fix-up + fixed, are fitted back to those constants, and the header it writes
  compiles (when a C++ compiler is found) and parses back to them; --first-principles writes
  the shipped header byte for byte while that header says it is the first-principles one.
  sweep_report.py: ratios to the faster baseline made known per shape come out as the
  geomeans, the worst shape and the count of shapes where Auto is slower than the default.

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


def median(name, tflops=None, ms=None):
    e = {"name": name + "_median", "run_name": name, "run_type": "aggregate", "aggregate_name": "median",
         "time_unit": "ms"}
    if tflops is not None:
        e["TFLOP/s"] = tflops
    if ms is not None:
        e["real_time"] = ms
    return e


def fit_round_trip(tmp):
    rng = random.Random(5)
    truth_rate = {e: rng.uniform(300, 900) for e in fit.ENTRIES}
    truth_fixed = {e: rng.uniform(2, 9) for e in fit.ENTRIES}
    truth_bw = 3900.0
    sms = 132
    context = {"sweep_sms": str(sms)}
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
    check(abs(got["kBandwidthGBs"] / truth_bw - 1) < 0.01, f"fit: bandwidth {got['kBandwidthGBs']} vs {truth_bw}")
    for e in fit.ENTRIES:
        check(abs(got["kTflops"][e] / truth_rate[e] - 1) < 0.01, f"fit: {e} rate {got['kTflops'][e]} vs {truth_rate[e]}")
        check(abs(got["kFixedUs"][e] - truth_fixed[e]) < 0.05, f"fit: {e} fixed {got['kFixedUs'][e]} vs {truth_fixed[e]}")
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx:
        src = os.path.join(tmp, "use.cpp")
        with open(src, "w") as f:
            f.write('#include "cost_table.hpp"\nstatic_assert(tessera::gemm::select::CostTable::kTflops[0] > 0, "");\n'
                    'int main() { return tessera::gemm::select::CostTable::kEntries == 10 ? 0 : 1; }\n')
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
        auto, dflt = rng.uniform(0.5, 1.2), rng.uniform(0.5, 1.2)
        truth[label] = (auto, dflt)
        benchmarks += [median(f"sweep_bf16/cublas/{label}", base), median(f"sweep_bf16/cublaslt/{label}", lt),
                       median(f"sweep_bf16/tessera_auto/{label}", auto * base),
                       median(f"sweep_bf16/tessera_wgmma/{label}", dflt * base)]
    sweep = os.path.join(tmp, "report.json")
    with open(sweep, "w") as f:
        json.dump({"context": {}, "benchmarks": benchmarks}, f)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/sweep_report.py"), sweep, "--no-plot"],
                       capture_output=True, text=True, check=True)
    text = r.stdout
    g = math.exp(sum(math.log(a) for a, _ in truth.values()) / len(truth))
    check(f"| tessera_auto | 40 | {g:.3f} |" in text, f"report: Auto's geomean {g:.3f} in\n{text}")
    worst = min(truth, key=lambda s: truth[s][0])
    check(f"{truth[worst][0]:.3f} ({worst})" in text, "report: the worst shape")
    slower = sum(1 for a, d in truth.values() if a < 0.98 * d)
    check(f"slower by more than 2% on {slower} of 40 shapes" in text, f"report: {slower} shapes slower than default")


def main():
    tmp = tempfile.mkdtemp(prefix="tessera_sweep_scripts_")
    try:
        fit_round_trip(tmp)
        report(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")
    print("sweep scripts: all checks hold")


if __name__ == "__main__":
    main()
