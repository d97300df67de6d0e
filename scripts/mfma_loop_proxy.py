#!/usr/bin/env python3
"""Static speed proxy of an AMD GEMM kernel's main loop, from its assembly.

No AMD GPU is available, so no TFLOP/s can be measured. What can be read from the code
is what one main-loop iteration asks of one wave:

  MFMA cycles      sum over the loop's MFMAs of 4 x passes (MFMA_CYCLES below):
                   32x32 forms 8 passes, 16x16 forms 4: gfx942's 32x32x8 / 16x16x16 16-bit and
                   32x32x16 / 16x16x32 fp8 and bf8 (v_mfma_f32_32x32x16_fp8_fp8, _fp8_bf8,
                   _bf8_fp8, _bf8_bf8), gfx950's K-doubled 32x32x16 / 16x16x32 16-bit, and the
                   f8f6f4 forms (v_mfma_f32_32x32x64_f8f6f4, 16x16x128, and their
                   v_mfma_scale_f32_* MX-scaled twins) with fp4/fp6 operands; an f8f6f4 form
                   whose A or B is 8-bit (cbsz or blgp 0 = fp8, 1 = bf8; absent = 0) takes twice
                   that: 16 and 8 passes. Sources: LLVM's scheduling model as llvm-mca reports it
                   (llvm/test/tools/llvm-mca/AMDGPU/gfx950.s and gfx940.s: 8.00 / 4.00 XDL cycles
                   per pass group for all of these; for f8f6f4 with the FIXME "should have
                   different cycle count depending on whether either matrix is f8"), AMD's CDNA4
                   ISA guide's MFMA table (f8f6f4: 16 / 8 passes with an 8-bit operand, 8 / 4
                   otherwise), and the peaks they must give: MI300X 2.6 PFLOP/s dense fp8 /
                   (304 CUs x 4 SIMDs x 2.1 GHz) = 1024 FLOP per SIMD-cycle = a 32x32x16 fp8
                   (32768 FLOP) in 32 cycles; MI355X ~5 PFLOP/s MXFP8 / (256 x 4 x 2.4 GHz) =
                   ~2048: a 32x32x64 (131072 FLOP) in 64 cycles, ~10 PFLOP/s MXFP4: 32 cycles
                   (arch/amd/mfma.hpp, arch/amd/mfma_lowp.hpp). v_mfma_ld_scale_b32 (the scale
                   prefix, should it be printed on its own) is one issue slot, not an MFMA.
  other issue      every other instruction takes one issue slot of the wave, 4 cycles
                   (a wave64 instruction on a SIMD16; s_nop N: N + 1 cycles, at least 4)
  MFMA share       MFMA cycles / (MFMA cycles + other issue cycles): the fraction of the
                   wave's issue time that feeds the matrix core. It ignores latency, the
                   partner wave and overlap (an MFMA's 32 cycles hide other issue), so it
                   is a bound on overhead, not a speed: compare kernels, not hardware.
  LDS B / MFMA     bytes the wave reads from LDS per MFMA (ds_read_b128: 64 lanes x 16 B)

Usage: mfma_loop_proxy.py [--markdown] [--kernel SUBSTRING] FILE...
       mfma_loop_proxy.py --ops [--kernel SUBSTRING] FILE...
       mfma_loop_proxy.py [--markdown] --at-least FILE:KERNEL=REFERENCE_FILE[,REFERENCE_FILE...] ...
       mfma_loop_proxy.py --scalar-loops FILE...
       mfma_loop_proxy.py --loop-without REGEX FILE...
Each FILE is AMDGPU assembly (.s from clang, .amdgcn from Triton). The main loop is the
loop (a label marked "Loop Header: Depth=1" up to the branch back to it) with the most
MFMAs; with several kernels in a file, --kernel picks one by its symbol. --ops lists the
main loop's instructions by mnemonic. --at-least compares pairs (the kernel in FILE whose
symbol contains KERNEL against the reference's kernel; with several references, the one of
highest MFMA share): exit 1 unless every kernel's MFMA share is at least its reference's;
with --markdown, a table with the other instructions' difference by class. --loop-without
exits 1 if a kernel's main loop holds an instruction whose mnemonic matches REGEX (e.g. the
s_addc_u32 / s_and_b32 / s_min_u32 of a buffer descriptor rebuilt every iteration).
"""

