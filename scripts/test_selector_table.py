#!/usr/bin/env python3
"""Auto's timed selector, its two implementations against each other and its generator:

  - the shipped table (include/tessera/gemm/select/timed_table.hpp) parses back into rows;
  - on a few hundred random calls, the C++ selector (select/nearest_shapes.hpp, compiled here
    into a small program when a C++ compiler is found) and the Python one
    (fit_selector_table.choose, which the held-out report uses) choose the same entry, except
    where two entries' scores are closer than float rounding can separate;
  - fit_selector_table.py on a made-up sweep writes a header that compiles and, asked with
    --report on a sweep of the same shapes, picks each shape's fastest entry.

Usage: test_selector_table.py REPO_ROOT (exit status 0 when all hold)
"""
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fit_selector_table as fst  # noqa: E402

ROW = re.compile(r"^\s*\{([-\d.e]+)f, ([-\d.e]+)f, ([-\d.e]+)f, (true|false), (true|false), \{([^}]*)\}\},")
RUNS = {  # AutoRule::runs with TMA on both operands: everything but the small tiles on a column-major A
    True: set(fst.ENTRIES),
    False: set(fst.ENTRIES) - {"kSmallM16", "kSmallM32"},
}

PROBE = r"""
#include <cstdio>
#include "tessera/gemm/select/nearest_shapes.hpp"
using namespace tessera::gemm;
int main() {
  long m, n, k; int c, b, a;
  while (std::scanf("%ld %ld %ld %d %d %d", &m, &n, &k, &c, &b, &a) == 6) {
    AutoProblem p;
    p.M = m; p.N = n; p.K = k; p.reads_c = c; p.k_major_b = b; p.k_major_a = a;
    p.tma_a = p.tma_b = true; p.workspace = true;
    std::printf("%d\n", int(select::NearestShapes::choose(p).entry));
  }
}
"""


def parse_header(path):
    rows = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                cost = [float(x.strip().rstrip("f")) for x in m.group(6).split(",")]
                rows.append(("", (float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4) == "true",
                                  m.group(5) == "true"), cost))
    return rows


def compiler():
    for cxx in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if cxx and shutil.which(cxx):
            return cxx
    return None


