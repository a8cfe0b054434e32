"""The end-of-run report and the per-site stop reasons, from stats alone (no crawl)."""
from __future__ import annotations

from newscrawl.report.progress import site_summaries
from newscrawl.report.run_report import MAX_LISTED_FAILURES, RunReport


def _stats(**per_site: dict) -> dict:
    stats = {"finish_reason": "finished"}
    for site, counters in per_site.items():
        stats.update({f"newscrawl/site/{site.replace('_', '-')}/{key}": value for key, value in counters.items()})
    return stats


def test_stop_reasons_tell_exhausted_from_unreachable_and_failed():
    stats = _stats(
        fine={"pages": 3, "responses": 4, "errors/timeout": 1, "articles": 2},
        slow={"responses": 1, "errors/timeout": 3},  # robots.txt answered, every page timed out
        silent={"errors/timeout": 2, "errors/dns": 1},
        forbidding={"responses": 1, "rejected/robots": 1},
        erroring={"responses": 3, "errors/http_404": 1, "errors/http_503": 2},
        empty={"responses": 1},
        capped={"pages": 5, "rejected/max_pages": 1},
    )
    stopped = {name: s["stopped"] for name, s in site_summaries(stats, "finished").items()}
    assert stopped == {"fine": "exhausted", "slow": "failed:timeout", "silent": "unreachable:timeout",
                       "forbidding": "failed:robots", "erroring": "failed:http_503", "empty": "exhausted",
                       "capped": "max_pages"}
    assert site_summaries(stats, "shutdown")["silent"]["stopped"] == "crawl_closed:shutdown"


def test_report_lists_failures_up_to_a_bound_and_knows_when_nothing_answered():
    many = {f"site_{i:03d}": {"errors/dns": 1} for i in range(MAX_LISTED_FAILURES + 5)}
    report = RunReport("finished", 0, "out.jsonl", None, site_summaries(_stats(**many), "finished"))
    assert report.reached_no_site
    lines = report.lines(69, "no site could be reached")
    assert lines[3] == f"sites that failed: {MAX_LISTED_FAILURES + 5} of {MAX_LISTED_FAILURES + 5}"
    assert lines[4] == "  site-000: unreachable (DNS lookup failed)"
    assert lines[4 + MAX_LISTED_FAILURES] == "  ... and 5 more (see the per-site summary)"
    assert lines[-2:] == ["per-site summary: not written", "exit status 69: no site could be reached"]
    mixed = {**many, "fine": {"pages": 1, "responses": 1}}
    assert not RunReport("finished", 0, None, None, site_summaries(_stats(**mixed), "finished")).reached_no_site
    assert not RunReport("finished", 0, None, None, {}).reached_no_site
