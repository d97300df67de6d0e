#!/usr/bin/env bash
# The compile time of a translation unit instantiating Gemm<Auto<...>> (issue 28 asks for
# under 40 s with nvcc on one core): benchmark/compile_time_auto.cu (the README's usage, bf16
# in and out) compiled to an object for sm_90a as the Release build compiles it (-O3
# -DNDEBUG, C++17). nvcc runs its stages one after another, so this is one core's work; on a
# loaded machine the wall time exceeds the CPU time, and both are printed.
#
#   scripts/compile_time.sh [SOURCE] [extra nvcc flags...]
#   env: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc);
#        LIMIT_S (default 40): exit status 1 when the CPU time is above it
# Output, one line: compile_time <source> sm_90a: <wall> s wall, <cpu> s CPU (user+sys) [limit <L> s: ok|over]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$root/benchmark/compile_time_auto.cu}
[[ $# -gt 0 ]] && shift
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
limit=${LIMIT_S:-40}
out=$(mktemp -d "${TMPDIR:-/tmp}/tessera_compile_time.XXXXXX")
trap 'rm -rf "$out"' EXIT
# Children's CPU time so far (non-zero where this shell replaced one that had run other
# commands, as the last command of a subshell is), subtracted below.
times > "$out/times0"
start=$(date +%s.%N)
"$nvcc" -std=c++17 -O3 -DNDEBUG -gencode=arch=compute_90a,code=sm_90a -I"$root/include" "$@" \
    -c "$src" -o "$out/tu.o"
end=$(date +%s.%N)
times > "$out/times"  # in this shell (a subshell's would not count nvcc): children's user, sys on line 2
read -r cu0 cs0 < <(tail -1 "$out/times0" | tr 'ms' '  ' | awk '{print $1 * 60 + $2, $3 * 60 + $4}')
read -r cu cs < <(tail -1 "$out/times" | tr 'ms' '  ' | awk -v u="$cu0" -v s="$cs0" '{print $1 * 60 + $2 - u, $3 * 60 + $4 - s}')
wall=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.1f", b - a}')
cpu=$(awk -v u="$cu" -v s="$cs" 'BEGIN{printf "%.1f", u + s}')
verdict=$(awk -v c="$cpu" -v l="$limit" 'BEGIN{print (c <= l) ? "ok" : "over"}')
echo "compile_time ${src#$root/} sm_90a: ${wall} s wall, ${cpu} s CPU (user+sys) [limit ${limit} s: ${verdict}]"
[[ $verdict == ok ]]
