"""Guess the language of the main text when the page does not declare it."""
from __future__ import annotations

import re

from .patterns import CJK_RE, ascii_lowercase_twin

_KANA_RE = re.compile(r"[\u3040-\u30ff]")
_HANGUL_RE = re.compile(r"[\uac00-\ud7af]")
_CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")
_ARABIC_RE = re.compile(r"[\u0600-\u06ff]")
_ENGLISH_WORDS_RE = re.compile(r"\b(?:the|and|of|to|in|is|that|for|with|was)\b", re.I)
# For text lowercased first: 2x faster than re.I (patterns.ascii_lowercase_twin).
_ENGLISH_WORDS_LOWERCASE_RE = ascii_lowercase_twin(_ENGLISH_WORDS_RE)
# The characters of a text for which lowercasing it and searching the twin does not find what
# re.I finds: dotless i and long s (re.I matches them to "i" and "s", lower() keeps them) and
# dotted capital I (lower() makes it two characters). Checked over every code point (2026-11-22).
_CASE_FOLD_EXCEPTIONS = ("\u0131", "\u017f", "\u0130")

# Share of characters of one script above which the text is in that script.
SCRIPT_SHARE = 0.2
# English function words per 100 characters above which Latin text is English.
ENGLISH_WORDS_PER_100_CHARS = 0.8


def guess_language(text: str, sample_chars: int = 2000) -> str | None:
    sample = text[:sample_chars]
    if not sample:
        return None
    n = len(sample)
    if not sample.isascii():  # else no CJK, Cyrillic or Arabic letter to count
        script = _script_language(sample, n)
        if script is not None:
            return script
    if _english_words(sample) * 100 / n > ENGLISH_WORDS_PER_100_CHARS:
        return "en"
    return None


def _english_words(text: str) -> int:
    """English function words in the text (_ENGLISH_WORDS_RE): searched lowercased, without re.I,
    unless it holds one of _CASE_FOLD_EXCEPTIONS (0.042 -> 0.026 ms a page on the non-ASCII
    contents of ../shared/eval, the same counts)."""
    if text.isascii() or not any(char in text for char in _CASE_FOLD_EXCEPTIONS):
        return len(_ENGLISH_WORDS_LOWERCASE_RE.findall(text.lower()))
    return len(_ENGLISH_WORDS_RE.findall(text))


def _script_language(sample: str, n: int) -> str | None:
    """ja, ko, zh, ru or ar when that script's letters are more than SCRIPT_SHARE of the sample."""
    if len(CJK_RE.findall(sample)) / n > SCRIPT_SHARE:
        if _KANA_RE.search(sample):
            return "ja"
        if len(_HANGUL_RE.findall(sample)) / n > SCRIPT_SHARE:
            return "ko"
        return "zh"
    if len(_CYRILLIC_RE.findall(sample)) / n > SCRIPT_SHARE:
        return "ru"
    if len(_ARABIC_RE.findall(sample)) / n > SCRIPT_SHARE:
        return "ar"
    return None