import argparse
import re
import sys

# (pattern of the mnemonic, cycles with 16-bit, fp4 or fp6 operands); f8f6f4 forms double with
# an 8-bit operand (mfma_cycles). Anything else named v_mfma* is an error: a form not modelled.
MFMA_CYCLES = [
    (re.compile(r"^v_mfma_f32_32x32x(8|16)_(f16|bf16|bf16_1k)$"), 32),
    (re.compile(r"^v_mfma_f32_16x16x(16|32)_(f16|bf16|bf16_1k)$"), 16),
    (re.compile(r"^v_mfma_f32_32x32x16_(fp8|bf8)_(fp8|bf8)$"), 32),
    (re.compile(r"^v_mfma_f32_16x16x32_(fp8|bf8)_(fp8|bf8)$"), 16),
    (re.compile(r"^v_mfma_(scale_)?f32_32x32x64_f8f6f4$"), 32),
    (re.compile(r"^v_mfma_(scale_)?f32_16x16x128_f8f6f4$"), 16),
]
NOT_MFMA = ("v_mfma_ld_scale_b32",)


def f8f6f4_formats(line):
    """(A's, B's) format codes of an f8f6f4 MFMA line: cbsz and blgp, 0 (fp8) when absent."""
    cbsz = re.search(r"\bcbsz:(\d+)", line)
    blgp = re.search(r"\bblgp:(\d+)", line)
    return int(cbsz.group(1)) if cbsz else 0, int(blgp.group(1)) if blgp else 0


def mfma_cycles(line):
    """Cycles of one MFMA line (with its modifiers), or None when the form is unknown."""
    op = line.split()[0]
    for pattern, cycles in MFMA_CYCLES:
        if pattern.match(op):
            if op.endswith("f8f6f4") and any(f in (0, 1) for f in f8f6f4_formats(line)):
                cycles *= 2  # an fp8 / bf8 operand: twice the passes
            return cycles
    return None


LDS_READ_BYTES = {
    "ds_read_b128": 1024, "ds_read_b96": 768, "ds_read_b64": 512, "ds_read2_b64": 1024,
    "ds_read2st64_b64": 1024, "ds_read_b32": 256, "ds_read2_b32": 512, "ds_read_u16": 128,
    "ds_read_u16_d16": 128, "ds_read_u16_d16_hi": 128, "ds_read_b64_tr_b16": 512, "ds_read_u8": 64,
    "ds_read_b64_tr_b8": 512, "ds_read_b64_tr_b4": 512, "ds_read_b96_tr_b6": 768, "ds_read_u8_d16": 64,
    "ds_read_u8_d16_hi": 64, "ds_read_i8": 64,
}


def classify(op):
    if op.startswith("v_mfma") and op not in NOT_MFMA:
        return "mfma"
    if op.startswith(("buffer_load", "global_load")):
        return "vmem load"
    if op.startswith(("buffer_store", "global_store")):
        return "vmem store"
    if op.startswith("ds_read"):
        return "lds read"
    if op.startswith("ds_write"):
        return "lds write"
    if op == "s_waitcnt":
        return "wait"
    if op == "s_barrier":
        return "barrier"
    if op in ("s_setprio", "s_nop"):
        return op
    if op.startswith("s_cbranch") or op == "s_branch":
        return "branch"
    if op.startswith("s_"):
        return "salu"
    if op.startswith("v_"):
        return "valu"
    return "other"


def kernels(text):
    """(name, body) for each function in the file."""
    out = []
    for m in re.finditer(r"^([A-Za-z_.$][\w.$]*):\s*(?:;.*@.*)?$", text, re.M):
        name = m.group(1)
        if name.startswith(".L"):
            continue
        end = text.find(".Lfunc_end", m.end())
        out.append((name, text[m.end():end if end >= 0 else len(text)]))
    return out


def loops(body):
    """Every depth-1 loop: (header label, instruction lines, nested loop count)."""
    lines = body.splitlines()
    found = []
    for i, line in enumerate(lines):
        h = re.match(r"^(\.LBB\w+):.*Loop Header: Depth=1", line)
        if not h:
            continue
        label = h.group(1)
        instrs = []
        nested = 0
        for line2 in lines[i + 1:]:
            if "Inner Loop Header: Depth=2" in line2:
                nested += 1
            t = line2.split(";")[0].strip()
            if not t or t.startswith(".") or t.endswith(":"):
                continue
            instrs.append(t)
            if re.match(r"^s_c?branch\w* " + re.escape(label) + r"$", t):
                break
        found.append((label, instrs, nested))
    return found


