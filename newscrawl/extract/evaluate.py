"""Compare the extraction methods per dataset with the shared scorer's metrics.

    python -m newscrawl.extract.evaluate --data ../shared/eval/cx_zh --algorithm all
    python -m newscrawl.extract.evaluate --data ../shared/eval/cx_zh --data ../shared/eval/cx_bbc \\
        --algorithm all --peers trafilatura,readability --chart methods.png

Metrics come from ``../shared/eval/score.py`` (imported from its path, never
copied): LCS precision and recall as the papers define them (LCS of extracted
and gold text, whitespace removed, over len(extracted) and len(gold), averaged
over pages), the token-shingle precision/recall/F1 of the public benchmark,
and the pages with the lowest LCS F1.

Algorithms: ``density`` (the default extractor), ``lineblock``, ``contentblocks``
(density after removing navigation and form blocks) and ``template`` (density
with a site template). A page's template is learned from the OTHER pages of its
site, never from the page itself: the c+1 pages of the site most alike to it (by
URL, or by shared source lines when the dataset has no URLs). A site is the URL's
host, or the whole dataset when pages have no URL (cx_zh and cx_bbc are one site
each). Needs rapidfuzz (the scorer's LCS) and, for ``--chart``, matplotlib: both
are benchmark requirements, not runtime ones.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from . import extract
from .options import ExtractOptions
from .template import learn_template, split_page, url_similarity

ALGORITHMS = ("density", "lineblock", "contentblocks", "template")
DEFAULT_SHARED = Path(__file__).resolve().parents[3] / "shared"
WORST_PAGES = 5


class SetupError(Exception):
    """The scorer or a dataset cannot be loaded; the message says what and where."""


def load_scorer(shared: Path) -> ModuleType:
    """Import ``<shared>/eval/score.py`` as a module."""
    path = shared / "eval" / "score.py"
    if not path.is_file():
        raise SetupError(f"no scorer at {path}: put the shared evaluation data beside the repository "
                         f"(../shared) or pass --shared DIR or set NEWSCRAWL_SHARED")
    spec = importlib.util.spec_from_file_location("shared_eval_score", path)
    if spec is None or spec.loader is None:
        raise SetupError(f"cannot load the scorer at {path} as a module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Scores:
    """One algorithm on one dataset."""

    algorithm: str
    dataset: str
    triples: list = field(default_factory=list)       # token (TP, FP, FN) per page
    lcs_p: list = field(default_factory=list)
    lcs_r: list = field(default_factory=list)
    per_page: list = field(default_factory=list)      # (page id, LCS F1)
    methods: Counter = field(default_factory=Counter)

    def row(self, scorer: ModuleType) -> dict:
        tok_p, tok_r, tok_f1 = scorer.token_metrics(self.triples)
        lcs_p = statistics.mean(self.lcs_p) if self.lcs_p else 0.0
        lcs_r = statistics.mean(self.lcs_r) if self.lcs_r else 0.0
        lcs_f1 = 2 * lcs_p * lcs_r / (lcs_p + lcs_r) if lcs_p + lcs_r else 0.0
        worst = sorted(self.per_page, key=lambda item: item[1])[:WORST_PAGES]
        return {"dataset": self.dataset, "algorithm": self.algorithm, "pages": len(self.triples),
                "tok_p": tok_p, "tok_r": tok_r, "tok_f1": tok_f1, "lcs_p": lcs_p, "lcs_r": lcs_r,
                "lcs_f1": lcs_f1, "methods": dict(self.methods),
                "worst": [{"id": i, "lcs_f1": round(f, 4)} for i, f in worst]}


def add_page(scores: Scores, scorer: ModuleType, page: dict, text: str, method: str) -> None:
    gold = page.get("text") or ""
    scores.triples.append(scorer.tp_fp_fn(gold, text))
    precision, recall = scorer.lcs_pr(text, gold)
    if precision is not None:
        scores.lcs_p.append(precision)
    if recall is not None:
        scores.lcs_r.append(recall)
    p, r = precision or 0.0, recall or 0.0
    scores.per_page.append((page["id"], 2 * p * r / (p + r) if p + r else 0.0))
    scores.methods[method] += 1


# --- sites and leave-one-out templates ------------------------------------------

def site_of(page: dict) -> str:
    """The page's site: its URL host without www., or one site for pages without a URL."""
    url = page.get("url") or ""
    host = urlsplit(url).hostname if "://" in url else None
    return (host or "").removeprefix("www.")


