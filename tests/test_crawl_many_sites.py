"""A crawl of 200 loopback sites: a log a person can read, per-site figures in the summary file, and
no per-response work that grows with the sites' count beyond what the pages need.

One run of the real crawl over manysites_web.py (four pages per site). The INFO log must stay
small: the per-site counters go to the summary file (one line per site), not to the end-of-crawl
stats dump. Scrapy's check of generator callbacks, which re-reads a callback's source, must not
run per response (it is counted by a ``sitecustomize`` the crawl process loads).
"""
from __future__ import annotations

import json
import os

import pytest

from manysites_web import ManySitesWeb, site_name
from mockweb import crawl_stats, needs_loopback
from newscrawl.demo import crawl, write_sites_file

pytestmark = needs_loopback
SITES = 200
# INFO log bytes of the whole run: start-up lines with the settings and component lists, progress
# lines, the stats dump of the crawl totals and the end-of-run report; per site the run logs nothing.
# Measured: 8.2 KB (105 KB while the stats dump held the per-site counters). 1 MB at 10,000 sites
# would leave 100 bytes per site.
MAX_LOG_BYTES = 40_000
COUNTING_HOOK = '''
import atexit, os
import scrapy.utils.misc as misc

_calls = []
_checked = misc.is_generator_with_return_value


def _counted(callable):
    _calls.append(1)
    return _checked(callable)


misc.is_generator_with_return_value = _counted
atexit.register(lambda: open(os.environ["NEWSCRAWL_TEST_CHECK_CALLS"], "a").write(f"{len(_calls)}\\n"))
'''


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    web = ManySitesWeb(SITES).start()
    workdir = tmp_path_factory.mktemp("many")
    hook = workdir / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(COUNTING_HOOK, encoding="utf-8")
    calls = workdir / "check_calls.txt"
    try:
        sites = write_sites_file(web.sites_config(), workdir / "sites.yaml")
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")])))
            patch.setenv("NEWSCRAWL_TEST_CHECK_CALLS", str(calls))
            done = crawl(sites, workdir / "out.jsonl", cwd=workdir, timeout=600,
                         settings={"NEWSCRAWL_EXTRACT_WORKERS": "0", "LOG_LEVEL": "INFO"})
        assert done.returncode == 0, done.stderr[-3000:]
        summary = json.loads((workdir / "out.summary.json").read_text(encoding="utf-8"))
        check_calls = [int(line) for line in calls.read_text().split()] if calls.exists() else []
        robots = len(web.requested("/robots.txt"))
        stats = crawl_stats(done.stderr, workdir)
        yield done.stderr, summary, (workdir / "out.summary.json"), check_calls, stats, robots
    finally:
        web.stop()


def test_the_log_stays_small(run):
    log, *_ = run
    assert len(log.encode("utf-8")) < MAX_LOG_BYTES
    assert not [line for line in log.splitlines() if "site-1" in line]  # no line names a site


def test_the_stats_dump_leaves_the_per_site_counters_to_the_summary(run):
    log, _, _, _, stats, _ = run
    dump = log[log.index("Dumping Scrapy stats"):]
    assert "newscrawl/site/" in dump and f"counters of {SITES} site(s): in the site summary file" in dump
    assert "'newscrawl/site/site-" not in dump
    assert stats["newscrawl/articles"] == SITES


def test_the_summary_has_each_sites_figures_on_one_line(run):
    _, summary, path, _, _, _ = run
    assert set(summary["sites"]) == {site_name(n) for n in range(SITES)}
    for figures in summary["sites"].values():
        assert figures["articles"] == 1 and figures["pages"] == 4 and figures["stopped"] == "exhausted"
        assert figures["dropped"] == {"no_body": 1, "too_short": 2}  # home page, stub and contact page
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len([line for line in lines if line.lstrip().startswith('"site-')]) == SITES
    assert len(lines) < SITES + 20


def test_scrapys_callback_source_check_does_not_run_per_response(run):
    _, summary, _, check_calls, _, _ = run
    assert check_calls, "the counting hook did not load in the crawl process"
    assert summary["totals"]["pages"] == 4 * SITES
    assert max(check_calls) == 0


def test_robots_txt_is_requested_once_per_site(run):
    *_, robots = run
    assert robots == SITES
