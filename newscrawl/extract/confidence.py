"""How sure the extractor is that a page is an article: a score in [0, 1]."""
from __future__ import annotations

from .options import ExtractOptions
from .patterns import ARTICLE_SCHEMA_TYPES, CJK_RE


def weighted_length(text: str, options: ExtractOptions) -> int:
    """Characters of text, a CJK character counting as ``cjk_char_weight`` (it carries about a word)."""
    if text.isascii():
        return len(text)  # CJK_RE matches no ASCII character: no regex pass needed
    cjk = len(CJK_RE.findall(text))
    return len(text) + (options.cjk_char_weight - 1) * cjk


def declares_article(og_type: str | None, schema_types: tuple[str, ...]) -> bool:
    if og_type and og_type.lower() == "article":
        return True
    return any(kind.lower() in ARTICLE_SCHEMA_TYPES for kind in schema_types)


def score_article(text: str, link_density: float, has_date: bool, declared: bool,
                  options: ExtractOptions) -> float:
    """Weights of the evidence: body length 0.6, paragraphs 0.2, date/declared type 0.2."""
    length = min(1.0, weighted_length(text, options) / options.confident_article_chars)
    paragraphs = min(1.0, (text.count("\n") + 1) / options.confident_article_paragraphs)
    evidence = 0.1 * has_date + 0.1 * declared
    return round((0.6 * length + 0.2 * paragraphs + evidence) * (1.0 - link_density), 4)