def _layout_similarity(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


class TemplateOracle:
    """Templates for each page learned from other pages of the same site."""

    def __init__(self, pages: list[dict], options: ExtractOptions):
        self.pages = pages
        self.options = options
        self.sites: dict[str, list[int]] = {}
        for i, page in enumerate(pages):
            self.sites.setdefault(site_of(page), []).append(i)
        self._lines: dict[int, set] = {}

    def _line_set(self, i: int) -> set:
        if i not in self._lines:
            self._lines[i] = set(split_page(self.pages[i]["html"], self.options).counts)
        return self._lines[i]

    def neighbours(self, i: int) -> list[int]:
        """The c+1 other pages of the site most alike to page i."""
        others = [j for j in self.sites[site_of(self.pages[i])] if j != i]
        url = self.pages[i].get("url")
        if url and all(self.pages[j].get("url") for j in others):
            key = lambda j: url_similarity(url, self.pages[j]["url"])  # noqa: E731
        else:
            key = lambda j: _layout_similarity(self._line_set(i), self._line_set(j))  # noqa: E731
        return sorted(others, key=key, reverse=True)[:self.options.template_similar_pages + 1]

    def template_for(self, i: int):
        neighbours = self.neighbours(i)
        if len(neighbours) < 2:
            return None
        return learn_template([(None, self.pages[j]["html"]) for j in neighbours], self.options)


# --- running ----------------------------------------------------------------------

def run_algorithm(algorithm: str, pages: list[dict], dataset: str, scorer: ModuleType) -> Scores:
    scores = Scores(algorithm, dataset)
    oracle = TemplateOracle(pages, ExtractOptions()) if algorithm == "template" else None
    for i, page in enumerate(pages):
        kwargs: dict[str, Any] = {}
        if algorithm == "lineblock":
            kwargs["algorithm"] = "lineblock"
        elif algorithm == "contentblocks":
            kwargs["content_blocks"] = True
        elif oracle is not None:
            template = oracle.template_for(i)
            if template is None:
                kwargs = {}
            else:
                kwargs["template"] = template
        result = extract(page["html"], page.get("url"), **kwargs)
        method = result.method if algorithm != "template" or "template" in kwargs else "no-template"
        add_page(scores, scorer, page, result.text, method)
    return scores


def run_peer(name: str, pages: list[dict], dataset: str, scorer: ModuleType) -> Scores:
    _, function = scorer.resolve(name)
    scores = Scores(name, dataset)
    for page in pages:
        try:
            text, _ = scorer.as_text_title(function(page["html"], page.get("url")))
        except Exception:  # noqa: BLE001 -- a peer's crash is an empty page, as in score.py
            text = ""
        add_page(scores, scorer, page, text, "peer")
    return scores


def available_peers(names: list[str]) -> list[str]:
    modules = {"trafilatura": "trafilatura", "readability": "readability", "gne": "gne"}
    return [n for n in names if importlib.util.find_spec(modules.get(n, n)) is not None]


def print_rows(dataset: str, rows: list[dict]) -> None:
    print(f"\n== {dataset}: {rows[0]['pages']} pages")
    print(f"{'algorithm':<15}{'tokP':>7}{'tokR':>7}{'tokF1':>7}{'lcsP':>7}{'lcsR':>7}{'lcsF1':>7}  methods")
    for row in rows:
        methods = ", ".join(f"{k} {v}" for k, v in sorted(row["methods"].items()))
        print(f"{row['algorithm']:<15}{row['tok_p']:7.3f}{row['tok_r']:7.3f}{row['tok_f1']:7.3f}"
              f"{row['lcs_p']:7.3f}{row['lcs_r']:7.3f}{row['lcs_f1']:7.3f}  {methods}")
    for row in rows:
        worst = ", ".join(f"{w['id']} {w['lcs_f1']:.2f}" for w in row["worst"])
        print(f"  worst {row['algorithm']}: {worst}")


def write_chart(rows: list[dict], path: str) -> None:
    """Grouped bars: token F1 and LCS F1 of every algorithm/peer, per dataset."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    names = list(dict.fromkeys(r["algorithm"] for r in rows))
    figure, axes = plt.subplots(1, 2, figsize=(max(8, 2.2 * len(datasets) * 2), 4.5), sharey=True)
    width = 0.8 / len(names)
    for axis, metric in zip(axes, ("tok_f1", "lcs_f1")):
        for k, name in enumerate(names):
            values = [next((r[metric] for r in rows if r["dataset"] == d and r["algorithm"] == name), 0.0)
                      for d in datasets]
            axis.bar([x + k * width for x in range(len(datasets))], values, width, label=name)
        axis.set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(datasets))], datasets)
        axis.set_title({"tok_f1": "token F1", "lcs_f1": "LCS F1"}[metric])
        axis.set_ylim(0.4, 1.0)
        axis.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8, loc="lower left")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.extract.evaluate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", action="append", required=True, help="dataset folder (repeatable)")
    parser.add_argument("--algorithm", choices=(*ALGORITHMS, "all"), default="all")
    parser.add_argument("--peers", default="", help="comma list of score.py adapters to add when installed")
    parser.add_argument("--limit", type=int, help="only the first N pages of each dataset")
    parser.add_argument("--shared", help="the shared folder (default $NEWSCRAWL_SHARED or ../shared)")
    parser.add_argument("--chart", help="write a PNG chart comparing the algorithms per dataset")
    parser.add_argument("--json-out", help="write the rows as JSON to this file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    shared = Path(args.shared or os.environ.get("NEWSCRAWL_SHARED") or DEFAULT_SHARED)
    try:
        scorer = load_scorer(shared)
        for folder in args.data:
            if not (Path(folder) / "truth.jsonl").is_file():
                raise SetupError(f"{folder}: not a dataset (no truth.jsonl)")
    except SetupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    algorithms = ALGORITHMS if args.algorithm == "all" else (args.algorithm,)
    peers = available_peers([p for p in args.peers.split(",") if p])
    rows: list[dict] = []
    for folder in args.data:
        dataset = Path(folder).resolve().name
        pages = scorer.load_dataset(folder, args.limit)
        found = [run_algorithm(a, pages, dataset, scorer).row(scorer) for a in algorithms]
        found += [run_peer(p, pages, dataset, scorer).row(scorer) for p in peers]
        print_rows(dataset, found)
        rows += found
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.chart:
        write_chart(rows, args.chart)
        print(f"\nchart: {args.chart}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