def main():
    failures = []
    header = os.path.join(ROOT, "include/tessera/gemm/select/timed_table.hpp")
    rows = parse_header(header)
    declared = int(re.search(r"kShapes = (\d+);", open(header).read()).group(1))
    if len(rows) != declared or declared == 0:
        failures.append("the shipped table parses into %d rows, it declares %d" % (len(rows), declared))

    cxx = compiler()
    if cxx is None:
        print("test_selector_table.py: no C++ compiler found; the C++ / Python comparison is skipped")
    else:
        tmp = tempfile.mkdtemp()
        try:
            src, exe = os.path.join(tmp, "probe.cpp"), os.path.join(tmp, "probe")
            open(src, "w").write(PROBE)
            subprocess.run([cxx, "-std=c++17", "-O1", "-I", os.path.join(ROOT, "include"), src, "-o", exe], check=True)
            rng = random.Random(5)
            calls = []
            for _ in range(400):
                calls.append((int(2 ** rng.uniform(0, 14.5)), int(2 ** rng.uniform(6, 15)), int(2 ** rng.uniform(6, 15)),
                              rng.random() < 0.3, rng.random() < 0.8, rng.random() < 0.8))
            text = "".join("%d %d %d %d %d %d\n" % (m, n, k, c, b, a) for m, n, k, c, b, a in calls)
            out = subprocess.run([exe], input=text, capture_output=True, text=True, check=True).stdout.split()
            for (m, n, k, c, b, a), got in zip(calls, out):
                f = (math.log2(m), math.log2(n), math.log2(k), c, b)
                want = fst.choose(f, RUNS[a], rows)
                cpp = fst.ENTRIES[int(got)]
                if cpp != want:
                    s = fst.scores(f, RUNS[a], rows)
                    close = abs(s.get(cpp, 1e9) - s.get(want, -1e9)) < 1e-4 or (
                        "kLarge" in (cpp, want) and abs(abs(s[cpp] - s[want]) - fst.DEFAULT_MARGIN) < 1e-4)
                    if not close:
                        failures.append("%dx%dx%d c=%d b=%d a=%d: C++ chose %s, Python %s" % (m, n, k, c, b, a, cpp, want))
        finally:
            shutil.rmtree(tmp)

    # A made-up sweep: entry e is fastest on shapes whose log2(M) falls in its band.
    tmp = tempfile.mkdtemp()
    try:
        bands = {"kSmallM16": (0, 4), "kTile128": (4, 9), "kLarge": (9, 15)}
        benchmarks = []
        rng = random.Random(3)
        labels = set()
        while len(labels) < 120:
            m, n, k = int(2 ** rng.uniform(0, 14)), 2 ** rng.randint(8, 14), 2 ** rng.randint(8, 14)
            label = "%dx%dx%d_b0_bt" % (m, n, k)
            if label in labels:
                continue
            labels.add(label)
            lm = math.log2(m)
            for e in ("kSmallM16", "kTile128", "kLarge"):
                lo, hi = bands[e]
                t = 1.0 if lo <= lm < hi else 1.5
                benchmarks.append({"name": "sweep_bf16/tessera_entry_%s/%s/iterations:50/repeats:3/manual_time_median" % (e, label),
                                   "aggregate_name": "median", "run_type": "aggregate", "real_time": t, "time_unit": "ms"})
            # The baseline: as fast as the fastest entry on even M, twice as fast on odd M.
            benchmarks.append({"name": "sweep_bf16/cublas/%s/iterations:50/repeats:3/manual_time_median" % label,
                               "aggregate_name": "median", "run_type": "aggregate",
                               "real_time": 1.0 if m % 2 == 0 else 0.5, "time_unit": "ms"})
        sweep = os.path.join(tmp, "sweep.json")
        json.dump({"context": {"device": "made-up"}, "benchmarks": benchmarks}, open(sweep, "w"))
        out_header = os.path.join(tmp, "timed_table.hpp")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fit_selector_table.py"), sweep, "-o", out_header],
                       check=True, capture_output=True)
        made = parse_header(out_header)
        if len(made) != 120:
            failures.append("the made-up sweep's header has %d rows, not 120" % len(made))
        rep = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fit_selector_table.py"), sweep, "--report", sweep],
                             check=True, capture_output=True, text=True).stdout
        m = re.search(r"\| nearest shapes \(this table\) \| (\d+) \((\d+)%\)", rep)
        if not m or int(m.group(2)) < 90:
            failures.append("on its own made-up sweep the selector picks the fastest entry on too few shapes:\n" + rep)
        odd = sum(int(label.split("x")[0]) % 2 for label in labels)
        want = math.exp(odd * math.log(0.5) / len(labels))
        m = re.search(r"\| fastest entry \(an oracle\) \| 120 \| ([\d.]+) \| - \| ([\d.]+) \| ([\d.]+) \|", rep)
        if not m or abs(float(m.group(1)) - want) > 1e-3 or float(m.group(3)) != 0.5 or float(m.group(2)) != 0.5:
            failures.append("the report's baseline row for the oracle is not geomean %.3f, p10 0.5, worst 0.5:\n%s" % (want, rep))
        if abs(fst.percentile([1, 2, 3, 4, 5], 10) - 1.4) > 1e-12 or fst.percentile([7], 10) != 7:
            failures.append("percentile is not numpy's linear interpolation")
        if cxx is not None:
            src = os.path.join(tmp, "compile.cpp")
            open(src, "w").write('#include "%s"\nint main() { return tessera::gemm::select::TimedTable::kShapes == 120 ? 0 : 1; }\n'
                                 % out_header)
            subprocess.run([cxx, "-std=c++17", src, "-o", os.path.join(tmp, "c")], check=True)
            if subprocess.run([os.path.join(tmp, "c")]).returncode != 0:
                failures.append("the generated header's kShapes is not 120")
    finally:
        shutil.rmtree(tmp)

    for f in failures:
        print("FAIL:", f)
    print("test_selector_table.py: %s" % ("ok" if not failures else "%d failure(s)" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
