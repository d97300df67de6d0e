#!/usr/bin/env python3
"""bench_plot.py's tables on a Google Benchmark JSON made here with known medians: the
ratio to the faster baseline, the geometric mean, the decode floor fractions, the ratio
to a comparison point, the naive column, and a skipped benchmark's note.

Usage: test_bench_plot.py BENCH_PLOT (the path of scripts/bench_plot.py) (exit status 0 when all hold)
"""
import json
import os
import subprocess
import sys
import tempfile


def entry(name, aggregate, **counters):
    e = {"name": f"{name}_{aggregate}", "run_name": name, "run_type": "aggregate", "aggregate_name": aggregate}
    e.update(counters)
    return e


def medians(name, noise=9999.0, **counters):
    """A median aggregate with `counters`, then a mean that must not be used."""
    return [entry(name, "median", **counters), entry(name, "mean", **{k: noise for k in counters})]


def fixture():
    b = []
    big, dec = "4096x4096x4096", "16x4096x4096"
    b += medians(f"llm_bf16/tessera_wgmma/{big}", **{"TFLOP/s": 700.0, "GB/s": 1.0})
    b += medians(f"llm_bf16/cublas/{big}", **{"TFLOP/s": 750.0, "GB/s": 1.0})
    b += medians(f"llm_bf16/cublaslt/{big}", **{"TFLOP/s": 800.0, "GB/s": 1.0})
    b += medians(f"llm_bf16/floor/{dec}", **{"GB/s": 3000.0, "weights_GB/s": 3000.0, "floor_fraction": 1.01})
    b += medians(f"llm_bf16/tessera_wgmma/{dec}", **{"TFLOP/s": 20.0, "weights_GB/s": 1500.0, "floor_fraction": 0.5})
    b += medians(f"llm_bf16/cublas/{dec}", **{"TFLOP/s": 30.0, "weights_GB/s": 1800.0, "floor_fraction": 0.6})
    b += medians(f"llm_bf16/cublaslt/{dec}", **{"TFLOP/s": 25.0, "weights_GB/s": 1700.0, "floor_fraction": 0.57})
    b.append({"name": "llm_bf16/tessera_wgmma/1000x1000x1000", "run_name": "llm_bf16/tessera_wgmma/1000x1000x1000",
              "run_type": "iteration", "error_occurred": True, "error_message": "CHECK FAILED vs float64 (test)"})
    b += medians("llm_bf16/cublas/1000x1000x1000", **{"TFLOP/s": 200.0})
    g = "8e_fixed_4096x4096x7168"
    b += medians(f"grouped/cublas_grouped/{g}", **{"TFLOP/s": 329.0})
    b += medians(f"grouped/dense_cublas/{g}", **{"TFLOP/s": 804.0})
    b += medians(f"grouped/dense_cublaslt/{g}", **{"TFLOP/s": 790.0})
    m = "64e_zipf_32768x4096x7168"
    b += medians(f"fp8moe_grouped/tessera_grouped/{m}", **{"TFLOP/s": 1140.0})
    b += medians(f"fp8moe_grouped/cublaslt_loop/{m}", **{"TFLOP/s": 500.0})
    b += medians(f"fp8moe_grouped/dense_tessera/{m}", **{"TFLOP/s": 1200.0})
    b += medians(f"fp8moe_grouped/dense_cublaslt/{m}", **{"TFLOP/s": 1300.0})
    b += medians(f"fp32/tessera_fma/{big}", **{"TFLOP/s": 46.0})
    b += medians(f"fp32/cublas/{big}", **{"TFLOP/s": 50.0})
    b += medians(f"fp32/naive/{big}", **{"TFLOP/s": 4.0})
    return {"context": {"device": "Test GPU", "date": "2026-11-25T00:00:00", "l2_flush": "on"}, "benchmarks": b}


def tables(text):
    """{first header cell of a table: {row's first cell: {column: cell}}} of every table."""
    out, header, rows = {}, None, None
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header, rows = cells, {}
            elif not set(line) <= set("|-"):
                rows[cells[0]] = dict(zip(header, cells))
        elif header is not None:
            out.setdefault(header[0], []).append(rows)
            header = None
    return out


def main():
    script = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "r.json")
        with open(path, "w") as f:
            json.dump(fixture(), f)
        text = subprocess.run([sys.executable, script, "--no-plot", path], check=True, capture_output=True,
                              text=True).stdout
    t = tables(text)
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    llm, grouped, moe, fp32 = t["shape"][0], t["shape"][1], t["shape"][2], t["shape"][3]
    ratio = "tessera_wgmma ÷ best baseline"
    expect("4096^3 ratio to the faster baseline (700/800)", llm["4096x4096x4096"][ratio], "0.88")
    expect("decode ratio (20/30)", llm["16x4096x4096"][ratio], "0.67")
    expect("geometric mean (sqrt(0.875 * 0.667))", llm["geomean"][ratio], "0.76")
    expect("median, not mean", llm["4096x4096x4096"]["cublaslt TFLOP/s"], "800.0")
    expect("skipped shape's cell", llm["1000x1000x1000"]["tessera_wgmma TFLOP/s"], "—")
    expect("no floor column in the TFLOP/s table", "floor TFLOP/s" in llm["4096x4096x4096"], False)
    decode = t["decode shape"][0]["16x4096x4096"]
    expect("floor GB/s", decode["floor GB/s of weights"], "3000")
    expect("Tessera's weights GB/s", decode["tessera_wgmma GB/s"], "1500")
    expect("Tessera's fraction of the floor", decode["tessera_wgmma ÷ floor"], "0.50")
    expect("cuBLAS's fraction of the floor", decode["cublas ÷ floor"], "0.60")
    expect("grouped: best baseline over the best dense (329/804)",
           grouped["8e_fixed_4096x4096x7168"]["best baseline ÷ best dense_cublas/dense_cublaslt"], "0.41")
    m = moe["64e_zipf_32768x4096x7168"]
    expect("fp8moe: grouped over the cuBLASLt loop (1140/500)", m["tessera_grouped ÷ best baseline"], "2.28")
    expect("fp8moe: grouped over the best dense (1140/1300)",
           m["tessera_grouped ÷ best dense_cublaslt"], "0.88")
    expect("fp8moe: grouped over Tessera's dense (1140/1200)", m["tessera_grouped ÷ dense_tessera"], "0.95")
    expect("fp8moe: no dense_tessera ÷ itself", "dense_tessera ÷ dense_tessera" in m, False)
    expect("fp32 ratio to cuBLAS (46/50)", fp32["4096x4096x4096"]["tessera_fma ÷ best baseline"], "0.92")
    expect("fp32 ratio to naive (46/4)", fp32["4096x4096x4096"]["tessera_fma ÷ naive"], "11.50")
    expect("skipped note", "`llm_bf16/tessera_wgmma/1000x1000x1000` skipped: CHECK FAILED vs float64 (test)" in text,
           True)
    expect("suite headings", [h for h in ("## LLM shapes", "## Many GEMMs: grouped", "## FP8 for mixture of experts",
                                          "## Classic") if h not in text],
           [])
    for f in failures:
        print("FAILED:", f)
    if failures:
        print(text)
        return 1
    print(f"bench_plot.py: all {len(t)} table kinds as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
