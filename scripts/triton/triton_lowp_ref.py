#!/usr/bin/env python3
"""Triton reference assembly for the low-precision MFMA comparison (issue 21): Triton 3.6's
fp8 / MX GEMMs at the same tile, waves, stages and MFMA size as each of Tessera's shipped
low-precision configurations (examples/mfma_lowp_configs.hpp), compiled for gfx942 / gfx950
WITHOUT an AMD GPU (triton.compile with an explicit GPUTarget, as triton_ref.py does for bf16).

  python3 triton_lowp_ref.py --out DIR            # every variant, one subprocess each
  python3 triton_lowp_ref.py --one NAME --out DIR # one variant (used internally)
  python3 triton_lowp_ref.py --list               # the variants, without Triton

The kernel (LOWP_SRC below) is the TN GEMM of triton_ref.py's "hinted" form (no masks, the
problem a multiple of the tile, divisibility and contiguity hints): A row-major M x K, B
column-major K x N (both K-contiguous), C in the configuration's type and layout, with
  - gfx942: fnuz fp8 operands (Triton fp8e4b8 / fp8e5b16) through tl.dot, per-tensor scales
    (two floats applied to the accumulator) where the Tessera configuration has them;
  - gfx950: OCP fp8 (fp8e4nv / fp8e5) through tl.dot, and MX (e4m3, e5m2 or e2m1 operands as
    uint8, e8m0 scales [row][K/32] as uint8) through tl.dot_scaled; for the MXFP8 tiles also
    the unscaled tl.dot at the same tile (_dot), Triton's plain OCP fp8 GEMM.
Options as triton_ref.py found best for bf16: matrix_instr_nonkdim = Tessera's MFMA M,
waves_per_eu=2 and TRITON_HIP_USE_BLOCK_PINGPONG=1 for Tessera's ping-pong schedules
(TRITON_HIP_USE_BLOCK_PINGPONG=0 for its no-ping-pong ones), kpack=2 on gfx942 (with a
kpack=1 sibling, _kp1), AMDGCN_USE_BUFFER_OPS=1.

Run once on the GPU machine (Triton 3.6.0, 2026-11-28): all 19 variants compiled with their
first spellings, outputs in lowp/ (README.md). Robustness (Triton is not installed where
this was written):
each variant compiles in its own subprocess with its own cache directory, so one failure is
a FAILED line with the exception's last lines (the whole text in the tarball's NAME.err);
pointer dtypes and the dot_scaled call are tried in several spellings (SPELLINGS: the fp8
pointer types, uint8 pointers bitcast by dot_scaled, dot_scaled with and without acc=) and
the one that compiled is named in the summary line with the failures of the others; an
option the installed Triton does not know is dropped and named (triton_ref.compile_with_options);
env.txt has triton.__version__ and the tl dtype names this Triton offers.

Writes DIR/summary.txt (a line per variant: options, LDS bytes, setprio, MFMA count and
kinds with cbsz/blgp/op_sel, loads, registers, spills, and the main loop's MFMA share by
scripts/mfma_loop_proxy.py), DIR/triton_lowp_asm.tar.gz (every .amdgcn, .ttgir, .err),
DIR/env.txt, DIR/lowp_kernel_src.py. Nothing here runs a kernel.
"""
import argparse
import json
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import triton_ref  # noqa: E402  (the shared driver, option dropping and summary)

PP = {"TRITON_HIP_USE_BLOCK_PINGPONG": "1"}
NOPP = {"TRITON_HIP_USE_BLOCK_PINGPONG": "0"}
BUF = {"AMDGCN_USE_BUFFER_OPS": "1"}

