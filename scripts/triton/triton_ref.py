#!/usr/bin/env python3
"""Triton reference assembly for Tessera's MFMA GEMM static comparison.

Compiles a TN GEMM (A row-major M x K, B column-major K x N, i.e. both K-contiguous; C fp32
row-major) with Triton for gfx942 and gfx950 WITHOUT an AMD GPU (triton.compile with an
explicit GPUTarget), in several kernel forms and option sets, and records for each variant
whether the BlockPingpong pass fired (s_setprio in the assembly) and the loop's contents.

  python3 triton_ref.py --out DIR            # all variants, one subprocess each
  python3 triton_ref.py --one NAME --out DIR # one variant (used internally)

Writes DIR/summary.txt (one line per variant), DIR/triton_asm.tar.gz (every variant's
.amdgcn and .ttgir), DIR/env.txt (versions). Nothing here runs a kernel.

The driver (one subprocess per variant, its own cache directory, a summary line each, the
tarball), compile_with_options and summarise are shared with triton_lowp_ref.py beside it.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import traceback

# (name, target, form, BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, options, env)
# form: "hinted" = no masks (problem a multiple of the tile, EVEN) + divisibility and
#       contiguity hints; "assumed" = hinted + tl.assume(ids, sizes, strides > 0);
#       "masked" = the tutorial's masks on K and modulo on M/N.
PP = {"TRITON_HIP_USE_BLOCK_PINGPONG": "1"}
ASYNC = {"TRITON_HIP_USE_ASYNC_COPY": "1"}
NOPP = {"TRITON_HIP_USE_BLOCK_PINGPONG": "0"}
BUF = {"AMDGCN_USE_BUFFER_OPS": "1"}


def variants():
    v = []
    for tgt in ("gfx942", "gfx950"):
        kp = {"kpack": 2} if tgt == "gfx942" else {}
        for nk in (32, 16):
            o = dict(matrix_instr_nonkdim=nk, waves_per_eu=2, **kp)
            v.append((f"{tgt}_256x256x64_w8_s2_pp_nk{nk}", tgt, "hinted", 256, 256, 64, 8, 2, o, {**PP, **BUF}))
        o32 = dict(matrix_instr_nonkdim=32, **kp)
        v.append((f"{tgt}_256x256x64_w8_s2_nopp_nk32", tgt, "hinted", 256, 256, 64, 8, 2, o32, {**NOPP, **BUF}))
        v.append((f"{tgt}_256x128x64_w8_s2_pp_nk32", tgt, "hinted", 256, 128, 64, 8, 2,
                  dict(o32, waves_per_eu=2), {**PP, **BUF}))
        v.append((f"{tgt}_128x128x64_w4_s2_pp_nk32", tgt, "hinted", 128, 128, 64, 4, 2,
                  dict(o32, waves_per_eu=2), {**PP, **BUF}))
        v.append((f"{tgt}_128x128x64_w4_s2_nopp_nk32", tgt, "hinted", 128, 128, 64, 4, 2, o32, {**NOPP, **BUF}))
        v.append((f"{tgt}_256x256x64_w8_s2_pp_nk32_masked", tgt, "masked", 256, 256, 64, 8, 2,
                  dict(o32, waves_per_eu=2), {**PP, **BUF}))
        # The same tiles with tl.assume on the program ids and strides, which lets Triton's
        # canonicalize-pointers / buffer-ops passes prove 32-bit non-negative offsets (its
        # AMD matmul tutorial does this): buffer loads instead of 64-bit pointer VGPRs.
        v.append((f"{tgt}_256x256x64_w8_s2_pp_nk32_assume", tgt, "assumed", 256, 256, 64, 8, 2,
                  dict(o32, waves_per_eu=2), {**PP, **BUF}))
        v.append((f"{tgt}_256x128x64_w8_s2_pp_nk32_assume", tgt, "assumed", 256, 128, 64, 8, 2,
                  dict(o32, waves_per_eu=2), {**PP, **BUF}))
        v.append((f"{tgt}_128x128x64_w4_s2_pp_nk32_assume", tgt, "assumed", 128, 128, 64, 4, 2,
                  dict(o32, waves_per_eu=2), {**PP, **BUF}))
        v.append((f"{tgt}_128x128x64_w4_s2_nopp_nk32_assume", tgt, "assumed", 128, 128, 64, 4, 2, o32,
                  {**NOPP, **BUF}))
    # gfx950 async: three stages, half-size K tile (the seed's TwoClusterWithLocalLoadAndAll)
    v.append(("gfx950_256x256x32_w8_s3_async_pp_nk32_assume", "gfx950", "assumed", 256, 256, 32, 8, 3,
              dict(matrix_instr_nonkdim=32, waves_per_eu=2), {**PP, **ASYNC, **BUF}))
    v.append(("gfx950_256x256x32_w8_s3_async_pp_nk32", "gfx950", "hinted", 256, 256, 32, 8, 3,
              dict(matrix_instr_nonkdim=32, waves_per_eu=2), {**PP, **ASYNC, **BUF}))
    v.append(("gfx950_256x256x64_w8_s3_async_pp_nk32", "gfx950", "hinted", 256, 256, 64, 8, 3,
              dict(matrix_instr_nonkdim=32, waves_per_eu=2), {**PP, **ASYNC, **BUF}))
    return v


KERNEL_SRC = r'''
import triton
import triton.language as tl

@triton.jit
def matmul_tn(a_ptr, b_ptr, c_ptr, M, N, K, lda, ldb, ldc,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
              GROUP_M: tl.constexpr, EVEN: tl.constexpr, ASSUME: tl.constexpr):
    pid = tl.program_id(0)
    if ASSUME:
        tl.assume(pid >= 0)
        tl.assume(M > 0)
        tl.assume(N > 0)
        tl.assume(K > 0)
        tl.assume(lda > 0)
        tl.assume(ldb > 0)
        tl.assume(ldc > 0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    if ASSUME:
        tl.assume(pid_m >= 0)
        tl.assume(pid_n >= 0)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if not EVEN:
        offs_m = offs_m % M
        offs_n = offs_n % N
    offs_m = tl.max_contiguous(tl.multiple_of(offs_m, BLOCK_M), BLOCK_M)
    offs_n = tl.max_contiguous(tl.multiple_of(offs_n, BLOCK_N), BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * lda + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] + offs_n[None, :] * ldb
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if EVEN:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * ldc + offs_cn[None, :]
    if EVEN:
        tl.store(c_ptrs, acc)
    else:
        tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))
'''


def compile_one(spec, out_dir):
    name, tgt, form, bm, bn, bk, warps, stages, options, env = spec
    from triton.compiler import ASTSource
    mod_path = os.path.join(out_dir, "kernel_src.py")
    with open(mod_path, "w") as f:
        f.write(KERNEL_SRC)
    sys.path.insert(0, out_dir)
    import kernel_src  # noqa: E402
    fn = kernel_src.matmul_tn
    names = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "lda", "ldb", "ldc",
             "BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "EVEN", "ASSUME"]
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           "lda": "i32", "ldb": "i32", "ldc": "i32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
           "BLOCK_K": "constexpr", "GROUP_M": "constexpr", "EVEN": "constexpr", "ASSUME": "constexpr"}
    constexprs = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8, "EVEN": form != "masked",
                  "ASSUME": form == "assumed"}
    # Every pointer, size and leading dimension divisible by 16 (what the JIT's
    # specialisation would find for aligned 4096^3 operands).
    attrs = {(names.index(n),): [["tt.divisibility", 16]]
             for n in ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "lda", "ldb", "ldc")}
    src = ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=attrs)
    k, opts, dropped = compile_with_options(src, tgt, dict(num_warps=warps, num_stages=stages, **options))
    return keep_outputs(k, name, out_dir, dict(options=opts, dropped=dropped))


def compile_with_options(src, tgt, opts):
    """triton.compile for gfx `tgt` (wave64); an option this version does not know is dropped
    and named. Returns (kernel, options used, options dropped)."""
    import triton
    from triton.backends.compiler import GPUTarget
    opts = dict(opts)
    dropped = []
    while True:
        try:
            return triton.compile(src, target=GPUTarget("hip", tgt, 64), options=opts), opts, dropped
        except Exception as e:  # an option this version does not know: drop it, say so
            msg = str(e)
            bad = [o for o in list(opts) if o not in ("num_warps", "num_stages") and o in msg]
            if not bad:
                raise
            for o in bad:
                dropped.append(o)
                opts.pop(o)


def keep_outputs(k, name, out_dir, info):
    """Writes the kernel's .amdgcn and .ttgir as NAME.*; adds its LDS bytes to `info`."""
    for ext in ("amdgcn", "ttgir"):
        with open(os.path.join(out_dir, name + "." + ext), "w") as f:
            f.write(k.asm.get(ext, ""))
    info["shared"] = getattr(k.metadata, "shared", None)
    return info


