"""Every threshold of the extractor, in one frozen dataclass.

Values marked "tuned" were calibrated together on the development sets in
../shared/eval (cx_zh, cx_bbc, dragnet, cleaneval, cleanportaleval) with
``python3 benchmarks/accuracy.py`` on 2026-11-22; re-tune them as a set.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class ExtractOptions:
    # --- input guards -------------------------------------------------------
    # Pages larger than this are not parsed (reason "too_large"), in bytes/chars.
    # 10 MB covers the largest real article pages we have seen (~3 MB) with margin.
    max_input_chars: int = 12_000_000
    # Elements above this count are not scored (reason "too_large"); bounded time.
    max_elements: int = 300_000

    # --- pre-cleaning -------------------------------------------------------
    # Remove blocks whose class/id names boilerplate (Readability's unlikely-candidate rule).
    remove_unlikely: bool = True
    # A <form> holding at least this many <p> wraps the page (ASP.NET) and is kept.
    form_keep_min_paragraphs: int = 3

    # --- density score (DEVELOPERS.md: text + symbol density) ---------------
    # Candidates with fewer non-link characters than this are not scored (chars).
    min_candidate_chars: int = 20

    # --- anchor/form block rules (DEVELOPERS.md, numbers from the source paper) --
    # A block with more than this many links and non-anchor/anchor text ratio below
    # nav_text_ratio is link navigation.
    nav_min_links: int = 1
    nav_text_ratio: float = 1.0
    # ... unless it has a run of more than this many non-anchor chars,
    nav_keep_run_chars: int = 40
    # ... or more than this many non-anchor chars with fewer than nav_keep_max_links links,
    nav_keep_long_chars: int = 300
    nav_keep_max_links: int = 20
    # ... or more than this many non-anchor chars exceeding the anchor chars,
    nav_keep_dominant_chars: int = 200
    # ... or this many consecutive non-anchor texts.
    nav_keep_consecutive_texts: int = 3

    # --- sibling gathering and pruning (tuned) ------------------------------
    # A block inside the chosen node is link-dense when link chars / chars exceeds this.
    prune_link_density: float = 0.5
    # Climb from the best node to its parent while the node holds less than this
    # share of the parent's non-link text and the parent is not link-dense.
    climb_min_share: float = 0.6
    # Link density above which a parent is not climbed to.
    climb_max_link_density: float = 0.35

    # --- result -------------------------------------------------------------
    # Fewer main-text characters than this: no article (reason "too_short").
    min_article_chars: int = 60
    # Characters of text per CJK character when measuring length (a CJK char carries ~ a word).
    cjk_char_weight: int = 1


DEFAULT_OPTIONS = ExtractOptions()


def make_options(**overrides) -> ExtractOptions:
    """Defaults with keyword overrides; an unknown name raises TypeError naming it."""
    known = {f.name for f in fields(ExtractOptions)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise TypeError(f"unknown extract option(s): {', '.join(unknown)}")
    return replace(DEFAULT_OPTIONS, **overrides) if overrides else DEFAULT_OPTIONS
