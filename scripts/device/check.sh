#!/usr/bin/env bash
# The one entry point on a GPU machine: builds (or takes prebuilt) and runs the chosen parts,
# logs each under --out, and prints a summary table last. Exit status 0 when every step passed.
#
#   scripts/device/check.sh --suites=gpu --sanitizers --mutants --bench=llm,fp8 --out=$OUT
#
#   --suites=LIST     GPU test suites: a ctest label (gpu: all of them) or suite names, the ctest
#                     names without "gpu." (fma_gemm,wgmma_shapes); binary test_<name>
#   --sanitizers      compute-sanitizer memcheck, racecheck and synccheck over each chosen
#                     suite's [sanitize] cross-section (suites without one are listed as such);
#                     memcheck and synccheck also over [sanitize_ring] (racecheck cannot follow
#                     the mbarrier ordering of those cases' refills)
#   --sass            scripts/sass_check.py over each chosen suite (HGMMA/QGMMA, no local memory)
#   --mutants[=LIST]  scripts/device/mutation_check.sh: every mutant (or those named) must fail
#   --bench=LIST      tessera_bench suites (llm,fp8,fp8moe,many,classic or all), one run per suite, the
#                     JSON to benchmark/results/<device>_<suite>[_hot][_subset].json (replacing
#                     the last one) and $OUT, tables from scripts/bench_plot.py
#   --bench-args=ARGS more tessera_bench arguments, split on spaces (--reps=3 --target-ms=20,
#                     --hot, --shapes=..., --benchmark_filter=...)
#   --examples        the example GEMMs with verification, beside cuBLAS
#   --probe=NAME[:ARGS]  a probe program, benchmark/<name>.cu (stream_k_probe, fp8_precision,
#                     beta_probe, wgmma_tune, small_m_split_probe, kernel_probe,
#                     fp8_small_m_probe), built with nvcc for sm_90a and run with ARGS
#                     (split on spaces); may be given more than once
#   --out=DIR         logs and results (default: $OUT, else build/gpu/check)
#   --prebuilt=DIR    run the binaries in DIR instead of building (default: $TESSERA_PREBUILT);
#                     DIR holds test_<suite>, test_*_mutant*, tessera_bench (libbenchmark.so*
#                     beside it), the examples and probes, as built on the CPU machine
#   --build-dir=DIR   build directory (default build/gpu, the gpu preset's)
#   --no-build        run what the build directory already holds (no configure, no build)
#   --dry-run         print what would run, run nothing
#
# Building needs Catch2: Debian's package, or the single header carried as
# .carry/catch2/catch.hpp (the GPU machine has neither network nor Catch2).
# Without any part chosen, --suites=gpu is run.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2

suites="" no_build=0 sanitizers=0 sass=0 mutants="" bench="" bench_args="" examples=0 dry=0
probes=()
out=${OUT:-} prebuilt=${TESSERA_PREBUILT:-} build=build/gpu
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
for arg in "$@"; do
  case $arg in
    --suites=*) suites=${arg#*=} ;;
    --sanitizers) sanitizers=1 ;;
    --sass) sass=1 ;;
    --mutants) mutants=all ;;
    --mutants=*) mutants=${arg#*=} ;;
    --bench=*) bench=${arg#*=} ;;
    --bench-args=*) bench_args=${arg#*=} ;;
    --examples) examples=1 ;;
    --probe=*) probes+=("${arg#*=}") ;;
    --out=*) out=${arg#*=} ;;
    --prebuilt=*) prebuilt=${arg#*=} ;;
    --build-dir=*) build=${arg#*=} ;;
    --no-build) no_build=1 ;;
    --dry-run) dry=1 ;;
    -h | --help) usage 0 ;;
    *) echo "check.sh: unknown argument '$arg'" >&2; usage 2 >&2 ;;
  esac