def summarise(asm):
    s = {}
    s["setprio"] = len(re.findall(r"^\s*s_setprio", asm, re.M))
    s["s_barrier"] = len(re.findall(r"^\s*s_barrier\b", asm, re.M))
    s["mfma"] = len(re.findall(r"^\s*v_mfma", asm, re.M))
    # which MFMAs, with the f8f6f4 format and scale modifiers (cbsz, blgp, op_sel*)
    kinds = [m.group(1) + "".join(" " + x for x in re.findall(r"\b(cbsz:\d+|blgp:\d+|op_sel\w*:\[[\d,]+\])",
                                                                   m.group(2)))
             for m in re.finditer(r"^\s*(v_mfma\w*)([^\n;]*)", asm, re.M)]
    s["mfma_kinds"] = {x: kinds.count(x) for x in sorted(set(kinds))}
    loads = re.findall(r"^\s*(buffer_load_\w+|global_load_\w+)", asm, re.M)
    s["loads"] = {x: loads.count(x) for x in sorted(set(loads))}
    for key in ("vgpr_count", "agpr_count", "sgpr_count", "group_segment_fixed_size",
                "private_segment_fixed_size", "vgpr_spill_count"):
        m = re.search(r"\." + key + r":\s*(\d+)", asm)
        s[key] = int(m.group(1)) if m else None
    m = re.search(r"; Occupancy:\s*(\d+)", asm)
    s["occupancy"] = int(m.group(1)) if m else None
    return s


