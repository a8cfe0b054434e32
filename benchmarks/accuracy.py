#!/usr/bin/env python3
"""Accuracy gate: the shared scorers on every dataset, checked against floors in floors.json.

    python benchmarks/accuracy.py                   # measure and print, no gate
    python benchmarks/accuracy.py --check           # exit 1 if a figure is below its floor
    python benchmarks/accuracy.py --peers           # also trafilatura/readability (text), htmldate/gne (meta)
    python benchmarks/accuracy.py --update-floors   # raise floors to today's figures (never lowers one)
    python benchmarks/accuracy.py --cases fundus-dev --per-site   # one case set, figures per site
    python benchmarks/accuracy.py --data dragnet --option climb_max_link_density=0.25   # an option changed

Text: ``../shared/eval/score.py --extractor newscrawl.extract:extract`` over every
dataset in ../shared/eval with a truth.jsonl and no cases.jsonl (token F1 and LCS F1 per
dataset). Case sets (a cases.jsonl: fundus-dev, realworld-trafilatura): the functions of
``../shared/eval/score_cases.py`` (``load_set``, ``run_one``, ``print_table``), in this
process: token F1 and empty pages where the cases carry a gold body, snippet F1 and pages
passing where they carry must-contain / must-not-contain snippets. ``--per-site`` also
scores each site of a case set alone (its ``publisher``, else its URL's host), so that a
gain made on one site shows. Metadata:
``../shared/meta/score_meta.py -e newscrawl.extract.meta_fields:extract_metadata``
over every set in ../shared/meta (date accuracy, title exact match). Both scorers
run as subprocesses of this Python, so the numbers are exactly the scorers' own;
their tables are printed as they go. ``--option NAME=VALUE`` (repeatable; the value read as
JSON, else as a string) scores the text with that extractor option changed
(benchmarks/optioned_extract.py), to reproduce the figures cited in options.py.

Floors (benchmarks/floors.json) hold the lowest acceptable figure per dataset and
metric; for a count where fewer is better (``empty`` pages) the figure is a ceiling.
``--update-floors`` only raises them (lowers a ceiling), to the measured value rounded
down to 3 decimals, and says which; a figure below its floor is never written (lower a
floor by hand, in a commit that says why). Without ../shared this exits 0 with a message.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

import common
from common import OPTIONS_VARIABLE

OUR_TEXT_EXTRACTOR = "newscrawl.extract:extract"
# The same with the options of --option (benchmarks/optioned_extract.py).
OPTIONED_TEXT_EXTRACTOR = "optioned_extract:extract"
OUR_META_EXTRACTOR = "newscrawl.extract.meta_fields:extract_metadata"
TEXT_PEERS = ["trafilatura", "readability"]
META_PEERS = ["htmldate", "gne"]
TEXT_METRICS = ("tok_f1", "lcs_f1")
META_METRICS = ("date_acc", "title_em")
# Figures of a case set, those its cases give (a gold body: tok_f1; snippets: snip_f1, pass).
CASE_METRICS = ("tok_f1", "snip_f1", "pass", "empty")
# Counts where fewer is better: their floor is a ceiling.
CEILING_METRICS = frozenset({"empty"})
GROUPS = ("eval", "cases", "meta")
# Seconds an extractor may take on one page of a case set (score_cases.py's default).
CASE_TIMEOUT_SECONDS = 60.0
FLOORS_PATH = Path(__file__).resolve().parent / "floors.json"
# The extractor's accuracy goals (token F1; LCS F1 for cx_zh; date accuracy / title exact match), shown, not gated.
GOALS = {
    "eval": {"cx_zh": {"tok_f1": 0.85, "lcs_f1": 0.97}, "cx_bbc": {"tok_f1": 0.96}, "dragnet": {"tok_f1": 0.92},
             "cleaneval": {"tok_f1": 0.90}, "cleanportaleval": {"tok_f1": 0.95},
             "readability": {"tok_f1": 0.95}, "htmltotext": {"tok_f1": 0.90}},
    # Goals of the extractor-on-today's-web issue.
    "cases": {"fundus-dev": {"tok_f1": 0.955, "empty": 0},
              "realworld-trafilatura": {"snip_f1": 0.93, "pass": 0.65}},
    # Dates: the publish-dates issue asks 0.985 on fundus-dev and 0.96 on htmldate-mediacloud.
    "meta": {"zh-gne": {"date_acc": 0.98, "title_em": 0.95}, "zh-cwced": {"date_acc": 0.90},
             "htmldate-mediacloud": {"date_acc": 0.96}, "fundus-dev": {"date_acc": 0.985}},
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


def dated_sets_in(folder: Path) -> list[Path]:
    """The evaluation sets whose gold carries a publish date (fundus-dev): scored for dates too."""
    dated = []
    for dataset in common.datasets_in(folder):
        with (dataset / "truth.jsonl").open(encoding="utf-8") as lines:
            first = json.loads(next(lines, "{}") or "{}")
        if first.get("date"):
            dated.append(dataset)
    return dated


def meta_sets_in(shared: Path, names: list[str] | None) -> list[Path]:
    """The sets scored for publish dates and titles: every set in ../shared/meta and the dated
    evaluation sets, or the named ones (an unknown name exits 2)."""
    found = {p.name: p for p in dated_sets_in(shared / "eval")}
    if (shared / "meta").is_dir():
        found.update({p.name: p for p in common.datasets_in(shared / "meta")})
    return common.chosen_sets(found, names, "metadata set(s)")


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


def parse_options(parser: argparse.ArgumentParser, items: list[str]) -> dict:
    """{name: value} of --option NAME=VALUE items; the value as JSON (0.25, true), else a string."""
    options = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            parser.error(f"--option {item!r}: expected NAME=VALUE")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def use_options(options: dict) -> None:
    """Score our text through optioned_extract with these options, here and in the scorers' processes."""
    global OUR_TEXT_EXTRACTOR
    os.environ[OPTIONS_VARIABLE] = json.dumps(options)
    benchmarks = str(Path(__file__).resolve().parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [benchmarks, str(common.REPO_ROOT),
                                                             os.environ.get("PYTHONPATH")]))
    if benchmarks not in sys.path:
        sys.path.insert(0, benchmarks)
    OUR_TEXT_EXTRACTOR = OPTIONED_TEXT_EXTRACTOR
    print(f"extractor options: {json.dumps(options)}")


