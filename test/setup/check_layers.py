#!/usr/bin/env python3
"""Fails when a header includes a header of a higher layer (docs/architecture.md: Layers).

Layers, lowest first: core < arch < layout < memory < mma < schedule < gemm < tp. runtime/
sits beside them: it may include core/ only, and any layer may include it. A folder under
include/tessera/ that is not listed here is an error too, so a new layer gets placed.

Inside gemm/, the same rule by folder: what every family shares (the API at gemm/'s top,
scheduler/, epilogue/) < what the two TMA families share (tma/) < the families (fma/, mfma/,
wgmma/, umma/) < select/ (Dispatch, Auto and the wrappers that choose among families). A
family never includes another family; fma/ and mfma/ do not include tma/.
"""
import pathlib
import re
import sys

ORDER = ["core", "arch", "layout", "memory", "mma", "schedule", "gemm", "tp"]
SIDE = {"runtime": {"core", "runtime"}}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]tessera/([A-Za-z0-9_]+)/', re.M)
GEMM_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]tessera/gemm/([A-Za-z0-9_.]+)', re.M)
# gemm/'s folders: what each may include (a file at gemm/'s top is "api").
SHARED = {"api", "scheduler", "epilogue"}
GEMM_FOLDERS = {
    "api": SHARED, "scheduler": SHARED, "epilogue": SHARED,
    "tma": SHARED | {"tma"},
    "fma": SHARED | {"fma"}, "mfma": SHARED | {"mfma"},
    "wgmma": SHARED | {"tma", "wgmma"}, "umma": SHARED | {"tma", "umma"},
    "select": SHARED | {"tma", "fma", "mfma", "wgmma", "umma", "select"},
}


def gemm_folder(part: str) -> str:
    return "api" if part.endswith(".hpp") else part


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
        if layer == "gemm":
            folder = gemm_folder(header.relative_to(base / "gemm").parts[0])
            if folder not in GEMM_FOLDERS:
                problems.append(f"{header}: gemm/ folder '{folder}' is in no layer (add it to {__file__})")
                continue
            for target in map(gemm_folder, GEMM_INCLUDE.findall(header.read_text())):
                if target not in GEMM_FOLDERS[folder]:
                    problems.append(f"{header.relative_to(root)}: gemm/{folder} includes gemm/{target}/")
    for p in problems:
        print(p)
    print(f"{len(headers)} headers checked, {len(problems)} layering problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