def write_env(out, command):
    """DIR/env.txt: the versions, and the dtype names triton.language offers."""
    with open(os.path.join(out, "env.txt"), "w") as f:
        try:
            import triton
            import triton.language as tl
            import torch
            f.write(f"triton {triton.__version__}\ntorch {torch.__version__}\npython {sys.version}\n")
            names = sorted(n for n in dir(tl) if isinstance(getattr(tl, n), tl.dtype))
            f.write("tl dtypes: " + " ".join(f"{n}={getattr(tl, n).name}" for n in names) + "\n")
        except Exception as e:  # noqa: BLE001
            f.write(f"import failed: {e}\n")
        f.write(f"command: python3 {command}\n")
    with open(os.path.join(out, "env.txt")) as f:
        print(f.read(), end="", flush=True)


def run_variants(script, out, envs, describe, tarball, timeout=120):
    """Each variant NAME of `envs` (its environment additions) in a subprocess of its own:
    `script --out OUT --one NAME`, with a cache directory of its own, so that one failure is
    a line of the summary and not the end. Writes OUT/summary.txt and OUT/<tarball> (every
    .amdgcn, .ttgir and .err), keeps the kernel source beside them."""
    work = os.path.join(out, "work")
    os.makedirs(work, exist_ok=True)
    lines = []
    for name, extra in envs.items():
        env = dict(os.environ)
        env.update(extra)
        env["TRITON_CACHE_DIR"] = os.path.join(work, "cache_" + name)
        env["TRITON_ALWAYS_COMPILE"] = "1"
        t0 = time.time()
        try:
            p = subprocess.run([sys.executable, script, "--out", out, "--one", name], env=env,
                               capture_output=True, text=True, timeout=timeout)
            rc, stdout, stderr = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, stdout, stderr = "timeout", str(e.stdout or ""), f"timed out after {timeout} s"
        dt = time.time() - t0
        if rc != 0:
            tail = stderr.strip().splitlines()[-3:] if stderr.strip() else ["(no output)"]
            lines.append(f"{name}: FAILED ({dt:.1f}s, exit {rc})\n    " + "\n    ".join(t[:300] for t in tail))
            with open(os.path.join(work, name + ".err"), "w") as f:
                f.write(stdout + "\n" + stderr)
        else:
            asm_path = os.path.join(work, name + ".amdgcn")
            asm = open(asm_path).read() if os.path.exists(asm_path) else ""
            env_note = " ".join(f"{k}={v}" for k, v in extra.items())
            lines.append(f"{name}: {dt:.1f}s {describe(name)} env[{env_note}] {stdout.strip()} "
                         f"{json.dumps(summarise(asm))}")
        print(lines[-1], flush=True)
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with tarfile.open(os.path.join(out, tarball), "w:gz") as tar:
        for fn in sorted(os.listdir(work)):
            if fn.endswith((".amdgcn", ".ttgir", ".err")):
                tar.add(os.path.join(work, fn), arcname=fn)
    # keep OUT small: the per-variant files travel inside the tarball
    for fn in os.listdir(work):
        if fn in ("kernel_src.py", "lowp_kernel_src.py"):
            shutil.copy(os.path.join(work, fn), os.path.join(out, fn))
    shutil.rmtree(work, ignore_errors=True)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--one")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    specs = {v[0]: v for v in variants()}
    if args.one:
        work = os.path.join(args.out, "work")
        os.makedirs(work, exist_ok=True)
        info = compile_one(specs[args.one], work)
        print(json.dumps(info))
        return 0
    write_env(args.out, " ".join(sys.argv))
    return run_variants(__file__, args.out, {name: spec[9] for name, spec in specs.items()},
                        lambda name: f"form={specs[name][2]}", "triton_asm.tar.gz")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