done
if [[ -z $suites$mutants$bench && $examples == 0 && ${#probes[@]} == 0 ]]; then suites=gpu; fi
if [[ ($sanitizers == 1 || $sass == 1) && -z $suites ]]; then suites=gpu; fi
out=${out:-$root/build/gpu/check}
case $build in /*) ;; *) build=$root/$build ;; esac
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
if [[ -n $prebuilt ]]; then
  [[ -d $prebuilt ]] || { echo "check.sh: prebuilt directory '$prebuilt' does not exist" >&2; exit 2; }
  prebuilt=$(cd "$prebuilt" && pwd)
  export LD_LIBRARY_PATH=$prebuilt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

rows=()     # the summary: "step|result|seconds|log"
status=0
t_start=$SECONDS
note() { echo "check.sh [$((SECONDS - t_start))s]: $*"; }
record() {  # <step> <result> <seconds> <log>
  rows+=("$1|$2|$3|${4#"$out"/}")
  [[ $2 == pass || $2 == skip* ]] || status=1
}
step() {  # <step> <log name> <command...>: runs it into $out/<log name>, records pass/fail
  local name=$1 log=$out/$2 t=$SECONDS rc
  shift 2
  if ((dry)); then echo "would run: $*  > ${log#"$out"/}"; return 0; fi
  note "$name"
  "$@" >"$log" 2>&1
  rc=$?
  if ((rc == 0)); then record "$name" pass $((SECONDS - t)) "$log"
  elif ((rc == 77)); then record "$name" "skip (77)" $((SECONDS - t)) "$log"
  else record "$name" "FAIL (rc $rc)" $((SECONDS - t)) "$log"; fi
  return "$rc"
}

# ---- what to run: suites -> binaries --------------------------------------------------------
split() { tr ',' ' ' <<<"$1"; }
bin_dir=""
suite_names=()
resolve_suites() {  # fills suite_names from --suites (a label or names)
  local s
  for s in $(split "$suites"); do
    if [[ $s == gpu ]]; then
      if [[ -n $prebuilt ]]; then
        local f
        for f in "$prebuilt"/test_*; do
          [[ -x $f && $f != *_mutant* ]] && suite_names+=("$(basename "$f" | sed 's/^test_//')")
        done
      else
        mapfile -t -O "${#suite_names[@]}" suite_names < <(ctest --test-dir "$build" -N -L gpu 2>/dev/null |
          sed -n 's/^ *Test *#[0-9]*: gpu\.//p')
      fi
    else
      suite_names+=("${s#gpu.}")
    fi
  done
}

# ---- build ----------------------------------------------------------------------------------
configure() {
  local cfg=(--preset gpu -B "$build")
  [[ -f .carry/catch2/catch.hpp ]] && cfg+=("-DTESSERA_CATCH2_INCLUDE_DIR=$root/.carry")
  [[ -n $bench ]] && cfg+=(-DTESSERA_BUILD_BENCHMARKS=ON)
  step configure configure.log cmake "${cfg[@]}"
}
build_targets() {  # <target...>
  ((dry)) && { echo "would build: $*"; return 0; }
  step "build ($*)" build.log cmake --build "$build" -j "$(nproc)" --target "$@"
}

if [[ -n $prebuilt ]]; then
  bin_dir=$prebuilt
  resolve_suites
else
  if ((!no_build)); then configure || { ((dry)) || tail -n 30 "$out/configure.log"; }; fi
  resolve_suites
  targets=()
  for s in "${suite_names[@]}"; do targets+=("test_$s"); done
  [[ -n $bench ]] && targets+=(tessera_bench)
  ((examples)) && targets+=(fma_gemm_cuda wgmma_gemm_cuda)
  if ((${#targets[@]} && !no_build)); then build_targets "${targets[@]}" || { ((dry)) || tail -n 40 "$out/build.log"; }; fi
  for p in "${probes[@]}"; do  # the probes are no CMake targets: one nvcc line each
    ((no_build)) && break
    name=${p%%:*}
    mkdir -p "$build/probes"
    step "build probe $name" "build.$name.log" nvcc -std=c++17 -O3 --expt-relaxed-constexpr \
      -gencode=arch=compute_90a,code=sm_90a -Iinclude -Itest/support "benchmark/$name.cu" \
      -o "$build/probes/$name" -lcublasLt -lcublas
  done
  bin_dir=$build/bin_links
  if ((!dry)); then  # one directory of links, so the steps below read as in prebuilt mode
    mkdir -p "$bin_dir"
    for d in test/gpu benchmark examples probes; do
      [[ -d $build/$d ]] && find "$build/$d" -maxdepth 1 -type f -perm -u+x
    done | while read -r f; do ln -sf "$f" "$bin_dir/$(basename "$f")"; done
  fi
fi
binary() {  # <name>: its path, or nothing (recorded as missing)
  if [[ -x $bin_dir/$1 ]] || ((dry)); then echo "$bin_dir/$1"; fi
}

if ((!dry)) && command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >"$out/device.txt" 2>&1
fi

# ---- the steps ------------------------------------------------------------------------------
for s in "${suite_names[@]}"; do
  b=$(binary "test_$s")
  if [[ -z $b ]]; then record "suite $s" "FAIL (no test_$s)" 0 "-"; continue; fi
  step "suite $s" "suite.$s.log" "$b"
done

if ((sanitizers)); then
  for s in "${suite_names[@]}"; do
    b=$(binary "test_$s")
    [[ -n $b ]] || continue
    # Catch2 2.x lists the matching test cases' names (and exits with their count).
    cases=$( ((dry)) || "$b" --list-test-names-only "[sanitize]" 2>/dev/null)
    if ((!dry)) && [[ -z ${cases//[[:space:]]/} ]]; then
      record "sanitizers $s" "skip (no [sanitize] cases)" 0 "-"
      continue
    fi
    # [sanitize_ring]: cases whose shared memory a generic-proxy copy refills once an mbarrier
    # says the readers are done; racecheck does not follow that ordering, so only memcheck and
    # synccheck take them.
    ring=$( ((dry)) || "$b" --list-test-names-only "[sanitize_ring]" 2>/dev/null)
    for tool in memcheck racecheck synccheck; do
      extra=() filter="[sanitize]"
      [[ $tool == racecheck ]] && extra=(--racecheck-report all)
      [[ $tool != racecheck && -n ${ring//[[:space:]]/} ]] && filter="[sanitize],[sanitize_ring]"
      step "$tool $s" "$tool.$s.log" compute-sanitizer --tool "$tool" --error-exitcode 99 "${extra[@]}" "$b" "$filter"
    done
  done
fi

if ((sass)); then
  for s in "${suite_names[@]}"; do
    b=$(binary "test_$s")
    [[ -n $b ]] && step "sass $s" "sass.$s.log" python3 scripts/sass_check.py "$b"
  done
fi

if [[ -n $mutants ]]; then
  names=()
  [[ $mutants == all ]] || read -r -a names <<<"$(split "$mutants")"
  if [[ -n $prebuilt ]]; then
    step mutants mutants.log env TESSERA_MUTANTS="$prebuilt" scripts/device/mutation_check.sh "${names[@]}"
  else
    step mutants mutants.log scripts/device/mutation_check.sh "${names[@]}"
  fi
fi

if ((examples)); then
  for e in fma_gemm_cuda wgmma_gemm_cuda; do
    b=$(binary "$e")
    if [[ -z $b ]]; then record "example $e" "FAIL (missing)" 0 "-"; continue; fi
    step "example $e" "example.$e.log" "$b"
    step "example $e 4097x4095x4103" "example.$e.odd.log" "$b" 4097 4095 4103
  done
fi

for p in "${probes[@]}"; do
  name=${p%%:*} args=()
  [[ $p == *:* ]] && read -r -a args <<<"${p#*:}"
  b=$(binary "$name")
  if [[ -z $b ]]; then record "probe $name" "FAIL (missing)" 0 "-"; continue; fi
  step "probe $name" "probe.$name.log" "$b" "${args[@]}"
done

if [[ -n $bench ]]; then
  b=$(binary tessera_bench)
  if [[ -z $b ]]; then
    record bench "FAIL (no tessera_bench)" 0 "-"
  else
    read -r -a extra <<<"$bench_args"
    dev=unknown
    ((dry)) || dev=$("$b" --device-name 2>/dev/null) || dev=""
    results=${TESSERA_BENCH_RESULTS_DIR:-benchmark/results}
    rev=${TESSERA_GIT_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
    if [[ $rev != unknown ]] && ! git diff --quiet HEAD 2>/dev/null; then rev="$rev-dirty"; fi
    suffix=""
    for a in "${extra[@]}"; do
      case $a in
        --hot) suffix+=_hot ;;
        --benchmark_filter=* | --shapes=*) suffix+=_subset ;;
      esac
    done
    if [[ -z $dev ]]; then
      record bench "FAIL (no usable GPU)" 0 "-"
    else
      mkdir -p "$results"
      [[ $bench == all ]] && bench=llm,fp8,fp8moe,many,classic
      for s in $(split "$bench"); do
        json="$results/${dev}_${s}${suffix}.json"  # replaces the last run of this suite
        if step "bench $s" "bench.$s.log" "$b" --suite="$s" --benchmark_out="$json" --benchmark_out_format=json \
          --benchmark_context=git="$rev" "${extra[@]}" && ((!dry)); then
          cp "$json" "$out/"
          python3 scripts/bench_plot.py "$json" >"$out/table.$s.md" 2>>"$out/bench.$s.log" ||
            python3 scripts/bench_plot.py --no-plot "$json" >"$out/table.$s.md" 2>>"$out/bench.$s.log"
          cp "${json%.json}"_*.png "$out/" 2>/dev/null
          # A failed check or CUDA error skips that benchmark with its message, exit status 0.
          if grep -q "ERROR OCCURRED" "$out/bench.$s.log"; then
            record "bench $s: skipped benchmarks" FAIL 0 "$out/bench.$s.log"
          fi
        fi
      done
    fi
  fi
fi

# ---- summary --------------------------------------------------------------------------------
((dry)) && exit 0
for t in "$out"/table.*.md; do [[ -e $t ]] && { echo; cat "$t"; }; done
echo
echo "== summary (logs in $out; $((SECONDS - t_start))s)"
# The detail: the log's last line that sums it up (Catch2, compute-sanitizer, the SASS and
# mutation checks, the examples' verification).
key='All tests passed|test cases|ERROR SUMMARY|RACECHECK SUMMARY|sass_check|mutation caught|MUTATION SURVIVED|MUTANT MISSING|PASS|FAIL|verification'
printf '%-36s %-26s %6s  %-28s %s\n' step result seconds log detail
for r in "${rows[@]}"; do
  IFS='|' read -r name result secs log <<<"$r"
  detail=""
  [[ -f $out/$log ]] && detail=$(grep -hE "$key" "$out/$log" | tail -n 1 | cut -c1-70)
  printf '%-36s %-26s %6s  %-28s %s\n' "$name" "$result" "$secs" "$log" "$detail"
done
exit "$status"
