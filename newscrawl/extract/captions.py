"""Captions that gallery markup repeats: the same short text beside a picture in several units.

A gallery prints each picture's caption in its slide, again in its thumbnail strip and again in
its full-screen viewer (or in the clones a carousel adds to loop): the reader sees it once, under
a picture, and the gold of the evaluation sets leaves captions out, as ``<figcaption>`` is left
out (options ``drop_captions``). The unit of a picture is its nearest ancestor holding text
(within ``caption_unit_max_levels``), when it shows that picture alone and its text as one line;
when units holding the same short text (at most ``repeated_caption_max_chars``) appear more than
once in the content, that text is a gallery's caption: the units keep their pictures and lose
their text. Prose is never in such a unit twice;
a caption shown once is kept (it may be the only one, or a line of the story beside a picture).
"""
from __future__ import annotations

from .dom import collapsed_texts
from .options import ExtractOptions
from .output import render_text
from .patterns import IMAGE_TAGS


def drop_repeated_captions(nodes: list, options: ExtractOptions) -> None:
    """Strip the text of the picture units of the content whose caption repeats (module docstring)."""
    images = [image for node in nodes for image in node.iter(*IMAGE_TAGS)]
    if len(images) < 2:
        return
    units = [unit for image in images   # one picture each: no unit twice
             if (unit := picture_unit(image, nodes, options.caption_unit_max_levels)) is not None]
    by_caption: dict[str, list] = {}
    for unit, caption in zip(units, collapsed_texts(units)):
        if 0 < len(caption) <= options.repeated_caption_max_chars and _one_line(unit):
            by_caption.setdefault(caption, []).append(unit)
    for same in by_caption.values():
        if len(same) > 1:
            for unit in same:
                strip_unit_text(unit)


def picture_unit(image, nodes: list, max_levels: int):
    """The nearest ancestor of a picture holding text, within ``max_levels`` and inside the
    content's nodes (a node itself is never a unit: it holds the story); None when there is none."""
    element = image
    for _ in range(max_levels):
        parent = element.getparent()
        if parent is None or any(parent is node for node in nodes):
            return None
        element = parent
        if (element.text or "").strip() or any(_holds_text(child) for child in element):
            return element if _one_picture(element) else None
    return None


def _one_picture(element) -> bool:
    """A unit shows one picture: a row of a forum post with two icons and its date is no caption."""
    pictures = element.iter(*IMAGE_TAGS)
    next(pictures, None)
    return next(pictures, None) is None


def _one_line(unit) -> bool:
    """Does the unit show its text as one line (a caption, not a poster's name over their details)?"""
    return "\n" not in render_text([unit]).strip()


def _holds_text(element) -> bool:
    return bool((element.tail or "").strip()) or any((text or "").strip() for text in element.itertext())


def strip_unit_text(unit) -> None:
    """Remove a unit's text, keeping its pictures (and the elements leading to them)."""
    unit.text = None
    for child in list(unit):
        child.tail = None
        if child.tag in IMAGE_TAGS:
            continue
        if any(True for _ in child.iter(*IMAGE_TAGS)):
            strip_unit_text(child)
        else:
            unit.remove(child)
