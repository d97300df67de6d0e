#!/usr/bin/env python3
"""The cycle table of mfma_loop_proxy.py for every MFMA spelling the Tessera and Triton
kernels print (clang-22's and Triton 3.6's AMDGPU assembly), with the f8f6f4 format rule
(twice the passes when A or B is 8-bit); forms it does not model are refused, and the
scale prefix is not counted as an MFMA. Expected values: the proxy's documented sources
(LLVM's gfx940/gfx950 scheduling model, AMD's CDNA4 MFMA table, the published peaks).
Also the comparison the isa.mfma_proxy tests run (--at-least with several references: the
best one counts, whatever its place in the list; an equal share passes), and --loop-without
(a loop holding a mnemonic it names fails).

Usage: test_mfma_loop_proxy.py [path/to/mfma_loop_proxy.py]
"""
import contextlib
import importlib.util
import io
import os
import sys
import tempfile

CASES = [
    # gfx942 16-bit and fp8 / bf8 (fnuz), and gfx950's K-doubled 16-bit forms
    ("v_mfma_f32_32x32x8_bf16 v[0:15], v[16:17], v[18:19], v[0:15]", 32),
    ("v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]", 16),
    ("v_mfma_f32_32x32x16_bf16 v[0:15], v[16:19], v[20:23], v[0:15]", 32),
    ("v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]", 16),
    ("v_mfma_f32_32x32x16_fp8_fp8 v[0:15], v[16:17], v[18:19], v[0:15]", 32),
    ("v_mfma_f32_32x32x16_fp8_bf8 v[0:15], v[16:17], v[18:19], v[0:15]", 32),
    ("v_mfma_f32_32x32x16_bf8_fp8 v[0:15], v[16:17], v[18:19], v[0:15]", 32),
    ("v_mfma_f32_16x16x32_bf8_bf8 v[0:3], v[4:5], v[6:7], v[0:3]", 16),
    # gfx950 f8f6f4: cbsz (A) / blgp (B) 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4; absent = 0
    ("v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15]", 64),
    ("v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15] cbsz:1 blgp:1", 64),
    ("v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:31], v[0:15] cbsz:4", 64),
    ("v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:27], v[0:15] cbsz:1 blgp:4", 64),
    ("v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[0:15] cbsz:4 blgp:4", 32),
    ("v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:21], v[24:29], v[0:15] cbsz:2 blgp:3", 32),
    ("v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3] blgp:1", 32),
    ("v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[12:15], v[0:3] cbsz:4 blgp:4", 16),
    # MX-scaled forms, as clang and Triton print them (scales in two VGPRs, op_sel_hi)
    ("v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 op_sel_hi:[0,0,0]", 64),
    ("v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 op_sel_hi:[1,1,0] blgp:1",
     64),
    ("v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[0:15], v32, v33 op_sel_hi:[0,0,0] cbsz:4 blgp:4",
     32),
    ("v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21 op_sel_hi:[0,0,0]", 32),
    ("v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[12:15], v[0:3], v20, v21 op_sel_hi:[0,0,0] cbsz:4 blgp:4",
     16),
    # not modelled: must be refused rather than guessed
    ("v_mfma_i32_32x32x32_i8 v[0:15], v[16:19], v[20:23], v[0:15]", None),
    ("v_mfma_f32_32x32x2_f32 v[0:15], v0, v1, v[0:15]", None),
    ("v_mfma_f32_32x32x4_2b_bf16 v[0:31], v[0:1], v[2:3], v[0:31]", None),
]


