"""Line-block distribution (the cx-extractor method; DEVELOPERS.md "line blocks").

1. Strip the tags of the page source but keep its lines (code blanked first;
   a minified page is split at block-level tags, see sourcelines.py).
2. A block is K consecutive lines (``lineblock_lines``, default 3); its length
   is the count of non-space characters in them. The lengths, block by block,
   form the line-block distribution.
3. The article is where the distribution rises suddenly from nothing and falls
   back to nothing: around the largest block, extend backwards to the first
   block after an empty one (the rise) and forwards to the last block before
   an empty one (the fall); the same around every other block that exceeds the
   threshold (captions and quote boxes split an article into several runs).
4. The largest block must exceed a threshold that depends on the script:
   English text needs far more characters than Chinese for the same content
   (``lineblock_threshold`` 186 versus ``lineblock_threshold_cjk`` 86).
   Below it the page has no article by this method.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import lxml.html

from .options import ExtractOptions
from .patterns import CJK_RE
from .sourcelines import text_lines

# Characters an lxml text node refuses (control characters, non-characters, lone surrogates).
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


@dataclass(frozen=True)
class LineBlocks:
    """The line-block distribution of a page and the article regions it points at."""

    lines: list[str]                   # text lines of the page (tags stripped, spaces collapsed)
    blocks: list[int]                  # non-space chars of lines i .. i+K-1, for each block i
    regions: list[tuple[int, int]]     # line ranges [start, end) of the article, in order
    threshold: int                     # the threshold used (chars)


def block_lengths(lengths: list[int], k: int) -> list[int]:
    """Sliding sums of k consecutive line lengths (step 2); one block when fewer lines."""
    if len(lengths) <= k:
        return [sum(lengths)]
    total = sum(lengths[:k])
    blocks = [total]
    for i in range(k, len(lengths)):
        total += lengths[i] - lengths[i - k]
        blocks.append(total)
    return blocks


def choose_threshold(lines: list[str], options: ExtractOptions) -> int:
    text = "".join(lines)
    if text and len(CJK_RE.findall(text)) / len(text) > options.lineblock_cjk_share:
        return options.lineblock_threshold_cjk
    return options.lineblock_threshold


def rise_and_fall(blocks: list[int], peak: int) -> tuple[int, int]:
    """First and last block of the run around ``peak`` bounded by empty blocks (step 3)."""
    first = peak
    while first > 0 and blocks[first - 1] > 0:
        first -= 1
    last = peak
    while last + 1 < len(blocks) and blocks[last + 1] > 0:
        last += 1
    return first, last


def find_line_blocks(source: str, options: ExtractOptions) -> LineBlocks:
    """The regions around the largest block and around every other block above threshold.

    A picture caption or a quote box often splits an article into runs of lines; each
    run that rises above the threshold belongs to it, as in cx-extractor.
    """
    lines = text_lines(source, options)
    k = max(1, options.lineblock_lines)
    blocks = block_lengths([len(line.replace(" ", "")) for line in lines], k)
    threshold = choose_threshold(lines, options)
    regions = []
    i = 0
    while i < len(blocks):
        if blocks[i] > threshold:
            first, last = rise_and_fall(blocks, i)
            regions.append((first, min(len(lines), last + k)))
            i = last + 1
        else:
            i += 1
    return LineBlocks(lines, blocks, regions, threshold)


def article_lines(source: str, options: ExtractOptions) -> list[str]:
    """The article's text lines by line blocks; empty when no block exceeds the threshold."""
    found = find_line_blocks(source, options)
    minimum = options.lineblock_min_line_chars
    return [line for start, end in found.regions for line in found.lines[start:end]
            if len(line.replace(" ", "")) >= minimum]


def lines_to_nodes(lines: list[str]) -> list:
    """One <div> of <p> per line, so the result renders like the density output."""
    if not lines:
        return []
    wrapper = lxml.html.Element("div")
    for line in lines:
        paragraph = lxml.html.Element("p")
        paragraph.text = _NOT_XML_RE.sub("", line)
        wrapper.append(paragraph)
    return [wrapper]


def lineblock_nodes(source: str, options: ExtractOptions) -> list:
    return lines_to_nodes(article_lines(source, options))
