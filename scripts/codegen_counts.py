#!/usr/bin/env python3
"""Per kernel, the instructions whose counts differ between two PTX or AMD assembly files
(scripts/codegen_snapshot.sh --compare): a register renumbering or a moved kernel parameter
shows as no change at all, a new instruction as a changed count."""
import collections
import re
import sys


def kernels(path):
    text = open(path).read()
    if path.endswith(".ptx"):
        parts = re.split(r"\n(?=(?:\.visible |\.weak )?\.(?:entry|func))", text)
        pattern = r"(?:\.visible |\.weak )?\.(?:entry|func) (?:\([^)]*\) )?(\S+?)\("
    else:
        parts = re.split(r"\n(?=\s*\.globl)", text)
        pattern = r"\s*\.globl\s+(\S+)"
    found = {}
    for part in parts:
        m = re.match(pattern, part)
        if m:
            found[m.group(1)] = part
    return found


def histogram(body, amd):
    pattern = r"^\s+([a-z_][\w.]*)\s" if amd else r"^\s+(?:@%?!?\w+\s+)?([a-z][\w.:]*)"
    return collections.Counter(o for o in re.findall(pattern, body, re.M) if not o.startswith("."))


def main():
    amd = sys.argv[1].endswith(".s")
    before, after = kernels(sys.argv[1]), kernels(sys.argv[2])
    if len(before) != len(after):
        print(f"    {len(before)} kernels before, {len(after)} after")
    for x, y in zip(sorted(before), sorted(after)):
        a, b = histogram(before[x], amd), histogram(after[y], amd)
        changed = sorted((k, a[k], b[k]) for k in set(a) | set(b) if a[k] != b[k])
        if changed:
            print(f"    {sum(a.values())} -> {sum(b.values())} instructions: {y}")
            print("      " + ", ".join(f"{k} {n}->{m}" for k, n, m in changed))


if __name__ == "__main__":
    main()