# Tessera's shipped configurations (examples/mfma_lowp_configs.hpp, as print_plans resolves
# them: waves, schedule, MFMA): (name, target, BLOCK_M, BLOCK_N, BLOCK_K in values, waves,
# ping-pong, MFMA M/N, A format, B format, scales, C type, C row-major).
#   formats: e4m3fnuz e5m2fnuz (gfx942), e4m3 e5m2 e2m1 (gfx950, OCP); scales: none, tensor, mx
CONFIGS = [
    ("Fp8Baseline942", "gfx942", 128, 128, 128, 4, False, 32, "e4m3fnuz", "e4m3fnuz", "none", "fp32", True),
    ("Fp8OneCluster942", "gfx942", 128, 128, 128, 4, True, 32, "e4m3fnuz", "e5m2fnuz", "tensor", "bf16", True),
    ("Fp8OneCluster16x942", "gfx942", 128, 128, 128, 4, True, 16, "e5m2fnuz", "e4m3fnuz", "none", "fp16", False),
    ("Fp8TwoClusters942", "gfx942", 256, 128, 128, 8, True, 32, "e4m3fnuz", "e4m3fnuz", "tensor", "fp32", False),
    ("Fp8FourClusters942", "gfx942", 256, 256, 128, 8, True, 32, "e5m2fnuz", "e5m2fnuz", "none", "fp32", True),
    ("Mxfp8Baseline950", "gfx950", 128, 128, 128, 4, False, 32, "e4m3", "e4m3", "mx", "fp32", True),
    ("Fp8OneCluster950", "gfx950", 128, 128, 128, 4, True, 32, "e5m2", "e4m3", "tensor", "bf16", True),
    ("Mxfp8OneCluster16x950", "gfx950", 128, 128, 128, 4, True, 16, "e4m3", "e5m2", "mx", "fp16", False),
    ("Mxfp8TwoClusters950", "gfx950", 256, 128, 128, 8, True, 32, "e4m3", "e4m3", "mx", "fp32", False),
    ("Mxfp4TwoClusters950", "gfx950", 256, 128, 256, 8, True, 32, "e2m1", "e2m1", "mx", "bf16", True),
    ("Mxfp4OneCluster16x950", "gfx950", 128, 128, 256, 4, True, 16, "e2m1", "e2m1", "mx", "fp32", True),
]

# Triton's pointer dtype names for each format, in the order tried (Triton 3.x spells the
# fnuz types fp8e4b8 / fp8e5b16 and the OCP ones fp8e4nv / fp8e5: triton.language's
# str_to_ty table; HIPBackend.parse_options lists fp8e4b8/fp8e5b16 for gfx942 and
# fp8e4nv/fp8e5 for gfx950). dot_scaled takes e4m3/e5m2/e2m1 operands as uint8 (it bitcasts:
# semantic._bitcast_to_fp_type) or, for fp8, as the fp8 type itself.
FP8_POINTER = {"e4m3fnuz": ["fp8e4b8"], "e5m2fnuz": ["fp8e5b16"], "e4m3": ["fp8e4nv"], "e5m2": ["fp8e5"]}
C_POINTER = {"fp32": "fp32", "bf16": "bf16", "fp16": "fp16"}


def variant_names():
    out = []
    for c in CONFIGS:
        name, tgt, scales = c[0], c[1], c[10]
        out.append((f"{tgt}_{name}", c, {"dot": scales != "mx", "kpack": 2 if tgt == "gfx942" else None}))
        if tgt == "gfx942":
            out.append((f"{tgt}_{name}_kp1", c, {"dot": True, "kpack": 1}))
        if scales == "mx" and c[8] != "e2m1":  # the OCP fp8 GEMM Triton offers unscaled, same tile
            out.append((f"{tgt}_{name}_dot", c, {"dot": True, "kpack": None}))
    return out


def variants():
    """name -> (config, how, options, env)."""
    v = {}
    for name, c, how in variant_names():
        _, tgt, bm, bn, bk, waves, pingpong, mfma = c[:8]
        options = dict(matrix_instr_nonkdim=mfma)
        if pingpong:
            options["waves_per_eu"] = 2
        if how["kpack"]:
            options["kpack"] = how["kpack"]
        v[name] = (c, how, options, {**(PP if pingpong else NOPP), **BUF})
    return v


