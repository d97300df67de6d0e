#!/usr/bin/env bash
# On the GPU machine (an NVIDIA host with torch and Triton 3.6 installed; no network, no AMD
# GPU needed: Triton compiles for gfx942 / gfx950 without one): Triton's fp8 and MX GEMMs at the
# tiles, waves, stages and MFMA sizes of Tessera's shipped low-precision MFMA configurations
# (scripts/triton/triton_lowp_ref.py), for the static MFMA-share comparison of
# issue 21. Nothing is run on a GPU and nothing outside the repository is read.
#
#   scripts/triton/triton_lowp.sh            # from the repository root
#
# Into $OUT (or build/gpu/logs/triton_lowp), six files:
#   summary.txt              one line per variant (options, LDS bytes, setprio, MFMA count and
#                            kinds, loads, registers, spills, main-loop MFMA share), or FAILED
#                            with the exception's last lines
#   triton_lowp_asm.tar.gz   every variant's .amdgcn and .ttgir, and NAME.err for failures
#   env.txt                  triton / torch / python versions, the tl dtype names available
#   lowp_kernel_src.py       the Triton kernel compiled
#   proxy.md                 scripts/mfma_loop_proxy.py --markdown over every .amdgcn
#   log.txt                  everything printed
# Exit status 0 when every variant compiled.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/build/gpu/logs/triton_lowp}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
status=0

echo "== $(date -u +%FT%TZ) $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '(no git)')"
if ! python3 -c "import triton; print('triton', triton.__version__, 'at', triton.__file__)"; then
  echo "== triton cannot be imported: nothing compiled"
  exit 1
fi
timeout 520 python3 "$root/scripts/triton/triton_lowp_ref.py" --out "$out" || status=1
grep -q "FAILED" "$out/summary.txt" 2>/dev/null && status=1

# The proxy over every variant's assembly, one file at a time (one it cannot read is a line).
asm=$(mktemp -d)
if tar xzf "$out/triton_lowp_asm.tar.gz" -C "$asm" 2>/dev/null; then
  for f in "$asm"/*.amdgcn; do
    [[ -e $f ]] || continue
    if ! python3 "$root/scripts/mfma_loop_proxy.py" --markdown "$f" >"$asm/one.md" 2>&1; then
      echo "| $(basename "$f") | proxy failed: $(tail -1 "$asm/one.md") |" >>"$asm/rows.md"
    elif [[ -s $asm/rows.md ]]; then
      tail -n +3 "$asm/one.md" >>"$asm/rows.md"
    else
      cat "$asm/one.md" >>"$asm/rows.md"
    fi
  done
  cp "$asm/rows.md" "$out/proxy.md" 2>/dev/null
else
  echo "== no tarball: no proxy table"
  status=1
fi
rm -rf "$asm"

echo "== summary"
cat "$out/summary.txt" 2>/dev/null
echo "== exit $status; files in $out: $(ls "$out" | tr '\n' ' ')"
exit $status
