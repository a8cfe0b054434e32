"""Guess the language of the main text when the page does not declare it."""
from __future__ import annotations

import re

from .patterns import CJK_RE, ascii_lowercase_twin

_KANA_RE = re.compile(r"[\u3040-\u30ff]")
_HANGUL_RE = re.compile(r"[\uac00-\ud7af]")
_CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")
_ARABIC_RE = re.compile(r"[\u0600-\u06ff]")
_ENGLISH_WORDS_RE = re.compile(r"\b(?:the|and|of|to|in|is|that|for|with|was)\b", re.I)
# For ASCII text, lowercased first: 2x faster than re.I (patterns.ascii_lowercase_twin).
_ENGLISH_WORDS_ASCII_RE = ascii_lowercase_twin(_ENGLISH_WORDS_RE)

# Share of characters of one script above which the text is in that script.
SCRIPT_SHARE = 0.2
# English function words per 100 characters above which Latin text is English.
ENGLISH_WORDS_PER_100_CHARS = 0.8


def guess_language(text: str, sample_chars: int = 2000) -> str | None:
    sample = text[:sample_chars]
    if not sample:
        return None
    n = len(sample)
    if sample.isascii():  # no CJK, Cyrillic or Arabic letter to count
        english_words = len(_ENGLISH_WORDS_ASCII_RE.findall(sample.lower()))
    else:
        script = _script_language(sample, n)
        if script is not None:
            return script
        english_words = len(_ENGLISH_WORDS_RE.findall(sample))
    if english_words * 100 / n > ENGLISH_WORDS_PER_100_CHARS:
        return "en"
    return None


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
