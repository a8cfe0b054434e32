"""The site-health report (python -m newscrawl.health) on a crafted history of run summaries and a
crafted state: what it lists, in which order, and how it treats files it cannot read."""
from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest

from healthruns import FIRST_RUN, write_history, write_run
from newscrawl.health import HealthOptions, build_report, read_inputs, render_report
from newscrawl.health.__main__ import EXIT_CANNOT_WRITE, EXIT_NO_RUNS, main
from newscrawl.health.judge import JUMPED, SCORE_FELL, SILENT, judge_site
from newscrawl.health.runs import SiteRun
from newscrawl.store.state import ArticleRecord, SqliteState


@pytest.fixture
def history(tmp_path) -> Path:
    folder = tmp_path / "output"
    write_history(folder)
    return folder


def _page(path: Path) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(path.read_text(encoding="utf-8"))


def _rows(page) -> dict[str, str]:
    """Site -> the text of its findings, in the table's order."""
    return {row.get("data-site"): row.xpath("string(td[2])") for row in page.xpath('//table[@id="attention"]/tbody/tr')}


def test_report_puts_the_silent_site_on_top_and_lists_the_site_whose_score_fell(history, tmp_path, capsys):
    out = tmp_path / "health.html"
    assert main([str(history), "-o", str(out)]) == 0
    rows = _rows(_page(out))
    assert list(rows) == ["silent-daily", "error-burst", "drop-burst", "redesigned", "robots-closed"]
    assert "no new article in the last 3 runs" in rows["silent-daily"]
    assert "last new article 2026-11-02 07:05" in rows["silent-daily"]  # the last run that emitted one
    assert "mean extraction score 0.45 over the last 2 runs (8 articles), usually 0.85" in rows["redesigned"]
    assert "error http_503: 25 in the latest run, usually 0" in rows["error-burst"]
    assert "drop not_article: 20 in the latest run, usually 1" in rows["drop-burst"]
    assert "robots.txt forbade every page (12 refused)" in rows["robots-closed"]
    assert "jumped" not in rows["robots-closed"]  # its robots rejections are the robots finding, said once
    assert "steady-news" not in rows
    assert "steady-news" in _page(out).xpath('string(//details)')
    assert capsys.readouterr().out.strip() == (f"{out}: 5 of 6 sites need a look (1 silent, 2 jumped, 1 score fell, "
                                               "1 robots), over 6 runs")


def test_page_is_self_contained(history, tmp_path):
    out = tmp_path / "health.html"
    main([str(history), "-o", str(out)])
    page = _page(out)
    assert not page.xpath("//script | //link | //img | //iframe")
    assert not [a for a in page.xpath("//@src | //@href")]
    charts = page.xpath('//div[@id="totals"]/*[local-name()="svg"]')
    assert [c.get("aria-label") for c in charts] == ["articles per run", "pages per run", "drops per run",
                                                    "errors per run", "sites with a new article"]
    errors_line = charts[3].xpath('.//*[local-name()="polyline"]')[0].get("points").split()
    assert len(errors_line) == 6  # one point per run


def test_the_state_gives_each_site_its_newest_article(history, tmp_path):
    state = SqliteState(tmp_path / "state.sqlite", filter_mib=0)
    state.add_articles([ArticleRecord("https://silent.example/a", "https://silent.example/a", "silent-daily",
                                      "2026-10-30T22:15:00+00:00", None)])
    state.close()
    out = tmp_path / "health.html"
    assert main([str(history), str(tmp_path / "state.sqlite"), "-o", str(out)]) == 0
    page = _page(out)
    assert "last new article 2026-10-30 22:15" in _rows(page)["silent-daily"]
    assert "articles first seen per day (state)" in [c.get("aria-label") for c in page.xpath(
        '//div[@id="totals"]/*[local-name()="svg"]')]


