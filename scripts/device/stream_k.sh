#!/usr/bin/env bash
# Stream-K (scheduler::StreamK) on a Hopper GPU: the GPU suite, compute-sanitizer on its
# cross-section, the fix-up mutants (the suite must fail on each), the wgmma suite (no
# regression), and the probe's timings against cuBLAS. Summary lines last; full logs in $OUT
# when set.
#
#   scripts/device/stream_k.sh --build DIR   (here, no GPU needed) builds the binaries into DIR:
#                                            test_stream_k_gemm, test_wgmma_gemm, the two
#                                            mutants, stream_k_probe, tessera_bench (+ its
#                                            libbenchmark)
#   scripts/device/stream_k.sh DIR [steps]   (on the GPU machine) runs them; steps: any of
#                                            suite sanitize mutants wgmma probe bench
#                                            (default: all but bench)
# Success: "stream_k suite: passed", "sanitize: clean", both "mutation caught", "wgmma suite:
# passed"; the probe's table compares every variant with the faster cuBLAS.
# The bench step times tessera_bench (BENCH_ARGS, e.g. --suite=llm) on BENCH_FILTER; Google
# Benchmark appends /iterations:N/repeats:R/manual_time to every name, so end a filter with
# '/', not '$'. The stream-K shapes:
#   BENCH_ARGS=--suite=llm BENCH_FILTER='^llm_bf16(_beta1)?/[^/]+/(256x256x65536|512x512x16384|1024x1024x32768|1024x1024x1024|1000x1000x1000|2048x2048x2048|4096x14336x4096)/'
#   scripts/device/stream_k.sh DIR bench
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

if [[ ${1:-} == --build ]]; then
  out=$(mkdir -p "$2" && cd "$2" && pwd)
  set -e
  cd "$root"
  cmake --build build/default --target test_stream_k_gemm test_wgmma_gemm tessera_bench
  cp build/default/test/gpu/test_stream_k_gemm build/default/test/gpu/test_wgmma_gemm "$out/"
  cp build/default/benchmark/tessera_bench "$out/"
  cp /usr/lib/x86_64-linux-gnu/libbenchmark.so.1* "$out/" 2>/dev/null || true
  nvcc -std=c++17 -O3 -Iinclude -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr \
    benchmark/stream_k_probe.cu -o "$out/stream_k_probe" -lcublasLt -lcublas
  work=$(mktemp -d)
  mutant() {  # <name> <sed expression>
    rm -rf "$work/include" && cp -r include "$work/include"
    sed -i "$2" "$work/include/tessera/gemm/scheduler/fixup.hpp"
    if cmp -s "$work/include/tessera/gemm/scheduler/fixup.hpp" include/tessera/gemm/scheduler/fixup.hpp; then
      echo "mutation $1 did not apply"; exit 2
    fi
    nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr \
      -DTESSERA_GPU_TEST_REQUIRES_CC=90 -I "$work/include" -I test/support -I test/gpu -I /usr/include \
      test/gpu/test_stream_k_gemm.cu test/gpu/gpu_main.cpp -o "$out/$1"
  }
  mutant test_stream_k_gemm_mutant_skip 's/if (live\[q\] \&\& p0 + b < r.peers) acc\[q\]\[e\] += v\[q\]\[b\]\[e\];/if (live[q] \&\& p0 + b < r.peers \&\& p0 + b != 1) acc[q][e] += v[q][b][e];/'
  mutant test_stream_k_gemm_mutant_twice \
    's/if (live\[q\] \&\& p0 + b < r.peers) acc\[q\]\[e\] += v\[q\]\[b\]\[e\];/if (live[q] \&\& p0 + b < r.peers) acc[q][e] += (p0 + b == 1 ? 2.0f : 1.0f) * v[q][b][e];/'
  rm -rf "$work"
  ls -la "$out"
  exit 0
fi

bin=$(cd "${1:?usage: stream_k.sh DIR [steps]}" && pwd)
shift
steps=${*:-suite probe mutants wgmma sanitize}
# Every step stops by the deadline (DEADLINE seconds from now, default 330), in the order given.
deadline=$((SECONDS + ${DEADLINE:-330}))
left() { local l=$((deadline - SECONDS)); echo $((l > 5 ? (l < $1 ? l : $1) : 5)); }
logs=${OUT:-$(mktemp -d)}
export LD_LIBRARY_PATH="$bin:${LD_LIBRARY_PATH:-}"
summary=()
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>/dev/null | head -1

step_order=($steps)
for step in "${step_order[@]}"; do
case $step in
suite)
  if timeout "$(left 150)" "$bin/test_stream_k_gemm" >"$logs/suite.log" 2>&1; then
    summary+=("stream_k suite: passed ($(grep -E '^All tests passed' "$logs/suite.log" | head -1))")
  else
    summary+=("stream_k suite: FAILED (rc $?)")
    grep -B4 -A12 -E "FAILED|REQUIRE|CHECK" "$logs/suite.log" | head -60
  fi
  tail -3 "$logs/suite.log"
  ;;
sanitize)
  san="clean"
  for tool in ${SANITIZERS:-memcheck racecheck synccheck}; do
    if ! timeout "$(left 120)" compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin/test_stream_k_gemm" "[sanitize]" \
        >"$logs/sanitize_$tool.log" 2>&1; then
      san="$tool FAILED"
      tail -20 "$logs/sanitize_$tool.log"
    fi
  done
  summary+=("sanitize: $san")
  ;;
mutants)
  for m in test_stream_k_gemm_mutant_skip test_stream_k_gemm_mutant_twice; do
    if timeout "$(left 60)" "$bin/$m" "[stream_k][layout]" >"$logs/$m.log" 2>&1; then
      summary+=("MUTATION SURVIVED: $m")
    else
      summary+=("mutation caught: $m ($(grep -E 'test cases' "$logs/$m.log" | tail -1))")
    fi
  done
  ;;
wgmma)
  if timeout "$(left 150)" "$bin/test_wgmma_gemm" ${WGMMA_FILTER:-} >"$logs/wgmma.log" 2>&1; then
    summary+=("wgmma suite: passed ($(grep -E '^All tests passed' "$logs/wgmma.log" | head -1))")
  else
    summary+=("wgmma suite: FAILED")
    grep -B4 -A12 -E "FAILED" "$logs/wgmma.log" | head -40
  fi
  ;;
probe)
  timeout "$(left 150)" "$bin/stream_k_probe" ${PROBE_ARGS:-} >"$logs/probe.log" 2>&1
  summary+=("probe: rc $?")
  ;;
bench)
  timeout "$(left 330)" "$bin/tessera_bench" --benchmark_filter="${BENCH_FILTER:-^llm_bf16/}" \
    --benchmark_out="$logs/bench.json" --benchmark_out_format=json ${BENCH_ARGS:-} >"$logs/bench.log" 2>&1
  summary+=("bench: rc $? ($(grep -c . "$logs/bench.log") lines)")
  tail -60 "$logs/bench.log"
  ;;
esac
done

[[ -f $logs/probe.log ]] && cat "$logs/probe.log"
printf '%s\n' "---- summary" "${summary[@]}"
