"""The result object returned by :func:`newscrawl.extract.extract`."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ExtractResult:
    """What the extractor found on one page.

    ``reason`` is ``None`` when an article was found; otherwise it names why
    not. With ``empty_input``, ``not_html``, ``too_large`` and ``no_body``
    nothing was found and ``text``/``html`` are empty, and so they are with
    ``section_page`` (headline links over short teasers: a section's front page); with ``too_short``,
    ``link_page`` and ``not_article_type`` they hold the best content found
    (a news brief, a list's teasers) and ``score`` is 0.
    """

    url: str | None
    title: str | None
    published: str | None
    text: str
    html: str
    lang: str | None
    score: float
    reason: str | None = None
    authors: tuple[str, ...] = ()
    canonical_url: str | None = None
    og_type: str | None = None
    schema_types: tuple[str, ...] = ()
    link_density: float = 0.0
    method: str = "density"    # what found the text: density, lineblock, template... (methods.py)

    @property
    def is_article(self) -> bool:
        return self.reason is None

    def to_dict(self) -> dict:
        data = asdict(self)
        data["authors"] = list(self.authors)
        data["schema_types"] = list(self.schema_types)
        return data
