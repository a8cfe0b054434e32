#!/usr/bin/env python3
"""Accuracy gate: the shared scorers on every dataset, checked against floors in floors.json.

    python benchmarks/accuracy.py                   # measure and print, no gate
    python benchmarks/accuracy.py --check           # exit 1 if a figure is below its floor
    python benchmarks/accuracy.py --peers           # also trafilatura/readability (text), htmldate/gne (meta)
    python benchmarks/accuracy.py --update-floors   # raise floors to today's figures (never lowers one)

Text: ``../shared/eval/score.py --extractor newscrawl.extract:extract`` over every
dataset in ../shared/eval (token F1 and LCS F1 per dataset). Metadata:
``../shared/meta/score_meta.py -e newscrawl.extract.meta_fields:extract_metadata``
over every set in ../shared/meta (date accuracy, title exact match). Both scorers
run as subprocesses of this Python, so the numbers are exactly the scorers' own;
their tables are printed as they go.

Floors (benchmarks/floors.json) hold the lowest acceptable figure per dataset and
metric. ``--update-floors`` only raises them, to the measured value rounded down to
3 decimals, and says which; a figure below its floor is never written (lower a floor
by hand, in a commit that says why). Without ../shared this exits 0 with a message.
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import common

OUR_TEXT_EXTRACTOR = "newscrawl.extract:extract"
OUR_META_EXTRACTOR = "newscrawl.extract.meta_fields:extract_metadata"
TEXT_PEERS = ["trafilatura", "readability"]
META_PEERS = ["htmldate", "gne"]
TEXT_METRICS = ("tok_f1", "lcs_f1")
META_METRICS = ("date_acc", "title_em")
FLOORS_PATH = Path(__file__).resolve().parent / "floors.json"
# The extractor's accuracy goals (token F1; LCS F1 for cx_zh; date accuracy / title exact match), shown, not gated.
GOALS = {
    "eval": {"cx_zh": {"tok_f1": 0.85, "lcs_f1": 0.97}, "cx_bbc": {"tok_f1": 0.96}, "dragnet": {"tok_f1": 0.92},
             "cleaneval": {"tok_f1": 0.90}, "cleanportaleval": {"tok_f1": 0.95},
             "readability": {"tok_f1": 0.95}, "htmltotext": {"tok_f1": 0.90}},
    "meta": {"zh-gne": {"date_acc": 0.98, "title_em": 0.95}, "zh-cwced": {"date_acc": 0.90},
             "htmldate-mediacloud": {"date_acc": 0.95}},
}


def run_text_scorer(shared: Path, datasets: list[Path], peers: bool, limit: int | None) -> dict:
    """{dataset: {extractor: row}} from score.py's --json-out."""
    extractors = [OUR_TEXT_EXTRACTOR] + (TEXT_PEERS if peers else [])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "eval.json"
        command = [sys.executable, str(shared / "eval" / "score.py"), "--extractor", ",".join(extractors),
                   "--json-out", str(out)]
        for folder in datasets:
            command += ["--data", str(folder)]
        if limit:
            command += ["--limit", str(limit)]
        _run(command)
        rows = json.loads(out.read_text(encoding="utf-8"))
    table: dict = {}
    for row in rows:
        table.setdefault(row["dataset"], {})[row["extractor"]] = row
    return table


def run_meta_scorer(shared: Path, datasets: list[Path], peers: bool, limit: int | None) -> dict:
    """{set: {extractor: row}} from score_meta.py's --json (whole-set rows only)."""
    extractors = [OUR_META_EXTRACTOR] + (META_PEERS if peers else [])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "meta.json"
        command = [sys.executable, str(shared / "meta" / "score_meta.py"), *map(str, datasets),
                   "--json", str(out)]
        for name in extractors:
            command += ["-e", name]
        if limit:
            command += ["--limit", str(limit)]
        _run(command)
        rows = json.loads(out.read_text(encoding="utf-8"))
    names = {folder.name for folder in datasets}
    table: dict = {}
    for row in rows:
        if row["dataset"] in names:
            table.setdefault(row["dataset"], {})[row["extractor"]] = row
    return table


def _run(command: list[str]) -> None:
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, cwd=common.REPO_ROOT)
    if done.returncode != 0:
        print(f"scorer failed with exit code {done.returncode}", file=sys.stderr)
        raise SystemExit(2)


def measured_figures(text: dict, meta: dict) -> dict:
    """Our figures in the floors layout: {"eval": {ds: {metric: v}}, "meta": {set: {metric: v}}}."""
    figures: dict = {"eval": {}, "meta": {}}
    for group, table, extractor, metrics in (("eval", text, OUR_TEXT_EXTRACTOR, TEXT_METRICS),
                                             ("meta", meta, OUR_META_EXTRACTOR, META_METRICS)):
        for dataset, by_extractor in table.items():
            row = by_extractor.get(extractor)
            if row is None:
                continue
            values = {m: row[m] for m in metrics if isinstance(row.get(m), (int, float))}
            if values:
                figures[group][dataset] = values
    return figures