def analyse(instrs):
    r = {"mfma": 0, "mfma_cycles": 0, "other": 0, "other_cycles": 0, "lds_read_bytes": 0, "classes": {}}
    for t in instrs:
        op = t.split()[0]
        cls = classify(op)
        r["classes"][cls] = r["classes"].get(cls, 0) + 1
        if cls == "mfma":
            r["mfma"] += 1
            cycles = mfma_cycles(t)
            if cycles is None:
                raise ValueError("unknown MFMA " + op)
            r["mfma_cycles"] += cycles
            continue
        r["other"] += 1
        if op == "s_nop":
            n = int(t.split()[1], 0) if len(t.split()) > 1 else 0
            r["other_cycles"] += max(4, n + 1)
        else:
            r["other_cycles"] += 4
        if cls == "lds read":
            r["lds_read_bytes"] += LDS_READ_BYTES.get(op, 0)
    total = r["mfma_cycles"] + r["other_cycles"]
    r["share"] = r["mfma_cycles"] / total if total else 0.0
    r["lds_per_mfma"] = r["lds_read_bytes"] / r["mfma"] if r["mfma"] else 0.0
    return r


def main_loops(path, kernel=None):
    """(symbol, analysis of its main loop) for each kernel in `path` with MFMAs in a loop."""
    text = open(path, encoding="utf-8", errors="replace").read()
    for name, body in kernels(text):
        if kernel and kernel not in name:
            continue
        best = None
        for _, instrs, nested in loops(body):
            a = analyse(instrs)
            a["nested"] = nested
            a["instrs"] = instrs
            if best is None or a["mfma"] > best["mfma"]:
                best = a
        if best is not None and best["mfma"] > 0:
            yield name, best


def main_loop(path, kernel=None):
    """The analysis of the main loop of the first kernel in `path` matching `kernel`."""
    for found in main_loops(path, kernel):
        return found
    raise ValueError("no main loop with MFMAs in %s (kernel %s)" % (path, kernel))


CLASS_KEYS = ["lds read", "lds write", "vmem load", "valu", "salu", "wait", "barrier", "s_setprio", "s_nop", "branch"]


def best_reference(references):
    """(file name, analysis) of the reference whose main loop has the highest MFMA share."""
    found = [(path.split("/")[-1], main_loop(path)[1]) for path in references.split(",")]
    return max(found, key=lambda f: f[1]["share"])


def class_difference(mine, ref):
    """The reference's other instructions minus mine, by class: "valu +8, salu -3"."""
    keys = sorted(set(mine["classes"]) | set(ref["classes"]), key=lambda k: (CLASS_KEYS + [k]).index(k))
    parts = []
    for k in keys:
        if k == "mfma":
            continue
        d = ref["classes"].get(k, 0) - mine["classes"].get(k, 0)
        if d:
            parts.append("%s %+d" % (k, d))
    return ", ".join(parts) or "none"


def compare(pairs, markdown=False):
    ok = True
    if markdown:
        print("| kernel | MFMA / other | MFMA share | reference (best of those given) | MFMA / other | MFMA share "
              "| LDS B/MFMA | reference's other instructions minus the kernel's |")
        print("|---|---|---|---|---|---|---|---|")
    for pair in pairs:
        left, references = pair.split("=", 1)
        path, kernel = left.rsplit(":", 1)
        _, mine = main_loop(path, kernel)
        ref_name, ref = best_reference(references)
        verdict = "ok" if mine["share"] >= ref["share"] else "BELOW"
        ok = ok and verdict == "ok"
        if markdown:
            print("| %s in %s%s | %d / %d | %.1f %% | %s (of %d) | %d / %d | %.1f %% | %.0f / %.0f | %s |" %
                  (kernel, path.split("/")[-1], "" if verdict == "ok" else " (BELOW)", mine["mfma"], mine["other"],
                   100 * mine["share"],
                   ref_name, len(references.split(",")), ref["mfma"], ref["other"], 100 * ref["share"],
                   mine["lds_per_mfma"], ref["lds_per_mfma"], class_difference(mine, ref)))
        else:
            print("%-6s %-14s %5.1f%% (%d MFMA, %d other)  vs  %-44s %5.1f%% (%d MFMA, %d other)" %
                  (verdict, kernel, 100 * mine["share"], mine["mfma"], mine["other"], ref_name,
                   100 * ref["share"], ref["mfma"], ref["other"]))
    return 0 if ok else 1