def case_sets_in(folder: Path, names: list[str] | None) -> list[Path]:
    """The case sets (folders holding cases.jsonl), all or the named ones; an unknown name exits 2."""
    found = {p.name: p for p in sorted(folder.iterdir()) if (p / "cases.jsonl").is_file()}
    unknown = [n for n in names or () if n not in found]
    if unknown:
        print(f"unknown case set(s) {', '.join(unknown)} in {folder}; have: {', '.join(found)}", file=sys.stderr)
        raise SystemExit(2)
    return [found[n] for n in names] if names else list(found.values())


def site_of(case: dict) -> str:
    """The site a case comes from: its publisher when the set names one, else its URL's host."""
    if case.get("publisher"):
        return case["publisher"]
    host = urlsplit(case.get("url") or "").hostname or "?"
    return host.removeprefix("www.")


def run_case_scorer(shared: Path, sets: list[Path], peers: bool, limit: int | None, per_site: bool) -> dict:
    """{set: {extractor: row}} from score_cases.run_one; prints its table, and a table per site."""
    common.use_repo_package()
    scorer = common.load_eval_module(shared, "score_cases")
    extractors = [OUR_TEXT_EXTRACTOR] + (TEXT_PEERS if peers else [])
    table: dict = {}
    rows = []
    for folder in sets:
        cases = scorer.load_set(str(folder), limit)
        for name in extractors:
            row = scorer.run_one(name, folder.name, cases, CASE_TIMEOUT_SECONDS, None)
            table.setdefault(folder.name, {})[name] = row
            rows.append(row)
        if per_site:
            print_sites(scorer, folder.name, cases)
    scorer.print_table(rows)
    return table


