#!/usr/bin/env python3
"""Fails when a file of the repository names a file that does not exist.

Every token that looks like a path to a source, script or document (`gemm/scheduler/fixup.hpp`,
`docs/emulator.md`, `test_wgmma_host.cpp`) in the headers, sources, scripts and documents must
name a file of the repository: some tracked file's path ends with it (a bare name, or a path
relative to any folder). Paths under benchmark/results/ are outputs and are not read; a token
that names something made by the build or by a run (build/..., $OUT/...) or carried to the GPU
machine (.carry/..., not tracked) is not checked.

Files of other projects that comments cite on purpose (where a lane mapping or an encoding was
read) are listed by name in OTHER_PROJECTS; files a script or the configure step writes are in
OUTPUTS. Recorded outputs kept in the tree (benchmark/results/, test/isa/reference/) are not
read: they name the paths of the machine that made them.
"""
import pathlib
import re
import subprocess
import sys

TOKEN = re.compile(r"(?<![\w.$/{}<>-])((?:[\w.-]+/)*[\w-]+\.(?:hpp|cpp|cu|hip|md|py|sh|cmake))\b(?!\.\w)")
READ = re.compile(r"\.(hpp|cpp|cu|hip|h|md|py|sh|cmake|txt)$")
# Names that are not this repository's files: system and third-party headers, outputs.
EXTERNAL = re.compile(
    r"^(catch2/|benchmark/benchmark\.h|hip/|cuda|cublas|nccl|nvml|cute/|cutlass/|torch/|triton/|"
    r"mlir/|llvm/|python/|third_party/|include/(?!tessera)|lib/|amd_|ck_|ck/|ck_tile/|"
    r"CMakeLists|tensorrt|kittens|thunderkittens|deep_gemm/|hipblaslt|rocblas)", re.I)
# Files of other projects cited on purpose, by project (a path is matched whole or by its end).
OTHER_PROJECTS = {
    "CUTLASS": ["sm100_mma_warpspecialized.hpp", "sm100_blockscaled_mma_warpspecialized.hpp",
                "sm100_gemm_tma_warpspecialized.hpp", "mma_traits_sm100.hpp", "copy_sm100_tma.hpp",
                "04_mma_tma_2sm_sm100.cu", "linear_combination.hpp"],
    "Composable Kernel": ["xdlops_gemm.hpp", "test/mx_mfma_op/mx_mfma_op.hpp", "mx_mfma_op.hpp",
                          "mx_mfma_op.cpp", "test/mx_mfma_op/scale_mapping_32x32x64.cpp",
                          "test/gemm_mx/test_gemm_mx.cpp", "data_type.hpp"],
    "LLVM": ["AMDGPUDMAOperations.md", "GCNSubtarget.cpp"],
    "Triton": ["AccelerateAMDMatmul.cpp", "ElementwiseOpToLLVM.cpp", "ArithToAMDGPU.cpp"],
    "HipKittens": ["fp6_dwordx3/kernels/gemm/fp6fp32/16x16x128_utils.cpp", "16x16x128_4wave.cpp"],
}
# Files written by this repository's scripts or configure step, named where they are made.
OUTPUTS = ["probe.hip", "kernel_src.py", "lowp_kernel_src.py", "table.md", "proxy.md", "use.cpp", "fp.hpp",
           "probe.cpp", "compile.cpp"]
RECORDED = ("benchmark/results/", "test/isa/reference/")


def cited_elsewhere(token: str) -> bool:
    names = [n for ns in OTHER_PROJECTS.values() for n in ns] + OUTPUTS
    return any(token == n or token.endswith("/" + n) for n in names)


def main(root: pathlib.Path) -> int:
    try:
        files = subprocess.check_output(["git", "ls-files"], cwd=root, text=True,
                                        stderr=subprocess.DEVNULL).split()
    except (OSError, subprocess.CalledProcessError):
        print(f"{root} is not a git checkout: its file list is unknown, nothing checked")
        return 77
    if not files:
        print(f"{root} lists no tracked files, nothing checked")
        return 77
    paths = set(files)
    suffixes = set()
    for f in files:
        parts = f.split("/")
        for i in range(len(parts)):
            suffixes.add("/".join(parts[i:]))
    problems = []
    for f in files:
        if f.startswith(RECORDED) or not READ.search(f):
            continue
        text = (root / f).read_text(errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if "external:" in line or "http" in line:
                continue
            for token in TOKEN.findall(line):
                t = token.lstrip("./")
                if t in suffixes or EXTERNAL.match(t) or cited_elsewhere(t) or t.startswith(("build/", "tmp/")) or token.startswith(".carry/"):
                    continue
                problems.append(f"{f}:{n}: names '{token}', which is no file of the repository")
    for p in problems:
        print(p)
    print(f"{len(files)} files, {len(problems)} references to missing files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
