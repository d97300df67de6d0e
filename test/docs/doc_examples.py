#!/usr/bin/env python3
"""Compile the C++ examples of the README and docs/ (ctest label `docs`).

A fenced block is compiled when its info string says so:
    ```cpp compile      host code, compiled with the host compiler (-fsyntax-only)
    ```cuda compile     CUDA code (it launches kernels), compiled with nvcc for sm_90a
Every other ```cpp / ```c++ / ```cuda block is an error: an example the reader may copy
must be one that compiles (write signatures and sketches as ```text).

The page's relative links ([text](path)) must name files or folders that exist.

Each block is a translation unit of its own: it carries its includes, and the page may add
a prelude prepended to each of its blocks, written once in an HTML comment:
    <!-- docs-prelude
    using namespace tessera;
    -->

    doc_examples.py list  ROOT PAGE...                      kinds each page holds (for CMake)
    doc_examples.py check ROOT PAGE KIND OUTDIR COMPILER... compile the page's blocks of KIND
"""
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^(\s*)```(.*)$")
PRELUDE = re.compile(r"<!--\s*docs-prelude\s*\n(.*?)-->", re.S)
CODE_LANGUAGES = {"cpp", "c++", "cuda"}


class Block:
    def __init__(self, page, line, language, compiled, text):
        self.page, self.line, self.language, self.compiled, self.text = page, line, language, compiled, text

    @property
    def kind(self):
        return "cuda" if self.language == "cuda" else "cpp"


def blocks(path):
    """The fenced code blocks of a Markdown page, with the line each opens on."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, words = m.group(1), m.group(2).split()
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1  # the closing fence
        language = words[0].lower() if words else ""
        found.append(Block(path, start, language, "compile" in words[1:], "\n".join(body) + "\n"))
    return found


def prelude(path):
    return "\n".join(m.group(1) for m in PRELUDE.finditer(open(path, encoding="utf-8").read()))


def code_blocks(path):
    """The page's C++ blocks; an unmarked one is reported and makes the page fail."""
    code = [b for b in blocks(path) if b.language in CODE_LANGUAGES]
    unmarked = [b for b in code if not b.compiled]
    for b in unmarked:
        print(f"{b.page}:{b.line}: a ```{b.language} block without `compile`: mark it "
              f"(```{b.language} compile) so a test compiles it, or make it ```text")
    return code, not unmarked


LINK = re.compile(r"\]\(([^)\s]+)\)")


def broken_links(path):
    """Relative link targets of the page that do not exist (outside code blocks)."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    broken = []
    for m in LINK.finditer(text):
        target = m.group(1).split("#")[0]
        if not target or re.match(r"^[a-z]+:", target):
            continue
        if not os.path.exists(os.path.join(os.path.dirname(path), target)):
            line = text.count("\n", 0, m.start()) + 1
            broken.append((line, target))
    return broken


def list_kinds(root, pages):
    for page in pages:
        code, _ = code_blocks(os.path.join(root, page))
        kinds = sorted({b.kind for b in code if b.compiled})
        print(f"{page}:{','.join(kinds)}")


def check(root, page, kind, outdir, compiler):
    path = os.path.join(root, page)
    code, marked = code_blocks(path)
    os.makedirs(outdir, exist_ok=True)
    head = prelude(path)
    stem = re.sub(r"[^A-Za-z0-9]+", "_", page)
    failed = 0
    chosen = [b for b in code if b.compiled and b.kind == kind]
    for b in chosen:
        suffix = ".cu" if kind == "cuda" else ".cpp"
        tu = os.path.join(outdir, f"{stem}_{b.line}{suffix}")
        with open(tu, "w", encoding="utf-8") as f:
            f.write(head + "\n" if head else "")
            f.write(f'#line {b.line + 1} "{path}"\n')  # errors point into the page
            f.write(b.text)
        if kind == "cuda":
            out = tu[: -len(suffix)] + ".o"
            command = compiler + ["-c", tu, "-o", out]
        else:
            command = compiler + ["-fsyntax-only", tu]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        status = "ok" if result.returncode == 0 else "FAILED"
        print(f"{page}:{b.line}: {status}")
        if result.returncode != 0:
            failed += 1
            print(result.stdout)
    print(f"{page}: {len(chosen) - failed} of {len(chosen)} {kind} examples compile")
    links_ok = True
    if kind == "cpp":  # once per page
        for line, target in broken_links(path):
            print(f"{page}: a link to {target}, which does not exist")
            links_ok = False
    return 0 if failed == 0 and marked and links_ok else 1


def main(argv):
    if len(argv) >= 3 and argv[1] == "list":
        list_kinds(argv[2], argv[3:])
        return 0
    if len(argv) >= 7 and argv[1] == "check":
        return check(argv[2], argv[3], argv[4], argv[5], argv[6:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
