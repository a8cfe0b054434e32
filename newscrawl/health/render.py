"""The health report as one self-contained HTML page: what needs a person first, then the crawl's
totals over time, then the sites that look well. No script, no external file: inline CSS and SVG."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from html import escape

from .judge import SiteHealth, sites_by_kind
from .options import HealthOptions
from .runs import Inputs, Run, short_time
from .svg import line_chart, sparkline

# Sites shown in the table of those that need a look (each row carries three small plots); the rest
# are counted below it. At 10,000 sites a report listing them all would be many megabytes.
MAX_LISTED_SITES = 500
TOTALS = (("articles", "articles per run"), ("pages", "pages per run"),
          ("dropped", "drops per run"), ("errors", "errors per run"))

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: rgb(34, 34, 34); background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 .2em; } h2 { font-size: 1.15em; margin: 1.4em 0 .5em; }
p.meta { color: rgb(85, 85, 85); margin: .2em 0; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #dde; padding: 4px 8px; text-align: left; vertical-align: middle; }
th { background: #f0f2f5; }
td.name { font-weight: 600; white-space: nowrap; }
ul.findings { margin: 0; padding-left: 1.1em; }
li.kind-silent, li.kind-jumped { color: #a40000; } li.kind-score-fell { color: #8a4b00; }
li.kind-robots, li.kind-failing { color: #5a3d8a; }
span.count { padding: 1px 6px; margin: 0 .3em 0 .8em; border-radius: 3px; background: #f0f2f5;
             font-weight: 600; }
div.charts svg { margin: 0 1em 1em 0; border: 1px solid #eee; }
"""


@dataclass(frozen=True)
class Report:
    inputs: Inputs
    sites: list[SiteHealth]
    options: HealthOptions

    @property
    def attention(self) -> list[SiteHealth]:
        return [site for site in self.sites if site.needs_a_look]


def _site_row(site: SiteHealth) -> str:
    articles = [e.articles if e else None for e in site.history]
    scores = [e.mean_score if e else None for e in site.history]
    errors = [e.error_count if e else None for e in site.history]
    findings = "".join(f'<li class="kind-{f.kind.replace(" ", "-")}"><b>{escape(f.kind)}</b>: {escape(f.detail)}</li>'
                       for f in site.findings)
    return (f'<tr data-site="{escape(site.name)}"><td class="name">{escape(site.name)}</td>'
            f'<td><ul class="findings">{findings}</ul></td>'
            f"<td>{escape(short_time(site.last_article)) if site.last_article else 'none'}</td>"
            f"<td>{sparkline(articles, f'{site.name}: articles per run')}</td>"
            f"<td>{sparkline(scores, f'{site.name}: mean extraction score per run', top=1.0, digits=2)}</td>"
            f"<td>{sparkline(errors, f'{site.name}: errors per run')}</td></tr>")


def _attention_section(report: Report) -> str:
    attention = report.attention
    if not attention:
        return '<h2>Sites that need a look</h2><p id="no-attention">None: every site looks as usual.</p>'
    counts = " ".join(f'<span class="count">{n}</span>{escape(kind)}' for kind, n in sites_by_kind(attention).items())
    rows = "".join(_site_row(site) for site in attention[:MAX_LISTED_SITES])
    more = len(attention) - MAX_LISTED_SITES
    rest = f'<p class="meta">... and {more} more sites (not listed).</p>' if more > 0 else ""
    return (f"<h2>Sites that need a look ({len(attention)} of {len(report.sites)})</h2><p>{counts}</p>"
            '<table id="attention"><thead><tr><th>site</th><th>what</th><th>last new article (UTC)</th>'
            "<th>articles per run</th><th>mean score per run</th><th>errors per run</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>{rest}")


def _totals_section(runs: list[Run], report: Report) -> str:
    first, last = short_time(runs[0].when), short_time(runs[-1].when)
    charts = [line_chart(title, [run.totals.get(key) for run in runs], first, last) for key, title in TOTALS]
    sites_with = [sum(1 for s in run.sites.values() if s.articles) for run in runs]
    charts.append(line_chart("sites with a new article", sites_with, first, last))
    state = report.inputs.state
    if state and state.articles_per_day:
        days = list(state.articles_per_day)
        charts.append(line_chart("articles first seen per day (state)", list(state.articles_per_day.values()),
                                 days[0], days[-1]))
    return f'<h2>The crawl over time ({len(runs)} runs)</h2><div class="charts" id="totals">{"".join(charts)}</div>'


def _well_section(report: Report) -> str:
    well = [site.name for site in report.sites if not site.needs_a_look]
    names = ", ".join(escape(name) for name in well)
    return (f"<h2>Sites that look as usual ({len(well)})</h2>"
            f"<details><summary>show their names</summary><p>{names}</p></details>")


def _sources_section(report: Report) -> str:
    runs = report.inputs.runs
    options = report.options
    lines = [f"Runs read: {len(runs)}, from {escape(short_time(runs[0].when))} to "
             f"{escape(short_time(runs[-1].when))} UTC (newest {options.max_runs} at most)."]
    if report.inputs.state is not None:
        lines.append("Last new article per site: from the state.")
    lines.append(f"Silent: no new article in {options.silent_runs} runs in a row. Jumped: more than "
                 f"{options.jump_factor:g}x the median of the {options.baseline_runs} runs before and more than "
                 f"{options.jump_min_increase} above it. Score fell: the mean of the latest runs "
                 f"(at most {options.recent_runs}, as many as hold {options.min_scored_articles} articles) at least "
                 f"{options.score_fall:g} under the mean of the {options.baseline_runs} runs before.")
    skipped = "".join(f"<li>{escape(line)}</li>" for line in report.inputs.unreadable)
    if skipped:
        lines.append(f'Files not read:<ul id="unreadable">{skipped}</ul>')
    return "".join(f'<p class="meta">{line}</p>' for line in lines)


def render_report(report: Report, generated: datetime | None = None) -> str:
    """The whole page (``report.inputs.runs`` must not be empty)."""
    runs = report.inputs.runs
    generated = (generated or datetime.now(timezone.utc)).replace(microsecond=0)
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>newscrawl site health</title><style>{STYLE}</style></head><body>"
            f"<h1>newscrawl site health</h1>"
            f'<p class="meta">Generated {escape(generated.isoformat())}.</p>'
            f"{_sources_section(report)}{_attention_section(report)}{_totals_section(runs, report)}"
            f"{_well_section(report)}</body></html>\n")
