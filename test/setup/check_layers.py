#!/usr/bin/env python3
"""Fails when a header includes a header of a higher layer (README: Repository layout).

Layers, lowest first: core < arch < layout < memory < mma < schedule < gemm. runtime/ sits
beside them: it may include core/ only, and any layer may include it. A folder under
include/tessera/ that is not listed here is an error too, so a new layer gets placed.
"""
import pathlib
import re
import sys

ORDER = ["core", "arch", "layout", "memory", "mma", "schedule", "gemm"]
SIDE = {"runtime": {"core", "runtime"}}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]tessera/([A-Za-z0-9_]+)/', re.M)


def main(root: pathlib.Path) -> int:
    base = root / "include" / "tessera"
    problems = []
    headers = sorted(base.rglob("*.hpp"))
    if not headers:
        problems.append(f"no headers under {base}")
    for header in headers:
        layer = header.relative_to(base).parts[0]
        if layer not in ORDER and layer not in SIDE:
            problems.append(f"{header}: folder '{layer}' is in no layer (add it to {__file__})")
            continue
        for target in INCLUDE.findall(header.read_text()):
            if layer in SIDE:
                ok = target in SIDE[layer]
            elif target in SIDE:
                ok = True
            elif target not in ORDER:
                ok = False
            else:
                ok = ORDER.index(target) <= ORDER.index(layer)
            if not ok:
                problems.append(f"{header.relative_to(root)}: layer '{layer}' includes '{target}/'")
    for p in problems:
        print(p)
    print(f"{len(headers)} headers checked, {len(problems)} layering problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
