#!/usr/bin/env python3
"""The compiled walks and the pure-Python walks give identical ``extract()`` results on every page.

    python benchmarks/compiled_parity.py                     # every page of ../shared/eval and ../shared/meta
    python benchmarks/compiled_parity.py --pages tests/pages --limit 50

Two processes extract the same raw page bytes (with the page's URL from truth.jsonl and one
fixed fetch time), one with the compiled walks and one with ``NEWSCRAWL_PURE_PYTHON=1``; every
field of every result (``ExtractResult.to_dict()``, floats to the bit) must be equal. Exit 0
when all are, 1 with the differing pages and fields listed, 2 when the compiled walks are not
built (nothing to compare). Without ../shared (and no --pages) it prints why and exits 0.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

import common

FETCHED_AT = "2026-01-01T00:00:00+00:00"   # one fetch time for both walks (dates are judged against it)
SHOWN_DIFFERENCES = 20                      # differing pages listed in full; the rest are counted


def pages_of(folder: Path, limit: int | None) -> list[tuple[str, Path, str | None]]:
    """(name, path, url) of the pages under ``folder``: datasets with pages/ (and truth.jsonl or
    cases.jsonl for the URL), or the page cases of tests/pages (``*/source.html``)."""
    found = []
    for pages in sorted(folder.glob("*/pages")):
        urls = {}
        for listing in (pages.parent / "truth.jsonl", pages.parent / "cases.jsonl"):   # the sets' page lists
            if listing.is_file():
                for line in listing.read_text(encoding="utf-8").split("\n"):   # not splitlines: texts hold U+2028
                    if line.strip():
                        record = json.loads(line)
                        urls[str(record["id"])] = record.get("url")
        paths = sorted(p for p in pages.iterdir() if p.name.endswith((".html", ".html.gz")))[:limit]
        for path in paths:
            page_id = path.name.removesuffix(".gz").removesuffix(".html")
            found.append((f"{pages.parent.name}/{path.name}", path, urls.get(page_id)))
    for path in sorted(folder.glob("*/source.html"))[:limit]:
        found.append((path.parent.name, path, None))
    return found


def extract_all(listing: Path, output: Path) -> None:
    """The worker: extract every page of the listing, one JSON line per page (in this process's walks)."""
    common.use_repo_package()
    from newscrawl.extract import extract, fastwalk

    fetched_at = datetime.fromisoformat(FETCHED_AT)
    with output.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"walks": fastwalk.report.kind}) + "\n")
        for name, path, url in json.loads(listing.read_text(encoding="utf-8")):
            data = Path(path).read_bytes()
            if path.endswith(".gz"):
                data = gzip.decompress(data)
            try:
                result = extract(data, url, fetched_at=fetched_at).to_dict()
            except Exception as error:  # noqa: BLE001 - an exception is a result to compare too
                result = {"exception": f"{type(error).__name__}: {error}"}
            out.write(json.dumps({"page": name, "result": result}, ensure_ascii=False) + "\n")


def run_both(pages: list[tuple[str, Path, str | None]]) -> tuple[dict, dict]:
    """The results of the compiled and of the Python walks, extracted at the same time in two processes."""
    with tempfile.TemporaryDirectory() as scratch:
        listing = Path(scratch) / "pages.json"
        listing.write_text(json.dumps([(name, str(path), url) for name, path, url in pages]), encoding="utf-8")
        runs = {}
        for walks, switch in (("compiled", "0"), ("python", "1")):
            output = Path(scratch) / f"{walks}.jsonl"
            env = {**os.environ, "NEWSCRAWL_PURE_PYTHON": switch}
            runs[walks] = (output, subprocess.Popen([sys.executable, __file__, "--worker", str(listing), str(output)],
                                                    env=env))
        for walks, (_, process) in runs.items():
            if process.wait() != 0:
                raise SystemExit(f"the {walks} walks' worker failed (exit {process.returncode})")
        return tuple(_read(output) for output, _ in runs.values())


def _read(output: Path) -> dict:
    lines = [json.loads(line) for line in output.read_text(encoding="utf-8").split("\n") if line]
    return {"walks": lines[0]["walks"], "results": {line["page"]: line["result"] for line in lines[1:]}}


def differences(compiled: dict, python: dict) -> dict[str, list[str]]:
    """Page -> the fields whose values differ (every page of either side)."""
    found = {}
    for page in sorted(set(compiled) | set(python)):
        left, right = compiled.get(page, {}), python.get(page, {})
        fields = sorted(key for key in set(left) | set(right) if left.get(key, "<missing>") != right.get(key, "<missing>"))
        if fields:
            found[page] = fields
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", help="the shared data folder (default ../shared beside the repo)")
    parser.add_argument("--pages", action="append", help="compare the pages under this folder instead (repeatable)")
    parser.add_argument("--limit", type=int, help="first N pages per dataset (quick look)")
    parser.add_argument("--worker", nargs=2, metavar=("LISTING", "OUTPUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        extract_all(Path(args.worker[0]), Path(args.worker[1]))
        return 0
    if args.pages:
        folders = [Path(folder) for folder in args.pages]
    else:
        shared = common.shared_dir(args.shared)
        folders = [shared / "eval", shared / "meta"]
        if not all(folder.is_dir() for folder in folders):
            print(f"skipped: no evaluation pages at {shared} (expected {shared}/eval and {shared}/meta)")
            return 0
    pages = [page for folder in folders for page in pages_of(folder, args.limit)]
    compiled, python = run_both(pages)
    if compiled["walks"] != "compiled":
        print(f"the compiled walks are not in use ({compiled['walks']}): nothing to compare", file=sys.stderr)
        return 2
    found = differences(compiled["results"], python["results"])
    for page, fields in list(found.items())[:SHOWN_DIFFERENCES]:
        print(f"DIFFERENT {page}: {', '.join(fields)}")
    if len(found) > SHOWN_DIFFERENCES:
        print(f"... and {len(found) - SHOWN_DIFFERENCES} more pages")
    print(f"{len(pages)} pages in {', '.join(str(f) for f in folders)}: "
          f"{len(pages) - len(found)} identical, {len(found)} different")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
