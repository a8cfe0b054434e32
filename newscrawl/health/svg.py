"""Plots as inline SVG text: a line chart with axes for the crawl's totals, and small per-site sparklines.

Values may be None (a run that did not crawl the site, a run without articles to score): the line
breaks there. Every text is escaped; the SVG needs no script, font or file of its own.
"""
from __future__ import annotations

from html import escape

LINE_COLOUR = "#1f5fa8"
GRID_COLOUR = "#d0d4da"
TEXT_COLOUR = "#333"


def _segments(values: list[float | None], x_of, y_of) -> list[list[tuple[float, float]]]:
    """Runs of consecutive known values as lists of points."""
    segments: list[list[tuple[float, float]]] = [[]]
    for index, value in enumerate(values):
        if value is None:
            if segments[-1]:
                segments.append([])
            continue
        segments[-1].append((x_of(index), y_of(value)))
    return [segment for segment in segments if segment]


def _polylines(segments, colour: str, width: float) -> str:
    parts = []
    for segment in segments:
        if len(segment) == 1:  # a lone value: a dot
            x, y = segment[0]
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{width + 0.5:.1f}" fill="{colour}"/>')
        else:
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in segment)
            parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="{width}"/>')
    return "".join(parts)


def _x_scale(count: int, left: float, width: float):
    step = width / max(count - 1, 1)
    return lambda index: left + index * step if count > 1 else left + width / 2


def sparkline(values: list[float | None], label: str, width: int = 150, height: int = 28,
              top: float | None = None, digits: int = 0) -> str:
    """A small line of ``values`` (one per run, oldest left) from 0 to ``top`` (default: their maximum),
    with the latest known value written at its right (``digits`` decimals)."""
    known = [v for v in values if v is not None]
    high = top if top is not None else max(known, default=0) or 1
    pad, label_width = 3, 36
    x_of = _x_scale(len(values), pad, width - label_width - 2 * pad)

    def y_of(value: float) -> float:
        return height - pad - (height - 2 * pad) * min(value, high) / high

    lines = _polylines(_segments(values, x_of, y_of), LINE_COLOUR, 1.5)
    latest = f"{known[-1]:.{digits}f}" if known else "-"
    return (f'<svg class="spark" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(label)}"><title>{escape(label)}</title>'
            f'<line x1="0" y1="{height - pad}" x2="{width - label_width}" y2="{height - pad}" '
            f'stroke="{GRID_COLOUR}"/>{lines}'
            f'<text x="{width - 2}" y="{height / 2 + 4:.0f}" font-size="11" text-anchor="end" '
            f'fill="{TEXT_COLOUR}">{latest}</text></svg>')


def line_chart(title: str, values: list[float | None], first_label: str, last_label: str,
               width: int = 460, height: int = 170) -> str:
    """A chart of ``values`` (one per run) with a zero line, its maximum, and the first and last run."""
    left, right, top_pad, bottom = 44, 12, 26, 22
    known = [v for v in values if v is not None]
    high = max(known, default=0) or 1
    plot_height = height - top_pad - bottom
    x_of = _x_scale(len(values), left, width - left - right)

    def y_of(value: float) -> float:
        return top_pad + plot_height - plot_height * value / high

    base = top_pad + plot_height
    return (f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(title)}">'
            f'<text x="{left}" y="16" font-size="13" font-weight="bold" fill="{TEXT_COLOUR}">{escape(title)}</text>'
            f'<line x1="{left}" y1="{top_pad}" x2="{width - right}" y2="{top_pad}" stroke="{GRID_COLOUR}" '
            f'stroke-dasharray="3 3"/>'
            f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="{GRID_COLOUR}"/>'
            f'<text x="{left - 4}" y="{top_pad + 4}" font-size="11" text-anchor="end" fill="{TEXT_COLOUR}">'
            f'{_number(high)}</text>'
            f'<text x="{left - 4}" y="{base + 4}" font-size="11" text-anchor="end" fill="{TEXT_COLOUR}">0</text>'
            f'<text x="{left}" y="{height - 6}" font-size="11" fill="{TEXT_COLOUR}">{escape(first_label)}</text>'
            f'<text x="{width - right}" y="{height - 6}" font-size="11" text-anchor="end" fill="{TEXT_COLOUR}">'
            f"{escape(last_label)}</text>"
            f"{_polylines(_segments(values, x_of, y_of), LINE_COLOUR, 2)}</svg>")


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:.2g}"
