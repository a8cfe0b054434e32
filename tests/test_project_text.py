"""The project's text speaks to its users, not of how it was made.

README.md, docs/, the package and the benchmarks must not mention numbered work periods
("session 14", "the fourteenth session"), issue numbers ("issue 2", "#12"), commit hashes, or
paths under /tmp (scratch scripts nobody else has). A threshold's origin is a dataset and a
figure, or a command of benchmarks/ that reproduces it. The README stays a manual: under 25 KB.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README_MAX_BYTES = 25 * 1024
# Text files of the project that users read; generated C (Cython's _fastwalk.c) and binaries are not scanned.
SCANNED_SUFFIXES = {".md", ".py", ".pyx", ".pxd", ".txt", ".json", ".yaml", ".yml", ".cfg", ".toml", ".ini"}
SCANNED_ROOTS = ("README.md", "docs", "newscrawl", "benchmarks")

_ORDINALS = ("first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
             "fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth")
# (what it is, pattern). Each pattern is checked on every line of every scanned file.
BOOKKEEPING = (
    ("a numbered work period", re.compile(
        rf"\bsessions?\s+\d+|\b(?:{_ORDINALS})\s+session\b|\b(?:this|that|last|previous|next|the)\s+session(?:'s)?\b"
        r"|\bsession's\b", re.I)),
    ("an issue number", re.compile(r"\bissues?\s+#?\d+|\bissue\s+#|(?<!site )(?<![\w&/#'\"{-])#\d+\b", re.I)),
    # 7 to 40 lowercase hex digits with at least one letter and one digit, standing alone: not part of a
    # path, URL, file name, identifier or longer word (c1234567.shtml, /a/2024/0514/, 0x1f, #ff00aa).
    ("a commit hash", re.compile(
        r"(?<![\w/.#\\-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w/\\-]|\.\w)")),
    ("a /tmp path", re.compile(r"/tmp\b")),
)


def scanned_files() -> list[Path]:
    files = []
    for root in SCANNED_ROOTS:
        path = REPO / root
        if path.is_file():
            files.append(path)
            continue
        files += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in SCANNED_SUFFIXES
                        and "__pycache__" not in p.parts and not p.name.startswith("_fastwalk.c"))
    return files


def bookkeeping_lines(files: list[Path]) -> list[str]:
    """``file:line: what: text`` for every line that names how the project was made."""
    found = []
    for path in files:
        relative = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for what, pattern in BOOKKEEPING:
                match = pattern.search(line)
                if match:
                    found.append(f"{relative}:{number}: {what} ({match.group(0)!r}): {line.strip()[:120]}")
    return found


@pytest.mark.parametrize("text, what", [
    ("measured in session 14 on the new machine", "a numbered work period"),
    ("the fourteenth session added a rule", "a numbered work period"),
    ("since this session's change", "a numbered work period"),
    ("Goals (issue 2): at most 1/4", "an issue number"),
    ("fixed as asked in #12, then", "an issue number"),
    ("a run on 9e4baca gave 3.366x", "a commit hash"),
    ("(506f766, 2026-11-23)", "a commit hash"),
    ("timed with /tmp/s12/loop.py", "a /tmp path"),
    ("a `/tmp` script over the pages", "a /tmp path"),
])
def test_the_patterns_find_bookkeeping(tmp_path, text, what):
    page = tmp_path / "note.md"
    page.write_text(f"first line\n{text}\n", encoding="utf-8")
    found = bookkeeping_lines([page])
    assert len(found) == 1 and f":2: {what}" in found[0], found


@pytest.mark.parametrize("text", [
    "A long numeric id in the last segment: /123456.html, /a/2024/0514/c1234567.shtml.",
    "dates such as 2026-11-22 and 20180902, colours #ff00aa, hex 0x1f2e3d4c",
    "a DevTools session of each page; session ids in URLs",
    "site #3: key 'name': duplicate name",
    "the SHA-256 of the source, a MinHash of 128 permutations",
])
def test_the_patterns_leave_product_text_alone(tmp_path, text):
    page = tmp_path / "note.md"
    page.write_text(text + "\n", encoding="utf-8")
    assert bookkeeping_lines([page]) == []


def test_scan_covers_the_project():
    names = {p.relative_to(REPO).as_posix() for p in scanned_files()}
    assert {"README.md", "docs/MEASUREMENTS.md", "newscrawl/settings.py", "newscrawl/extract/_fastwalk.pyx",
            "benchmarks/speed.py", "benchmarks/floors.json"} <= names
    assert not any(name.endswith("_fastwalk.c") for name in names)


def test_no_bookkeeping_in_readme_docs_package_and_benchmarks():
    found = bookkeeping_lines(scanned_files())
    assert not found, f"{len(found)} line(s) speak of how the project was made:\n" + "\n".join(found)


def test_readme_is_a_manual_of_under_25_kb():
    size = (REPO / "README.md").stat().st_size
    assert size < README_MAX_BYTES, f"README.md is {size} bytes; the limit is {README_MAX_BYTES}: move detail to docs/"