def load(path):
    spec = importlib.util.spec_from_file_location("mfma_loop_proxy", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(path):
    proxy = load(path)
    failures = []
    for line, cycles in CASES:
        got = proxy.mfma_cycles(line)
        if got != cycles:
            failures.append(f"{line}: {got} cycles, expected {cycles}")
    if proxy.classify("v_mfma_ld_scale_b32") == "mfma":
        failures.append("v_mfma_ld_scale_b32 is counted as an MFMA")
    # A loop of two MX fp4 MFMAs (32 cycles each) and 8 other instructions, the scale prefix
    # among them (4 cycles each, s_nop 7: 8): 64 / (64 + 4 * 7 + 8) = 64 %.
    loop = ["ds_read_b128 v[16:19], v40", "v_mfma_ld_scale_b32 v32, v33",
            "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[0:15], v32, v33 op_sel_hi:[0,0,0] "
            "cbsz:4 blgp:4", "s_nop 7",
            "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[20:23], v[28:31], v[0:15], v32, v33 op_sel_hi:[1,1,0] "
            "cbsz:4 blgp:4", "v_add_u32 v40, 0x100, v40", "s_waitcnt lgkmcnt(0)", "s_barrier", "s_add_u32 s4, s4, 1",
            "s_cbranch_scc1 .LBB0_2"]
    a = proxy.analyse(loop)
    if (a["mfma"], a["mfma_cycles"], a["other"], a["other_cycles"]) != (2, 64, 8, 36):
        failures.append(f"loop analysis: {a['mfma']} MFMA, {a['mfma_cycles']} cycles, {a['other']} other, "
                        f"{a['other_cycles']} cycles; expected 2, 64, 8, 36")
    failures += check_compare(proxy)
    failures += check_loop_without(proxy)
    if failures:
        print("\n".join(failures))
        return 1
    print(f"ok: {len(CASES)} MFMA spellings, the scale prefix, a loop, the comparison and --loop-without")
    return 0


def one_loop_kernel(directory, name, others):
    """A file with kernel `name` whose loop is one fp8 MFMA (32 cycles) and `others` VALU (4 each)."""
    path = os.path.join(directory, name + ".s")
    body = ["v_mfma_f32_32x32x16_fp8_fp8 v[0:15], v[16:17], v[18:19], v[0:15]"]
    body += ["v_add_u32 v20, 4, v20"] * (others - 1) + ["s_cbranch_scc1 .LBB0_1"]
    with open(path, "w") as f:
        f.write(name + ":\n.LBB0_1:  ; Loop Header: Depth=1\n" + "".join("\t" + t + "\n" for t in body) +
                ".Lfunc_end0:\n")
    return path


def check_loop_without(proxy):
    """--loop-without: a loop rebuilding a descriptor (s_addc_u32) fails, one without passes."""
    failures = []
    with tempfile.TemporaryDirectory() as d:
        clean = one_loop_kernel(d, "clean", 3)
        rebuilt = os.path.join(d, "rebuilt.s")
        with open(clean) as f:
            text = f.read()
        with open(rebuilt, "w") as f:
            f.write(text.replace("clean:", "rebuilt:").replace("\ts_cbranch", "\ts_addc_u32 s9, s13, 0\n\ts_cbranch"))
        for files, expected in (([clean], 0), ([rebuilt], 1), ([clean, rebuilt], 1)):
            with contextlib.redirect_stdout(io.StringIO()) as out:
                got = proxy.loop_without("s_addc_u32|s_and_b32", files)
            if got != expected:
                failures.append(f"loop_without({files}) = {got}, expected {expected}:\n{out.getvalue()}")
    return failures


def check_compare(proxy):
    """--at-least: 1 MFMA + 4 other (66.7 %) against references of 50 %, 66.7 % and 80 %."""
    failures = []
    with tempfile.TemporaryDirectory() as d:
        mine = one_loop_kernel(d, "mine", 4) + ":mine"
        low, equal, high = (one_loop_kernel(d, n, k) for n, k in (("low", 8), ("equal", 4), ("high", 2)))
        cases = [([mine + "=" + low], 0), ([mine + "=" + equal], 0), ([mine + "=" + low + "," + equal], 0),
                 ([mine + "=" + low + "," + high], 1), ([mine + "=" + high + "," + low], 1),
                 ([mine + "=" + low, mine + "=" + high], 1)]
        for pairs, expected in cases:
            for markdown in (False, True):
                with contextlib.redirect_stdout(io.StringIO()) as out:
                    got = proxy.compare(pairs, markdown)
                if got != expected:
                    failures.append(f"compare({pairs}, markdown={markdown}) = {got}, expected {expected}:\n"
                                    f"{out.getvalue()}")
        name, _ = proxy.best_reference(low + "," + high + "," + equal)
        if name != "high.s":
            failures.append(f"best_reference picked {name}, expected high.s")
    return failures


if __name__ == "__main__":
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mfma_loop_proxy.py")
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else default))