def print_sites(scorer: ModuleType, set_name: str, cases: list[dict]) -> None:
    """Our figures on each site of a case set alone, worst first."""
    by_site: dict[str, list[dict]] = defaultdict(list)
    for case in cases:
        by_site[site_of(case)].append(case)
    rows = [scorer.run_one(OUR_TEXT_EXTRACTOR, site, group, CASE_TIMEOUT_SECONDS, None)
            for site, group in by_site.items()]
    rows.sort(key=lambda row: (next((row[m] for m in ("tok_f1", "snip_f1", "pass") if row[m] is not None), 0.0),
                               row["set"]))
    print(f"\n== {set_name} per site ({len(rows)} sites), ours")
    print(f"{'site':<34}{'pages':>6}{'tokF1':>7}{'snipF1':>7}{'pass':>7}{'empty':>6}")
    for row in rows:
        print(f"{row['set'][:33]:<34}{row['cases']:>6}{_fmt_or_dash(row['tok_f1']):>7}"
              f"{_fmt_or_dash(row['snip_f1']):>7}{_fmt_or_dash(row['pass']):>7}{row['empty']:>6}")


def _fmt_or_dash(value) -> str:
    return f"{value:.3f}" if isinstance(value, (int, float)) else "-"


def _run(command: list[str]) -> None:
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, cwd=common.REPO_ROOT)
    if done.returncode != 0:
        print(f"scorer failed with exit code {done.returncode}", file=sys.stderr)
        raise SystemExit(2)