def describe(name):
    c, how, options, _ = variants()[name]
    kind = "tl.dot" if how["dot"] else "tl.dot_scaled"
    scales = "none" if how["dot"] and c[10] == "mx" else c[10]
    return (f"tessera={c[0]} tile={c[2]}x{c[3]}x{c[4]} waves={c[5]} a={c[8]} b={c[9]} scales={scales} "
            f"c={c[11]}{'' if c[12] else '_col'} via={kind}")


LOWP_SRC = r'''
import triton
import triton.language as tl

@triton.jit
def lowp_tn(a_ptr, b_ptr, c_ptr, sa_ptr, sb_ptr, M, N, K, lda, ldb, ldc, lds,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
            SCALES: tl.constexpr, A_FMT: tl.constexpr, B_FMT: tl.constexpr, PACK: tl.constexpr,
            C_ROW: tl.constexpr, ACC_KW: tl.constexpr):
    # K counts values; lda, ldb count bytes (PACK values a byte); lds = K / 32 scales a row.
    # SCALES: 0 none, 1 one float per tensor (applied to the accumulator), 2 MX (dot_scaled).
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = tl.max_contiguous(tl.multiple_of(pid_m * BLOCK_M + tl.arange(0, BLOCK_M), BLOCK_M), BLOCK_M)
    offs_n = tl.max_contiguous(tl.multiple_of(pid_n * BLOCK_N + tl.arange(0, BLOCK_N), BLOCK_N), BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K // PACK)
    a_ptrs = a_ptr + offs_m[:, None] * lda + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] + offs_n[None, :] * ldb
    if SCALES == 2:
        offs_s = tl.arange(0, BLOCK_K // 32)
        sa_ptrs = sa_ptr + offs_m[:, None] * lds + offs_s[None, :]
        sb_ptrs = sb_ptr + offs_n[:, None] * lds + offs_s[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        if SCALES == 2:
            sa = tl.load(sa_ptrs)
            sb = tl.load(sb_ptrs)
            if ACC_KW:
                acc = tl.dot_scaled(a, sa, A_FMT, b, sb, B_FMT, acc=acc)
            else:
                acc += tl.dot_scaled(a, sa, A_FMT, b, sb, B_FMT)
            sa_ptrs += BLOCK_K // 32
            sb_ptrs += BLOCK_K // 32
        else:
            acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K // PACK
        b_ptrs += BLOCK_K // PACK
    if SCALES == 1:
        acc = acc * (tl.load(sa_ptr) * tl.load(sb_ptr))
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if C_ROW:
        c_ptrs = c_ptr + offs_cm[:, None] * ldc + offs_cn[None, :]
    else:
        c_ptrs = c_ptr + offs_cm[:, None] + offs_cn[None, :] * ldc
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty))
'''

