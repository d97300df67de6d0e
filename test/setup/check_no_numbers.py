#!/usr/bin/env python3
"""Fails when a header under include/ carries a measurement, a date, a version tag or an issue number.

Measurements belong to benchmark/notes/*.md, where the device, the command and the date sit
beside them; a header may point there ("benchmark/notes/wgmma.md, section X") but says why in
words. Read are the comments and string literals of every header (code is not: `64 % n` and
asm operands like "%0" are no measurements). Flagged:
  - a percentage (`13-43%`, `67 %,`), a ratio (`0.8x`, `2x slower`);
  - a rate (TFLOP/s, GFLOP/s, TB/s, GB/s) or the word "measured";
  - a date (2026-11-25) or a version tag of a past piece of work (`v4`, `v1-v5`);
  - an issue number (`issue 17`, `#17`).
ALLOWED lists the few lines that must keep such a token, with the reason.

Usage: check_no_numbers.py [ROOT]   (ROOT: the repository, default .)
"""
import pathlib
import re
import sys

PATTERNS = [
    ("percentage", re.compile(r"\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?(?:%|"
                                r" %(?=\s*(?:$|[,.;:)\]]|of\b|below\b|above\b|faster\b|slower\b|more\b|less\b)))")),
    ("ratio", re.compile(r"(?<![\w.])\d+(?:\.\d+)?x(?![\w.])")),
    ("rate", re.compile(r"[TG]FLOP|[TG]B/s")),
    ("'measured'", re.compile(r"\b[Mm]easur(?:ed|ement)")),
    ("date", re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")),
    ("version tag", re.compile(r"(?<![.\w])v\d+(?!\.\d)\b")),
    ("issue number", re.compile(r"\b[Ii]ssues? \d+|(?<![\w&])#\d+\b")),
]

# (path, text on the line, why it stays)
ALLOWED = [
    ("include/tessera/arch/nvidia/tcgen05.hpp", "tcgen05_mma_block_scale_vec_{1x,2x,4x}",
     "the names of CUDA's intrinsics, not ratios"),
    ("include/tessera/mma/umma_block_scaled_atom.hpp", "tcgen05_mma_block_scale_vec_{1x,2x,4x}",
     "the names of CUDA's intrinsics, not ratios"),
    ("include/tessera/gemm/select/cost_table.hpp", "TFLOP/s of the whole device at full occupancy, per entry.",
     "the unit of the cost model's generated data table (scripts/fit_cost_model.py), not a claim"),
]


# Lines of headers other helpers own, reported to the lead to be moved to the notes; an entry
# here stops failing the test only for that exact text, so a new line still fails. Remove an
# entry once its line is fixed (the test then says nothing about it).
PENDING = []


def comments_and_strings(text):
    """Yields (line number, text) for each comment and string literal of C++ source."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield line, text[i + 2:j]
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            for k, part in enumerate(text[i + 2:j].split("\n")):
                yield line + k, part
            line += text.count("\n", i, j)
            i = j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                yield line, text[i + 1:j]
            i = j + 1
        else:
            i += 1


def main(root):
    problems, pending = [], []
    headers = sorted((root / "include").rglob("*.hpp"))
    for path in headers:
        rel = path.relative_to(root).as_posix()
        for line, text in comments_and_strings(path.read_text(errors="replace")):
            for what, pattern in PATTERNS:
                m = pattern.search(text)
                if not m or any(rel == p and t in text for p, t, _ in ALLOWED):
                    continue
                if any(rel == p and t == text.strip() for p, t, _ in PENDING):
                    pending.append(f"{rel}:{line}")
                    continue
                problems.append(f"{rel}:{line}: {what} '{m.group(0)}' in \"{text.strip()[:100]}\"")
    for p in problems:
        print(p)
    if pending:
        print(f"{len(pending)} known lines of other owners still to move (PENDING): {', '.join(sorted(set(pending)))}")
    print(f"{len(headers)} headers, {len(problems)} measured numbers, dates, version tags or issue numbers"
          + (" (move them to benchmark/notes/ and point there)" if problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
