"""Is htmldate worth calling on the pages where our own date search finds nothing?

    python benchmarks/date_fallback.py            # every dated set (../shared/meta, fundus-dev)
    python benchmarks/date_fallback.py --meta htmldate-mediacloud

For each dated set: how many pages our extractor dates right, how many it leaves undated,
and, on those undated pages only, how often htmldate's extensive search gives the gold day,
a wrong day, or nothing, with the CPU each side spends. Pages and gold days are read and
normalised by ``../shared/meta/score_meta.py`` itself. Needs htmldate (benchmarks/requirements.txt).
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import common

common.use_repo_package()

import accuracy  # noqa: E402  (after the repo package is on the path)
from newscrawl.extract.meta_fields import extract_metadata  # noqa: E402


def load_meta_scorer(shared: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("shared_score_meta", shared / "meta" / "score_meta.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure_set(scorer: ModuleType, folder: Path, find_date) -> dict:
    counts = {"pages": 0, "ours_right": 0, "ours_wrong": 0, "undated": 0,
              "fallback_right": 0, "fallback_wrong": 0, "fallback_none": 0,
              "ours_cpu_s": 0.0, "fallback_cpu_s": 0.0}
    for row in scorer.load_dataset(str(folder)):
        gold = scorer.to_day(row.get("date"))
        if not gold:
            continue
        html = scorer.decode_html(scorer.read_page(str(folder), row["id"]))
        counts["pages"] += 1
        started = time.process_time()
        ours = scorer.to_day(scorer.get_field(extract_metadata(html, row.get("url")), "date"))
        counts["ours_cpu_s"] += time.process_time() - started
        if ours:
            counts["ours_right" if ours == gold else "ours_wrong"] += 1
            continue
        counts["undated"] += 1
        started = time.process_time()
        theirs = scorer.to_day(find_date(html, url=row.get("url"), extensive_search=True))
        counts["fallback_cpu_s"] += time.process_time() - started
        counts["fallback_none" if not theirs else "fallback_right" if theirs == gold else "fallback_wrong"] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", help="the shared data folder (default: ../shared beside the repo)")
    parser.add_argument("--meta", action="append", help="a dated set by name (repeatable; default: all)")
    args = parser.parse_args(argv)
    shared = common.shared_dir(args.shared)
    common.skip_without_shared(shared)
    try:
        from htmldate import find_date
    except ImportError:
        print("htmldate is not installed: pip install -r benchmarks/requirements.txt", file=sys.stderr)
        return 2
    scorer = load_meta_scorer(shared)
    print(f"{'set':24} {'pages':>5} {'right':>5} {'wrong':>5} {'undated':>7} | htmldate on undated: "
          f"{'right':>5} {'wrong':>5} {'none':>4} | cpu ours / fallback")
    for folder in accuracy.meta_sets_in(shared, args.meta):
        c = measure_set(scorer, folder, find_date)
        print(f"{folder.name:24} {c['pages']:5} {c['ours_right']:5} {c['ours_wrong']:5} {c['undated']:7} | "
              f"{'':21}{c['fallback_right']:5} {c['fallback_wrong']:5} {c['fallback_none']:4} | "
              f"{c['ours_cpu_s']:.1f} s / {c['fallback_cpu_s']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
