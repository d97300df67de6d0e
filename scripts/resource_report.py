#!/usr/bin/env python3
"""Per-kernel resource table from compiler output, for AMD and NVIDIA side by side.

Inputs (the kind of each file is recognised from its contents):
  - AMDGPU assembly (.s from clang -S): the code object metadata between
    .amdgpu_metadata and .end_amdgpu_metadata gives, per kernel, .vgpr_count,
    .agpr_count, .sgpr_count, .vgpr_spill_count, .sgpr_spill_count,
    .private_segment_fixed_size (scratch) and .group_segment_fixed_size (LDS);
    the "; Occupancy:" comment after each kernel adds waves per SIMD.
  - ptxas -v reports (nvcc -Xptxas -v output): "Compiling entry function",
    "N bytes stack frame, N bytes spill stores, N bytes spill loads" and
    "Used N registers, ... N bytes smem".

Kernels are named the short way (namespaces dropped, f32/f16/bf16 for the element types,
R/C for row/column major, 128x256x16 for a GemmShape, no parameter list), each with a
number; --full-names FILE writes every number's full demangled name to FILE. Kernels a
binary carries for another target (a Dispatch over several architectures compiles each
configuration's body only for its own target) are left out of the table and counted.

Usage: resource_report.py [--markdown] [--fail-on-spill] [--full-names FILE] FILE...
Exit status 1 if a file cannot be read or holds no kernel, or with --fail-on-spill
when any kernel spills or uses scratch.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

# One row of the table. Fields absent on a vendor stay None and print as "-".
COLUMNS = [
    ("id", "#"),
    ("target", "target"),
    ("kernel", "kernel"),
    ("regs", "VGPRs/regs"),
    ("agprs", "AGPRs"),
    ("sgprs", "SGPRs"),
    ("spills", "spills"),
    ("scratch", "scratch/stack B"),
    ("smem", "LDS/smem B"),
    ("occupancy", "waves/SIMD"),
    ("source", "file"),
]


def new_row(target, kernel, source):
    row = {key: None for key, _ in COLUMNS}
    row.update(target=target, kernel=kernel, source=source)
    row["spilled"] = False
    return row


# ---- AMD ------------------------------------------------------------------------------

AMD_FIELDS = {
    ".vgpr_count": "regs",
    ".agpr_count": "agprs",
    ".sgpr_count": "sgprs",
    ".private_segment_fixed_size": "scratch",
    ".group_segment_fixed_size": "smem",
    ".vgpr_spill_count": "vgpr_spill",
    ".sgpr_spill_count": "sgpr_spill",
}


def parse_amd(text, source):
    target_match = re.search(r"^amdhsa\.target:\s+\S*--(gfx\w+)", text, re.M) or re.search(
        r'\.amdgcn_target\s+"\S*--(gfx\w+)', text)
    target = target_match.group(1) if target_match else "amdgcn"

    # Occupancy is only in the comment block that follows each function's code.
    occupancy = {}
    current = None
    for line in text.splitlines():
        label = re.match(r"^([\w.$]+):\s*;\s*@", line)
        if label:
            current = label.group(1)
        occ = re.match(r"^; Occupancy:\s*(\d+)", line)
        if occ and current:
            occupancy[current] = int(occ.group(1))

    meta = re.search(r"^\s*\.amdgpu_metadata\s*$(.*?)^\s*\.end_amdgpu_metadata", text, re.M | re.S)
    if not meta:
        return []
    rows = []
    in_kernels = False
    row = None
    for line in meta.group(1).splitlines():
        if re.match(r"^amdhsa\.kernels:", line):
            in_kernels = True
            continue
        if in_kernels and re.match(r"^\S", line):  # the next top-level key ends the list
            in_kernels = False
        if not in_kernels:
            continue
        # A kernel entry starts with "  - "; its own keys sit at four spaces. Deeper
        # lines (the .args list) are skipped.
        entry = re.match(r"^  - (\.\w+):\s*(.*)$", line)
        key_line = re.match(r"^    (\.\w+):\s*(.*)$", line)
        if entry:
            row = new_row(target, None, source)
            rows.append(row)
            key_line = entry
        if not key_line or row is None:
            continue
        key, value = key_line.group(1), key_line.group(2).strip()
        if key == ".name":
            row["kernel"] = value
        elif key in AMD_FIELDS and value.isdigit():
            row[AMD_FIELDS[key]] = int(value)

    for row in rows:
        vs, ss = row.pop("vgpr_spill", 0) or 0, row.pop("sgpr_spill", 0) or 0
        row["spills"] = "v%d/s%d" % (vs, ss)
        row["spilled"] = vs > 0 or ss > 0 or (row["scratch"] or 0) > 0
        row["occupancy"] = occupancy.get(row["kernel"])
    return rows


# ---- NVIDIA ---------------------------------------------------------------------------

def parse_ptxas(text, source):
    rows = []
    by_name = {}
    current = None  # the function the next "bytes stack frame" line belongs to
    for line in text.splitlines():
        entry = re.search(r"Compiling entry function '([^']+)' for '(\w+)'", line)
        if entry:
            row = new_row(entry.group(2), entry.group(1), source)
            rows.append(row)
            by_name[entry.group(1)] = row
            current = row
            continue
        props = re.search(r"Function properties for (\S+)", line)
        if props:
            # Non-entry device functions get properties too; they are not rows.
            current = by_name.get(props.group(1))
            continue
        frame = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                          line)
        if frame and current is not None:
            stack, stores, loads = (int(g) for g in frame.groups())
            current["scratch"] = stack
            current["spills"] = "%dB/%dB" % (stores, loads)
            current["spilled"] = stores > 0 or loads > 0
            continue
        used = re.search(r"Used (\d+) registers", line)
        if used and rows:
            # "Used ..." follows the properties of the entry compiled last.
            row = rows[-1]
            row["regs"] = int(used.group(1))
            smem = re.search(r"(\d+) bytes smem", line)
            row["smem"] = int(smem.group(1)) if smem else 0
    return rows


# ---- output ---------------------------------------------------------------------------

def demangle(names):
    tool = shutil.which("c++filt") or shutil.which("llvm-cxxfilt-22")
    mangled = [n for n in names if n and n.startswith("_Z")]
    if not tool or not mangled:
        return {}
    try:
        out = subprocess.run([tool], input="\n".join(mangled), capture_output=True, text=True,
                             check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return {}
    return dict(zip(mangled, out))


# Short names: applied in order to a demangled name.
SHORTENINGS = [
    (r"^void ", ""),
    (r"\btessera::(gemm::|amd::|nvidia::)?", ""),
    (r"\bGemmShape<(\d+), (\d+), (\d+)>", r"\1x\2x\3"),
    (r"\bbfloat16_t\b", "bf16"),
    (r"\bhalf_t\b", "f16"),
    (r"\bfloat\b", "f32"),
    (r"\bRowMajor\b", "R"),
    (r"\bColumnMajor\b", "C"),
]


def strip_parameters(name):
    """Drops the trailing parameter list "(...)" of a demangled function name."""
    if not name.endswith(")"):
        return name
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(name[i], 0)
        if depth == 0:
            return name[:i]
    return name


def short_name(name):
    name = strip_parameters(name)
    for pattern, repl in SHORTENINGS:
        name = re.sub(pattern, repl, name)
    return name


# The architecture tag a kernel's configuration was written for, and the compiler
# targets that run it (Sm80 code also runs on later NVIDIA targets).
def built_for_other_target(name, target):
    tag = re.search(r"\btessera::(Sm80|Sm90|Sm100|Gfx942|Gfx950)\b", name)
    if not tag or not target:
        return False
    tag = tag.group(1)
    if tag.startswith("Gfx"):
        return target.startswith("gfx") and target != tag.lower()
    if not target.startswith("sm_"):
        return True
    sm = int(re.match(r"sm_(\d+)", target).group(1))
    want = int(tag[2:])
    return sm < want if tag == "Sm80" else sm != want


def cell(value):
    return "-" if value is None else str(value)


def print_table(rows, markdown):
    headers = [title for _, title in COLUMNS]
    table = [[cell(row[key]) for key, _ in COLUMNS] for row in rows]
    if markdown:
        print("| " + " | ".join(headers) + " |")
        print("|" + "|".join("---" for _ in headers) + "|")
        for line in table:
            print("| " + " | ".join(line) + " |")
        return
    widths = [max(len(h), *(len(line[i]) for line in table)) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for line in table:
        print("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="AMDGPU .s files and ptxas -v reports")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--full-names", metavar="FILE",
                        help="write each kernel's number and full demangled name to FILE")
    parser.add_argument("--fail-on-spill", action="store_true",
                        help="exit 1 if any kernel spills or uses scratch / a stack frame")
    args = parser.parse_args(argv)

    rows = []
    ok = True
    for path in args.files:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            print("resource_report: cannot read %s: %s" % (path, e), file=sys.stderr)
            ok = False
            continue
        source = os.path.basename(path)
        if ".amdgpu_metadata" in text:
            found = parse_amd(text, source)
        elif "ptxas info" in text:
            found = parse_ptxas(text, source)
        else:
            found = []
        if not found:
            print("resource_report: no kernel found in %s (neither AMDGPU assembly with metadata "
                  "nor a ptxas -v report)" % path, file=sys.stderr)
            ok = False
        rows.extend(found)

    names = demangle([row["kernel"] for row in rows])
    for row in rows:
        row["full"] = names.get(row["kernel"], row["kernel"])
    compiled_out = [row for row in rows if built_for_other_target(row["full"], row["target"])]
    rows = [row for row in rows if row not in compiled_out]
    for number, row in enumerate(rows, 1):
        row["id"] = number
        row["kernel"] = short_name(row["full"])
    if args.full_names:
        with open(args.full_names, "w", encoding="utf-8") as f:
            for row in rows:
                f.write("%d\t%s\t%s\n" % (row["id"], row["target"], row["full"]))
    if rows:
        print_table(rows, args.markdown)
        print("spills: AMD v<VGPRs>/s<SGPRs> spilled (registers), NVIDIA <stores>B/<loads>B. "
              "Static numbers from the compilers' output; nothing here ran on a GPU.")
        if compiled_out:
            print("Left out: %d entries a binary carries for another target (compiled empty there)."
                  % len(compiled_out))
        if args.full_names:
            print("Full kernel names by number: %s" % args.full_names)

    if args.fail_on_spill:
        bad = [row for row in rows if row["spilled"]]
        for row in bad:
            print("resource_report: %s %s spills or uses scratch" % (row["target"], row["kernel"]),
                  file=sys.stderr)
        ok = ok and not bad
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