def test_unreadable_summary_is_named_and_skipped(history, tmp_path, capsys):
    (history / "news-20261102T120000Z.summary.json").write_text('{"sites": {"a": {"pages"', encoding="utf-8")
    (history / "news-20261102T130000Z.summary.json").write_text(
        json.dumps({"finished_at": "2026-11-02T13:00:00+00:00", "sites": {"a": {"articles": "many"}}}))
    out = tmp_path / "health.html"
    assert main([str(history), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "news-20261102T120000Z.summary.json: not a JSON summary" in err
    assert "news-20261102T130000Z.summary.json: sites.a: 'articles' is not a number ('many')" in err
    listed = _page(out).xpath('//ul[@id="unreadable"]/li/text()')
    assert len(listed) == 2 and all("news-20261102T1" in line for line in listed)
    assert len(_rows(_page(out))) == 5  # the six good runs are judged as before


def test_summaries_without_scores_are_read(tmp_path):
    for run in range(4):  # summaries of runs that did not yet sum scores: no score judgement, no failure
        write_run(tmp_path / f"r{run}.summary.json", FIRST_RUN.replace(hour=run),
                  {"old-site": {"pages": 5, "responses": 6, "articles": 3}})
    inputs = read_inputs([tmp_path], max_runs=24)
    report = build_report(inputs)
    assert [s.name for s in report.sites] == ["old-site"] and not report.attention
    assert "old-site" in render_report(report)


def test_only_the_newest_runs_are_read(history):
    inputs = read_inputs([history], max_runs=4)
    assert [run.when for run in inputs.runs] == [f"2026-11-02T{h:02d}:05:00+00:00" for h in (7, 8, 9, 10)]


def test_nothing_to_read_and_unwritable_page_have_their_exit_codes(history, tmp_path, capsys):
    assert main([str(tmp_path / "missing"), "-o", str(tmp_path / "x.html")]) == EXIT_NO_RUNS
    assert f"{tmp_path / 'missing'}: no such file or directory" in capsys.readouterr().err
    assert main([str(history), "--silent-runs", "0"]) == EXIT_NO_RUNS
    assert "--silent-runs must be above 0" in capsys.readouterr().err
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main([str(history), "-o", str(blocker / "health.html")]) == EXIT_CANNOT_WRITE
    assert f"cannot write {blocker / 'health.html'}" in capsys.readouterr().err


def _run(articles: int, score: float | None = 0.8, **errors: int) -> SiteRun:
    return SiteRun(articles=articles, pages=articles + 3, errors=errors, dropped={}, robots_rejected=0,
                   stopped="exhausted", score_sum=None if score is None else score * articles)


@pytest.mark.parametrize("latest, jumped", [(5, False), (6, True)])  # usual 0: more than 5 above it
def test_a_jump_needs_the_minimum_increase(latest, jumped):
    history = [_run(3, timeout=0)] * 4 + [_run(3, timeout=latest)]
    kinds = [f.kind for f in judge_site("s", history, HealthOptions()).findings]
    assert (JUMPED in kinds) is jumped


@pytest.mark.parametrize("latest, jumped", [(30, False), (31, True)])  # usual 10: more than 3x it
def test_a_jump_needs_the_factor(latest, jumped):
    history = [_run(3, timeout=10)] * 4 + [_run(3, timeout=latest)]
    kinds = [f.kind for f in judge_site("s", history, HealthOptions()).findings]
    assert (JUMPED in kinds) is jumped


def test_runs_that_did_not_crawl_a_site_neither_break_nor_make_a_silent_streak():
    options = HealthOptions()
    assert SILENT in [f.kind for f in judge_site("s", [_run(2), _run(0), None, _run(0), _run(0)], options).findings]
    assert not judge_site("s", [_run(2), _run(0), None, None, _run(0)], options).findings


def test_a_score_needs_enough_articles_to_be_judged():
    options = HealthOptions()  # five articles, from at most the six latest runs
    few = [_run(4, 0.85)] * 3 + [_run(1, 0.3)] + [_run(0)] * 5
    assert SCORE_FELL not in [f.kind for f in judge_site("s", few, options).findings]
    enough = [_run(4, 0.85)] * 3 + [_run(1, 0.3)] * 5
    (fell,) = [f for f in judge_site("s", enough, options).findings if f.kind == SCORE_FELL]
    assert fell.detail == "mean extraction score 0.30 over the last 5 runs (5 articles), usually 0.85 (a redesign?)"


def test_scale_benchmark_runs_the_report_on_its_summaries(repo_root):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(repo_root / "benchmarks" / "health_scale.py"), "--sites", "300",
                           "--runs", "6"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith("300 sites x 6 runs (") and "peak RSS" in first
    # Every 97th site is silent in the last four runs (sites 0, 97, 194, 291): 4 sites at least.
    listed = int(second.split(": ")[1].split(" of ")[0])
    assert 4 <= listed < 300 and "over 6 runs" in second and "silent" in second


def test_a_run_that_ended_early_neither_breaks_nor_makes_a_silent_streak():
    closed = SiteRun(articles=0, pages=1, errors={}, dropped={}, robots_rejected=0, stopped="crawl_closed:shutdown",
                     score_sum=0.0)
    options = HealthOptions()
    assert not judge_site("s", [_run(2), _run(0), closed, closed, _run(0)], options).findings
    assert SILENT in [f.kind for f in judge_site("s", [_run(2), _run(0), closed, _run(0), _run(0)], options).findings]


def test_robots_forbidding_the_articles_is_a_robots_finding():
    forbidding = SiteRun(articles=0, pages=4, errors={}, dropped={}, robots_rejected=9, stopped="exhausted",
                         score_sum=0.0)
    findings = judge_site("s", [_run(3)] * 4 + [forbidding], HealthOptions()).findings
    assert [(f.kind, f.detail) for f in findings] == [("robots", "robots.txt forbade 9 pages and no article came")]