NAMES = ["a_ptr", "b_ptr", "c_ptr", "sa_ptr", "sb_ptr", "M", "N", "K", "lda", "ldb", "ldc", "lds",
         "BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "SCALES", "A_FMT", "B_FMT", "PACK", "C_ROW", "ACC_KW"]


def spellings(c, how):
    """The (pointer dtypes of A and B, ACC_KW) combinations to try, most likely first."""
    a_fmt, b_fmt = c[8], c[9]
    if how["dot"]:  # tl.dot: the fp8 types themselves
        return [(pa, pb, True) for pa in FP8_POINTER[a_fmt] for pb in FP8_POINTER[b_fmt]]
    out = []
    for acc_kw in (True, False):
        out.append(("u8", "u8", acc_kw))
        if a_fmt != "e2m1":
            out += [(pa, pb, acc_kw) for pa in FP8_POINTER[a_fmt] for pb in FP8_POINTER[b_fmt]]
    return out


def compile_one(name, out_dir):
    from triton.compiler import ASTSource
    c, how, options, _ = variants()[name]
    _, tgt, bm, bn, bk, waves = c[:6]
    a_fmt, b_fmt, scales, c_type, c_row = c[8:13]
    mx = scales == "mx" and not how["dot"]
    mod_path = os.path.join(out_dir, "lowp_kernel_src.py")
    with open(mod_path, "w") as f:
        f.write(LOWP_SRC)
    sys.path.insert(0, out_dir)
    import lowp_kernel_src  # noqa: E402
    fn = lowp_kernel_src.lowp_tn
    pack = 2 if a_fmt == "e2m1" and mx else 1
    scale_mode = 2 if mx else (1 if scales == "tensor" else 0)
    scale_ptr = "*u8" if mx else "*fp32"
    constexprs = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8, "SCALES": scale_mode, "A_FMT": a_fmt,
                  "B_FMT": b_fmt, "PACK": pack, "C_ROW": c_row}
    # Every pointer, size and leading dimension divisible by 16 (aligned 4096^3 operands).
    attrs = {(NAMES.index(n),): [["tt.divisibility", 16]]
             for n in ("a_ptr", "b_ptr", "c_ptr", "sa_ptr", "sb_ptr", "M", "N", "K", "lda", "ldb", "ldc", "lds")}
    tried = []
    for pa, pb, acc_kw in spellings(c, how):
        sig = {"a_ptr": "*" + pa, "b_ptr": "*" + pb, "c_ptr": "*" + C_POINTER[c_type], "sa_ptr": scale_ptr,
               "sb_ptr": scale_ptr}
        sig.update({n: "i32" for n in ("M", "N", "K", "lda", "ldb", "ldc", "lds")})
        sig.update({n: "constexpr" for n in constexprs})
        sig["ACC_KW"] = "constexpr"
        src = ASTSource(fn=fn, signature=sig, constexprs={**constexprs, "ACC_KW": acc_kw}, attrs=attrs)
        spelled = f"a=*{pa} b=*{pb}" + ("" if how["dot"] else f" dot_scaled({'acc=' if acc_kw else 'acc +='})")
        try:
            k, opts, dropped = triton_ref.compile_with_options(src, tgt, dict(num_warps=waves, num_stages=2,
                                                                               **options))
        except Exception as e:  # noqa: BLE001  (another spelling may compile)
            tried.append({"spelling": spelled, "error": f"{type(e).__name__}: {str(e).strip()[-400:]}"})
            print(f"{name}: {spelled} failed:\n{traceback.format_exc()}", file=sys.stderr)
            continue
        info = dict(options=opts, dropped=dropped, spelling=spelled, failed_spellings=tried)
        return triton_ref.keep_outputs(k, name, out_dir, info)
    raise RuntimeError(f"{name}: no spelling compiled: " + json.dumps(tried))


def proxy_of(asm_path):
    """The main loop's MFMA share and counts (scripts/mfma_loop_proxy.py), or why not."""
    try:
        sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
        import mfma_loop_proxy
        _, a = mfma_loop_proxy.main_loop(asm_path)
        return {"loop_mfma": a["mfma"], "loop_other": a["other"], "loop_mfma_share": round(100 * a["share"], 1),
                "loop_lds_bytes_per_mfma": round(a["lds_per_mfma"])}
    except Exception as e:  # noqa: BLE001
        return {"loop_proxy_error": f"{type(e).__name__}: {e}"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--one")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        for name in variants():
            print(f"{name}: {describe(name)} options={json.dumps(variants()[name][2])} env={variants()[name][3]}")
        return 0
    if not args.out:
        ap.error("--out DIR is required")
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "work")
    if args.one:
        os.makedirs(work, exist_ok=True)
        info = compile_one(args.one, work)
        info.update(proxy_of(os.path.join(work, args.one + ".amdgcn")))
        print(json.dumps(info))
        return 0
    triton_ref.write_env(args.out, " ".join(sys.argv))
    return triton_ref.run_variants(os.path.abspath(__file__), args.out,
                                   {name: v[3] for name, v in variants().items()}, describe,
                                   "triton_lowp_asm.tar.gz", timeout=300)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
