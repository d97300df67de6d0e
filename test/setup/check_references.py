#!/usr/bin/env python3
"""Fails when a file of the repository names a file that does not exist.

Every token that looks like a path to a source, script or document (`gemm/scheduler/fixup.hpp`,
`docs/emulator.md`, `test_wgmma_host.cpp`) in the headers, sources, scripts and documents must
name a file of the repository: some tracked file's path ends with it (a bare name, or a path
relative to any folder). Paths under benchmark/results/ are outputs and are not read; a token
that names something made by the build or by a run (build/..., $OUT/...) is not checked.
"""
import pathlib
import re
import subprocess
import sys

TOKEN = re.compile(r"(?<![\w.$/{}<>-])((?:[\w.-]+/)*[\w-]+\.(?:hpp|cpp|cu|hip|md|py|sh|cmake))\b")
READ = re.compile(r"\.(hpp|cpp|cu|hip|h|md|py|sh|cmake|txt)$")
# Names that are not this repository's files: system and third-party headers, outputs.
EXTERNAL = re.compile(
    r"^(catch2/|benchmark/benchmark\.h|hip/|cuda|cublas|nccl|nvml|cute/|cutlass/|torch/|triton/|"
    r"mlir/|llvm/|python/|third_party/|include/(?!tessera)|lib/|amd_|ck_|ck/|ck_tile/|"
    r"CMakeLists|tensorrt|kittens|thunderkittens|deep_gemm/|hipblaslt|rocblas)", re.I)


def main(root: pathlib.Path) -> int:
    files = subprocess.check_output(["git", "ls-files"], cwd=root, text=True).split()
    paths = set(files)
    suffixes = set()
    for f in files:
        parts = f.split("/")
        for i in range(len(parts)):
            suffixes.add("/".join(parts[i:]))
    problems = []
    for f in files:
        if f.startswith("benchmark/results/") or not READ.search(f):
            continue
        text = (root / f).read_text(errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if "external:" in line or "http" in line:
                continue
            for token in TOKEN.findall(line):
                t = token.lstrip("./")
                if t in suffixes or EXTERNAL.match(t) or t.startswith(("build/", "tmp/")):
                    continue
                problems.append(f"{f}:{n}: names '{token}', which is no file of the repository")
    for p in problems:
        print(p)
    print(f"{len(files)} files, {len(problems)} references to missing files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
