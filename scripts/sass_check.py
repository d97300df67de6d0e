#!/usr/bin/env python3
"""SASS checks of the Hopper tensor-core kernels (run where cuobjdump is: the GPU machine).

For every wgmma_gemm_kernel in the given binary: it must contain HGMMA instructions (QGMMA
for fp8 operands: the tensor-core path, not HMMA/FFMA) and no local-memory traffic (LDL/STL). Prints a line per
kernel and exits 1 on any violation.

Usage: sass_check.py <binary> [cuobjdump]
"""
import re
import subprocess
import sys


def main(argv):
    binary = argv[1]
    tool = argv[2] if len(argv) > 2 else "cuobjdump"
    sass = subprocess.run([tool, "-sass", binary], capture_output=True, text=True, check=True).stdout
    kernels = re.split(r"\n\s*Function : ", sass)[1:]
    ok = True
    seen = 0
    for body in kernels:
        name = body.split("\n", 1)[0].strip()
        if "wgmma_gemm_kernel" not in name:
            continue
        seen += 1
        hgmma = len(re.findall(r"\b[HQ]GMMA\b", body))
        local = len(re.findall(r"\b(LDL|STL)\b", body))
        verdict = "ok" if hgmma > 0 and local == 0 else "FAIL"
        ok = ok and verdict == "ok"
        print("%-4s HGMMA/QGMMA %4d  LDL/STL %3d  %s" % (verdict, hgmma, local, name[:140]))
    if seen == 0:
        print("no wgmma_gemm_kernel in %s" % binary)
        return 1
    print("sass_check: %d wgmma kernels, %s" % (seen, "all use HGMMA/QGMMA and no local memory" if ok else "FAILURES"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
