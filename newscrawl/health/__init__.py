"""Site health across runs: which sites went silent, whose errors or drops jumped, whose extraction
score fell, which robots.txt blocks, and the crawl's totals over time, as one HTML page.

    python -m newscrawl.health [SUMMARY_DIR | SUMMARY_FILE | STATE ...] [-o site-health.html]
"""
from .judge import Finding, SiteHealth, judge_sites
from .options import HealthOptions
from .render import Report, render_report
from .runs import Inputs, Run, SiteRun, UnreadableInput, read_inputs

__all__ = ["Finding", "HealthOptions", "Inputs", "Report", "Run", "SiteHealth", "SiteRun", "UnreadableInput",
           "judge_sites", "read_inputs", "render_report", "build_report"]


def build_report(inputs: Inputs, options: HealthOptions | None = None) -> Report:
    """Judge every site of ``inputs`` (the state's last-article times preferred to the runs')."""
    options = options or HealthOptions()
    last_articles = inputs.state.last_article if inputs.state else None
    return Report(inputs, judge_sites(inputs.runs, options, last_articles), options)
