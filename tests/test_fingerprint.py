"""The text fingerprint has the values of its recipe, written here plainly: a loop over the characters.

Stored signatures stay comparable only while every way of computing them (the compiled pass, the
numpy arrays) gives these values to the bit, on any text.
"""
from __future__ import annotations

import hashlib

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
from datasketch import MinHash

from newscrawl.crawl import fingerprint
from newscrawl.crawl.fingerprint import (MIN_SHINGLES, NUM_PERM, SEED, Fingerprint, fingerprint_text,
                                         fingerprint_with_numpy)

WORD_BASE = 0x01000193
LAST_POSITION = 4095
WINDOW = (0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D)
OWN_WORD_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF))
MASK32, MASK64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


def character_class(character: str) -> str:
    code = ord(character)
    if code >= 0xFFFF:  # beyond the BMP, and the BMP's last code point: separators
        return "other"
    if any(low <= code <= high for low, high in OWN_WORD_RANGES):
        return "own"
    return "letter" if character.isalnum() else "other"


def word_hash(word: str) -> int:
    total = sum((ord(character) * pow(WORD_BASE, min(position, LAST_POSITION), 1 << 32)) & MASK32
                for position, character in enumerate(word))
    total ^= total >> 16
    total = (total * 0x85EBCA6B) & MASK64
    total ^= total >> 13
    total = (total * 0xC2B2AE35) & MASK64
    return (total ^ (total >> 16)) & MASK32


def reference_fingerprint(text: str) -> Fingerprint | None:
    words, current = [], ""
    for character in text.lower():
        kind = character_class(character)
        if kind != "letter" and current:
            words.append(current)
            current = ""
        if kind == "letter":
            current += character
        elif kind == "own":
            words.append(character)
    if current:
        words.append(current)
    hashes = [word_hash(word) for word in words]
    shingles = {sum(hashes[start + offset] * WINDOW[offset] for offset in range(3)) & MASK32
                for start in range(len(hashes) - 2)}
    if len(shingles) < MIN_SHINGLES:
        return None
    minhash = MinHash(num_perm=NUM_PERM, seed=SEED, scheme="affine32", hashfunc=int)
    minhash.update_batch(sorted(shingles))
    rows = np.asarray(minhash.hashvalues, dtype=np.uint32).tobytes()
    bands = tuple(int.from_bytes(hashlib.blake2b(rows[band * 20:(band + 1) * 20], digest_size=8,
                                                 person=band.to_bytes(2, "big")).digest(), "big", signed=True)
                  for band in range(12))  # 12 bands of 5 rows (4 bytes each)
    return Fingerprint(rows, bands)


SENTENCES = [
    "The harbour board met on Tuesday to discuss the new ferry timetable, which starts in May.",
    "Les élèves ont manifesté devant la mairie ; « c'est notre avenir », a dit l'une d'elles.",
    "ΟΔΟΣ ΣΟΦΟΚΛΕΟΥΣ: η τιμή του ψωμιού αυξήθηκε κατά 5% τον Σεπτέμβριο.",
    "İstanbul'da DİKKAT çeken bir gelişme yaşandı, İZMİR de etkilendi.",
    "新华社北京9月2日电 国务院总理今天在人民大会堂会见了来访的代表团。",
    "東京都は きょう、新しい防災計画を発表しました。カタカナ・テスト。",
    "서울시는 오늘 새로운 교통 정책을 발표했다고 밝혔다.",
    "Prices rose 3.5% in Q3² — café owners said the naïve forecast (by Łukasz) was wrong.",
    "Emoji 🙂 between words 😀 and a flag 🇫🇷 are separators, as is \ufffe or \uffff.",
    "Combining marks: e\u0301tude, cafe\u0301, and a word\u00a0with a no-break space.",
]
TEXTS = {
    "empty": "",
    "spaces only": " \n\t ",
    "too few words": "one two three four",
    "a repeated phrase": "the same three " * 100,
    "English": " ".join(SENTENCES[:1] * 3 + SENTENCES[7:8]),
    "all scripts": " ".join(SENTENCES),
    "Chinese only": SENTENCES[4] * 3,
    "a word longer than the hash's positions": "word " * 10 + "x" * 5000 + "y" * 100 + " then more words" * 10,
    "a lone surrogate": "before \ud800 after " * 20 + " ".join(SENTENCES[:2]),
}


def computed_ways() -> list:
    ways = [fingerprint_text, fingerprint_with_numpy]
    if fingerprint.compiled is None:
        ways.remove(fingerprint_text)  # fingerprint_text is the numpy recipe itself
    return ways


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
def test_the_fingerprint_is_the_plain_recipes(text):
    expected = reference_fingerprint(text)
    for way in computed_ways():
        assert way(text) == expected, way.__name__


def test_short_and_repeated_texts_have_no_fingerprint_and_articles_have_one():
    assert fingerprint_text(TEXTS["empty"]) is None
    assert fingerprint_text(TEXTS["a repeated phrase"]) is None  # three distinct shingles
    found = fingerprint_text(TEXTS["all scripts"])
    assert found is not None and len(found.signature) == NUM_PERM * 4 and len(found.bands) == 12


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(st.lists(st.sampled_from(["a", "B", "é", "İ", "Σ", "9", "²", "中", "カ", "한", "🙂", "\u0301",
                                            " ", "-", ".", "\n", "word", "Word", "\ud800", "\uffff"]),
                           min_size=0, max_size=120))
def test_any_text_of_mixed_characters_has_the_plain_recipes_fingerprint(pieces):
    text = "".join(pieces)
    expected = reference_fingerprint(text)
    for way in computed_ways():
        assert way(text) == expected, way.__name__


@pytest.mark.skipif(fingerprint.compiled is None, reason="the compiled walks are not built")
def test_the_compiled_pass_refuses_tables_it_was_not_made_for():
    classes, permutations, multipliers = fingerprint._compiled_tables()
    with pytest.raises(ValueError):
        fingerprint.compiled.text_minhash("text", classes[:100], permutations, WORD_BASE, LAST_POSITION,
                                          multipliers, MIN_SHINGLES)
    with pytest.raises(ValueError):
        fingerprint.compiled.text_minhash("text", classes, permutations, WORD_BASE, LAST_POSITION, multipliers, 65)