def loop_ops(files, kernel=None):
    """The main loop of each kernel by mnemonic."""
    for path in files:
        for name, a in main_loops(path, kernel):
            counts = {}
            for t in a["instrs"]:
                op = t.split()[0]
                counts[op] = counts.get(op, 0) + 1
            print("%s %s: %s" % (path.split("/")[-1], name[-40:],
                                 ", ".join("%d %s" % (n, op) for op, n in
                                           sorted(counts.items(), key=lambda c: (-c[1], c[0])))))
    return 0


def scalar_loops(files):
    ok = True
    for path in files:
        text = open(path, encoding="utf-8", errors="replace").read()
        for name, body in kernels(text):
            for label, instrs, nested in loops(body):
                a = analyse(instrs)
                if a["mfma"] == 0:
                    continue
                readfirstlane = sum(1 for t in instrs if t.startswith("v_readfirstlane"))
                bad = nested > 0 or readfirstlane > 0
                ok = ok and not bad
                print("%-4s %s %s: %d nested loops, %d readfirstlane" %
                      ("BAD" if bad else "ok", path.split("/")[-1], name[-50:], nested, readfirstlane))
    return 0 if ok else 1


def loop_without(pattern, files):
    """Exit status 1 if a main loop (of any kernel in `files`) holds a mnemonic matching `pattern`."""
    regex = re.compile(pattern)
    ok = True
    found = 0
    for path in files:
        for name, a in main_loops(path):
            found += 1
            hits = {}
            for t in a["instrs"]:
                op = t.split()[0]
                if regex.fullmatch(op):
                    hits[op] = hits.get(op, 0) + 1
            ok = ok and not hits
            print("%-4s %s %s: %s" % ("BAD" if hits else "ok", path.split("/")[-1], name[-50:],
                                      ", ".join("%d %s" % (n, op) for op, n in sorted(hits.items())) or
                                      "none of " + pattern))
    if found == 0:
        print("mfma_loop_proxy: no main loop with MFMAs found", file=sys.stderr)
        return 1
    return 0 if ok else 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--kernel", default=None, help="substring of the kernel symbol")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--at-least", nargs="+", default=None, metavar="FILE:KERNEL=REFERENCE[,REFERENCE...]")
    ap.add_argument("--ops", action="store_true", help="list each main loop's instructions by mnemonic")
    ap.add_argument("--scalar-loops", action="store_true",
                    help="exit 1 if a kernel's main loop holds a nested loop or a readfirstlane: an "
                         "operand the compiler put in VGPRs where an SGPR was meant (a waterfall loop)")
    ap.add_argument("--loop-without", default=None, metavar="REGEX",
                    help="exit 1 if a kernel's main loop holds an instruction whose mnemonic matches REGEX")
    args = ap.parse_args(argv)
    if args.at_least:
        return compare(args.at_least, args.markdown)
    if args.ops:
        return loop_ops(args.files, args.kernel)
    if args.scalar_loops:
        return scalar_loops(args.files)
    if args.loop_without:
        return loop_without(args.loop_without, args.files)
    rows = []
    for path in args.files:
        rows.extend((path, name, a) for name, a in main_loops(path, args.kernel))
    if not rows:
        print("mfma_loop_proxy: no main loop with MFMAs found", file=sys.stderr)
        return 1
    keys = ["mfma"] + CLASS_KEYS
    head = ["file", "kernel", "MFMA", "MFMA cyc", "other instr", "other cyc", "MFMA share", "LDS B/MFMA"] + keys[1:]
    table = []
    for path, name, a in rows:
        table.append([path.split("/")[-1], name[-40:], str(a["mfma"]), str(a["mfma_cycles"]), str(a["other"]),
                      str(a["other_cycles"]), "%.1f%%" % (100 * a["share"]), "%.0f" % a["lds_per_mfma"]] +
                     [str(a["classes"].get(k, 0)) for k in keys[1:]])
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for row in table:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for row in table:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