def compare(figures: dict, floors: dict, scored: dict[str, set[str]]) -> list[str]:
    """Lines naming every figure below its floor, or missing for a dataset that was scored.

    ``scored`` names the datasets of each group that this run scored; a floor of a dataset
    left out (``--data``/``--meta``, or absent from ../shared) is only noted.
    """
    failures = []
    for group in ("eval", "meta"):
        for dataset, metrics in floors.get(group, {}).items():
            for metric, floor in metrics.items():
                value = figures.get(group, {}).get(dataset, {}).get(metric)
                if value is None and dataset not in scored.get(group, set()):
                    print(f"note: {group}/{dataset} not scored in this run (floor {metric} {floor})")
                elif value is None:
                    failures.append(f"{group}/{dataset} {metric}: no figure from the scorer (floor {floor})")
                elif value < floor:
                    failures.append(f"{group}/{dataset} {metric} = {value:.4f} < floor {floor}")
    return failures


def raise_floors(figures: dict, floors: dict) -> tuple[dict, list[str]]:
    """New floors: each raised to its figure (rounded down to 3 decimals), never lowered."""
    updated = json.loads(json.dumps(floors))
    changes = []
    for group in ("eval", "meta"):
        for dataset, metrics in figures.get(group, {}).items():
            for metric, value in metrics.items():
                candidate = math.floor(value * 1000) / 1000
                old = updated.setdefault(group, {}).setdefault(dataset, {}).get(metric)
                if old is None or candidate > old:
                    updated[group][dataset][metric] = candidate
                    changes.append(f"{group}/{dataset} {metric}: {old} -> {candidate}")
                elif value < old:
                    changes.append(f"{group}/{dataset} {metric}: {value:.4f} is below the floor {old}; "
                                   f"NOT lowered")
    return updated, changes


def print_summary(text: dict, meta: dict, figures: dict, floors: dict) -> None:
    print("\n== newscrawl.extract against floors and goals (peers: best of those run)")
    print(f"{'dataset':<22}{'metric':<10}{'ours':>8}{'floor':>8}{'goal':>8}{'best peer':>22}")
    for group, table, ours_name in (("eval", text, OUR_TEXT_EXTRACTOR), ("meta", meta, OUR_META_EXTRACTOR)):
        for dataset in sorted(figures.get(group, {})):
            for metric, value in figures[group][dataset].items():
                floor = floors.get(group, {}).get(dataset, {}).get(metric)
                goal = GOALS.get(group, {}).get(dataset, {}).get(metric)
                peers = [(row.get(metric), name) for name, row in table.get(dataset, {}).items()
                         if name != ours_name and isinstance(row.get(metric), (int, float))]
                best = max(peers) if peers else None
                print(f"{dataset:<22}{metric:<10}{value:8.3f}{_fmt(floor):>8}{_fmt(goal):>8}"
                      f"{(f'{best[1]} {best[0]:.3f}' if best else '-'):>22}")


def _fmt(value) -> str:
    return f"{value:.3f}" if isinstance(value, (int, float)) else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", help="the shared data folder (default ../shared beside the repo)")
    parser.add_argument("--data", action="append", help="only this eval dataset (repeatable)")
    parser.add_argument("--meta", action="append", help="only this meta set (repeatable)")
    parser.add_argument("--limit", type=int, help="first N pages per dataset (quick look; no gate)")
    parser.add_argument("--peers", action="store_true", help="also score the peers in the same runs")
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is below its floor")
    parser.add_argument("--update-floors", action="store_true", help="raise floors.json to today's figures")
    parser.add_argument("--floors", default=str(FLOORS_PATH), help="the floors file")
    args = parser.parse_args(argv)
    if args.limit and (args.check or args.update_floors):
        parser.error("--limit measures part of each set; floors are for whole sets (drop --limit)")

    shared = common.shared_dir(args.shared)
    common.skip_without_shared(shared)
    floors_path = Path(args.floors)
    floors = json.loads(floors_path.read_text(encoding="utf-8")) if floors_path.exists() else {}

    eval_sets = common.datasets_in(shared / "eval", args.data)
    meta_sets = common.datasets_in(shared / "meta", args.meta) if (shared / "meta").is_dir() else []
    text = run_text_scorer(shared, eval_sets, args.peers, args.limit) if eval_sets else {}
    meta = run_meta_scorer(shared, meta_sets, args.peers, args.limit) if meta_sets else {}
    figures = measured_figures(text, meta)
    print_summary(text, meta, figures, floors)

    status = 0
    if args.update_floors:
        updated, changes = raise_floors(figures, floors)
        for change in changes:
            print("floors: " + change)
        if updated != floors:
            floors_path.write_text(json.dumps(updated, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            print(f"floors written to {floors_path}")
        floors = updated
    if args.check:
        scored = {"eval": {f.name for f in eval_sets}, "meta": {f.name for f in meta_sets}}
        failures = compare(figures, floors, scored)
        for failure in failures:
            print("BELOW FLOOR: " + failure, file=sys.stderr)
        status = 1 if failures else 0
        print("accuracy check: " + ("FAILED" if failures else "all figures at or above their floors"))
    return status


if __name__ == "__main__":
    sys.exit(main())