def measured_figures(text: dict, meta: dict, cases: dict | None = None) -> dict:
    """Our figures in the floors layout: {"eval": {ds: {metric: v}}, "cases": {...}, "meta": {...}}."""
    figures: dict = {"eval": {}, "cases": {}, "meta": {}}
    for group, table, extractor, metrics in (("eval", text, OUR_TEXT_EXTRACTOR, TEXT_METRICS),
                                             ("cases", cases or {}, OUR_TEXT_EXTRACTOR, CASE_METRICS),
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
    for group in GROUPS:
        for dataset, metrics in floors.get(group, {}).items():
            for metric, floor in metrics.items():
                value = figures.get(group, {}).get(dataset, {}).get(metric)
                if value is None and dataset not in scored.get(group, set()):
                    print(f"note: {group}/{dataset} not scored in this run (floor {metric} {floor})")
                elif value is None:
                    failures.append(f"{group}/{dataset} {metric}: no figure from the scorer (floor {floor})")
                elif metric in CEILING_METRICS and value > floor:
                    failures.append(f"{group}/{dataset} {metric} = {value} > ceiling {floor}")
                elif metric not in CEILING_METRICS and value < floor:
                    failures.append(f"{group}/{dataset} {metric} = {value:.4f} < floor {floor}")
    return failures


def raise_floors(figures: dict, floors: dict) -> tuple[dict, list[str]]:
    """New floors: each raised to its figure (rounded down to 3 decimals), never lowered; a
    ceiling (CEILING_METRICS) lowered to its count, never raised."""
    updated = json.loads(json.dumps(floors))
    changes = []
    for group in GROUPS:
        for dataset, metrics in figures.get(group, {}).items():
            for metric, value in metrics.items():
                old = updated.setdefault(group, {}).setdefault(dataset, {}).get(metric)
                if metric in CEILING_METRICS:
                    if old is None or value < old:
                        updated[group][dataset][metric] = value
                        changes.append(f"{group}/{dataset} {metric}: {old} -> {value}")
                    elif value > old:
                        changes.append(f"{group}/{dataset} {metric}: {value} is above the ceiling {old}; "
                                       f"NOT raised")
                    continue
                candidate = math.floor(value * 1000) / 1000
                if old is None or candidate > old:
                    updated[group][dataset][metric] = candidate
                    changes.append(f"{group}/{dataset} {metric}: {old} -> {candidate}")
                elif value < old:
                    changes.append(f"{group}/{dataset} {metric}: {value:.4f} is below the floor {old}; "
                                   f"NOT lowered")
    return updated, changes


def print_summary(text: dict, meta: dict, figures: dict, floors: dict, cases: dict | None = None) -> None:
    print("\n== newscrawl.extract against floors and goals (peers: best of those run; empty: a ceiling)")
    print(f"{'dataset':<22}{'metric':<10}{'ours':>8}{'floor':>8}{'goal':>8}{'best peer':>22}")
    for group, table, ours_name in (("eval", text, OUR_TEXT_EXTRACTOR), ("cases", cases or {}, OUR_TEXT_EXTRACTOR),
                                    ("meta", meta, OUR_META_EXTRACTOR)):
        for dataset in sorted(figures.get(group, {})):
            for metric, value in figures[group][dataset].items():
                floor = floors.get(group, {}).get(dataset, {}).get(metric)
                goal = GOALS.get(group, {}).get(dataset, {}).get(metric)
                peers = [(row.get(metric), name) for name, row in table.get(dataset, {}).items()
                         if name != ours_name and isinstance(row.get(metric), (int, float))]
                pick = min if metric in CEILING_METRICS else max
                best = pick(peers) if peers else None
                print(f"{dataset:<22}{metric:<10}{value:8.3f}{_fmt(floor):>8}{_fmt(goal):>8}"
                      f"{(f'{best[1]} {best[0]:.3f}' if best else '-'):>22}")


def _fmt(value) -> str:
    return f"{value:.3f}" if isinstance(value, (int, float)) else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", help="the shared data folder (default ../shared beside the repo)")
    parser.add_argument("--data", action="append", help="only this eval dataset (repeatable); naming sets of "
                        "one group (--data, --cases, --meta) scores only the groups named")
    parser.add_argument("--cases", action="append", help="only this case set (repeatable)")
    parser.add_argument("--per-site", action="store_true", help="also our figures per site of each case set")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="score the text with this extractor option changed (repeatable; no gate)")
    parser.add_argument("--meta", action="append", help="only this meta set (repeatable)")
    parser.add_argument("--limit", type=int, help="first N pages per dataset (quick look; no gate)")
    parser.add_argument("--peers", action="store_true", help="also score the peers in the same runs")
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is below its floor")
    parser.add_argument("--update-floors", action="store_true", help="raise floors.json to today's figures")
    parser.add_argument("--floors", default=str(FLOORS_PATH), help="the floors file")
    args = parser.parse_args(argv)
    if args.limit and (args.check or args.update_floors):
        parser.error("--limit measures part of each set; floors are for whole sets (drop --limit)")
    if args.option and (args.check or args.update_floors):
        parser.error("--option measures a changed extractor; floors are for the defaults (drop --option)")
    if args.option:
        use_options(parse_options(parser, args.option))

    shared = common.shared_dir(args.shared)
    common.skip_without_shared(shared)
    floors_path = Path(args.floors)
    floors = json.loads(floors_path.read_text(encoding="utf-8")) if floors_path.exists() else {}

    # Naming the sets of one group (--data, --cases, --meta) scores only the groups named.
    chosen = args.data or args.cases or args.meta
    every_case_set = case_sets_in(shared / "eval", None)
    case_sets = case_sets_in(shared / "eval", args.cases) if args.cases or not chosen else []
    eval_sets = [folder for folder in common.datasets_in(shared / "eval", args.data)
                 if folder not in every_case_set] if args.data or not chosen else []   # case sets: scored once
    meta_sets = meta_sets_in(shared, args.meta) if args.meta or not chosen else []
    text = run_text_scorer(shared, eval_sets, args.peers, args.limit) if eval_sets else {}
    cases = run_case_scorer(shared, case_sets, args.peers, args.limit, args.per_site) if case_sets else {}
    meta = run_meta_scorer(shared, meta_sets, args.peers, args.limit) if meta_sets else {}
    figures = measured_figures(text, meta, cases)
    print_summary(text, meta, figures, floors, cases)

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
        scored = {"eval": {f.name for f in eval_sets}, "cases": {f.name for f in case_sets},
                  "meta": {f.name for f in meta_sets}}
        failures = compare(figures, floors, scored)
        for failure in failures:
            print("BELOW FLOOR: " + failure, file=sys.stderr)
        status = 1 if failures else 0
        print("accuracy check: " + ("FAILED" if failures else "all figures at or above their floors"))
    return status


if __name__ == "__main__":
    sys.exit(main())
