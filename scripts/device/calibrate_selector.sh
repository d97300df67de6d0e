#!/usr/bin/env bash
# Calibrates Auto's timed selector on a GPU machine (docs/selector.md): times every entry of
# Auto's table on the sweep's calibration seeds, writes the table the selector reads, and judges
# it on a held-out seed, against the fastest entry of each shape and against cuBLAS/cuBLASLt.
#
#   scripts/device/calibrate_selector.sh --bench=PATH --calibrate=1,3 --held-out=5 --out=$OUT
#
#   --bench=PATH       tessera_bench (default: build/gpu/benchmark/tessera_bench)
#   --calibrate=LIST   seeds to time, every entry, --count shapes each (default 1,3)
#   --held-out=SEED    the seed to judge on, --held-out-count shapes (default 5; "none": skip)
#   --count=N          shapes per calibration seed (default 240)
#   --held-out-count=N shapes of the held-out seed (default 220)
#   --run=LIST         which seeds this call times (default: all of the above); the others'
#                      JSON is read from --inputs, so a calibration longer than one call of the
#                      device tool is split over calls (e.g. --run=1,3, then --run=4)
#   --inputs=DIR       where the JSON of seeds not run now is found (default benchmark/results)
#   --out=DIR          where the JSON (<device>_sweep_entries_seed<S>.json), timed_table.hpp and
#                      the report go (default: $OUT, else build/gpu/calibrate)
#
# Each seed: tessera_bench --suite=sweep --sweep-seed=S --sweep-count=N --sweep-entries, the
# JSON kept to medians (as benchmark/results holds it). Then, when every seed's JSON is there:
# scripts/fit_selector_table.py on the calibration seeds -> $out/timed_table.hpp, and --report
# on the held-out seed -> $out/report.md. Copy the header to include/tessera/gemm/select/ and
# the JSON to benchmark/results/ to ship them. Exit status 0 when every step ran.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2

bench=build/gpu/benchmark/tessera_bench calibrate=1,3 held_out=5 count=240 held_out_count=220 run=""
inputs=benchmark/results out=${OUT:-build/gpu/calibrate}
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
for arg in "$@"; do
  case $arg in
    --bench=*) bench=${arg#*=} ;;
    --calibrate=*) calibrate=${arg#*=} ;;
    --held-out=*) held_out=${arg#*=} ;;
    --count=*) count=${arg#*=} ;;
    --held-out-count=*) held_out_count=${arg#*=} ;;
    --run=*) run=${arg#*=} ;;
    --inputs=*) inputs=${arg#*=} ;;
    --out=*) out=${arg#*=} ;;
    -h | --help) usage 0 ;;
    *) echo "calibrate_selector.sh: unknown argument $arg" >&2; usage 2 ;;
  esac
done
[[ $held_out == none ]] && held_out=""
seeds=${calibrate//,/ }
all="$seeds $held_out"
[[ -z $run ]] && run=$all
run=${run//,/ }
mkdir -p "$out" || exit 2
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

[[ -x $bench ]] || { echo "calibrate_selector.sh: no tessera_bench at $bench" >&2; exit 2; }
dev=$("$bench" --device-name 2>/dev/null) || dev=""
[[ -n $dev ]] || { echo "calibrate_selector.sh: no usable GPU (tessera_bench --device-name)" >&2; exit 2; }
rev=${TESSERA_GIT_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}

json_of() { echo "$1/${dev}_sweep_entries_seed$2.json"; }
status=0
for s in $run; do
  n=$count
  [[ $s == "$held_out" ]] && n=$held_out_count
  json=$(json_of "$out" "$s")
  echo "== seed $s: $n shapes, every entry ($(date -u +%T))"
  start=$SECONDS
  if "$bench" --suite=sweep --sweep-seed="$s" --sweep-count="$n" --sweep-entries --benchmark_out="$json" \
    --benchmark_out_format=json --benchmark_context=git="$rev" >"$out/seed$s.log" 2>&1; then
    python3 - "$json" <<'EOF' || status=1
import json, sys
path = sys.argv[1]
d = json.load(open(path))
d["benchmarks"] = [b for b in d["benchmarks"] if b.get("aggregate_name") == "median"]
d["context"]["kept"] = "the median aggregate of each benchmark (the other aggregates dropped to keep the file small)"
json.dump(d, open(path, "w"), indent=1)
EOF
    echo "   $((SECONDS - start)) s -> $json"
    if grep -q "ERROR OCCURRED" "$out/seed$s.log"; then
      echo "   skipped benchmarks (a failed check or CUDA error): $out/seed$s.log" >&2
      status=1
    fi
  else
    echo "   FAILED after $((SECONDS - start)) s: $out/seed$s.log" >&2
    status=1
  fi
done

# The fit, once every seed's JSON is at hand (this call's, else --inputs').
found() { local j; j=$(json_of "$out" "$1"); [[ -f $j ]] || j=$(json_of "$inputs" "$1"); [[ -f $j ]] && echo "$j"; }
sweeps=()
for s in $seeds; do
  j=$(found "$s") || { echo "calibrate_selector.sh: no JSON of seed $s yet: the fit waits for it"; exit "$status"; }
  sweeps+=("$j")
done
report=()
if [[ -n $held_out ]]; then
  j=$(found "$held_out") || { echo "calibrate_selector.sh: no JSON of the held-out seed $held_out yet"; }
  [[ -n ${j:-} ]] && report=(--report "$j")
fi
python3 scripts/fit_selector_table.py "${sweeps[@]}" -o "$out/timed_table.hpp" "${report[@]}" >"$out/report.md" || status=1
cat "$out/report.md"
exit "$status"
