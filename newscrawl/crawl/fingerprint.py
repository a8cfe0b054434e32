"""Content fingerprints of articles, for near-duplicate detection (syndicated stories).

An article's text becomes a set of shingles (3 consecutive words; each CJK
ideograph, kana or hangul syllable is a word of its own), summarised by a
MinHash signature with the permutations of ``datasketch.MinHash`` (its
``affine32`` scheme). Two articles whose shingle sets have a Jaccard
similarity of at least ``NEAR_DUPLICATE_JACCARD`` are near-duplicates. To find
candidates without comparing every pair, the signature is cut into ``BANDS``
bands of ``ROWS`` values; articles sharing one band key are candidates (LSH),
and a candidate is confirmed by the signatures' estimated Jaccard.

Band and row counts were chosen for the S-curve 1-(1-J^ROWS)^BANDS: with
12 bands of 5 rows a pair at J=0.8 becomes a candidate with probability
0.99, a pair at J=0.3 with 0.03.

Speed: the fingerprint runs once per article in the extraction worker, and
that worker shares the machine with the crawl. With the compiled walks
(``newscrawl/extract/_fastwalk.pyx``, ``text_minhash``) words, shingles and
the MinHash are computed in one C pass over the text, with no array made:
~0.07 ms for an article text of 6.8 K characters against ~0.35 ms with
numpy (``benchmarks/hot_paths.py``). Without them, words are found and
hashed with numpy over the text's code points (a character-class table, a
token id per character, one polynomial hash per word), and the MinHash is
applied to all shingles at once; both ways give the same values, which a test
holds equal to a plain per-character reference. ``FINGERPRINT_SCHEME`` names
this recipe; the state stores it, because signatures of another recipe cannot
be compared.
"""
from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np
from datasketch import MinHash

from ..extract.fastwalk import compiled

# Names the shingling, word hash and MinHash below. Change it with any of them: a state holding
# signatures of another scheme drops them (state.py), since they would never match new ones.
FINGERPRINT_SCHEME = "words3-poly32-affine32-60"
SHINGLE_WORDS = 3  # words per shingle (3-grams: short enough to survive small edits)
BANDS = 12  # LSH bands per signature
ROWS = 5  # signature values per band
NUM_PERM = BANDS * ROWS  # MinHash permutations
SEED = 1  # MinHash seed; changing it invalidates stored signatures
# Estimated Jaccard of shingle sets at or above which two articles are near-duplicates (0..1).
# 0.8: a syndicated copy with its own headline/credit lines stays above 0.9 on our test pages;
# two different stories on one topic stay below 0.2.
NEAR_DUPLICATE_JACCARD = 0.8
# Texts with fewer shingles than this are too short to judge (a shared short notice is not a story).
MIN_SHINGLES = 20

# Character classes: words are runs of letters/digits (str.isalnum); each CJK ideograph, kana or
# hangul syllable is a word by itself. Characters beyond the BMP count as separators.
_OTHER, _WORD, _SINGLE = 0, 1, 2
_SINGLE_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF))
_BMP_LAST = 0xFFFF  # the last code point of the table (a noncharacter, class _OTHER)
_WORD_HASH_BASE = 0x01000193  # multiplier of the per-word polynomial hash (the FNV-1 32-bit prime)
_MAX_WORD_POSITION = 4095  # characters of a word after this one share the last power of the base
_BAND_KEYS = struct.Struct(f">{BANDS}q")
# One BLAKE2b per band, its person the band's index: a band key is the first 8 bytes of its rows' digest.
_BAND_HASHERS = [hashlib.blake2b(digest_size=8, person=band.to_bytes(2, "big")) for band in range(BANDS)]
# Odd 32-bit multipliers mixing the words of a shingle in order ("a b c" and "c b a" differ).
_WINDOW_MULTIPLIERS = tuple(np.uint32(m) for m in (0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D)[:SHINGLE_WORDS])


@dataclass(frozen=True, slots=True)  # slots: no per-instance dict (thousands are pending at once)
class Fingerprint:
    """A MinHash signature (NUM_PERM uint32 values) and its LSH band keys (signed 64-bit ints)."""

    signature: bytes
    bands: tuple[int, ...]

    def __reduce__(self):
        # The constructor and its two values: a slotted dataclass's own pickling looks up its fields
        # at every load (~3 us), and a crawl loads one fingerprint per article from its worker.
        return Fingerprint, (self.signature, self.bands)

    def similarity(self, other_signature: bytes) -> float:
        """Estimated Jaccard similarity with another stored signature (0..1)."""
        mine = np.frombuffer(self.signature, dtype=np.uint32)
        other = np.frombuffer(other_signature, dtype=np.uint32)
        if mine.shape != other.shape:
            return 0.0
        return float(np.count_nonzero(mine == other)) / len(mine)

    def first_similar(self, signatures: Sequence[bytes | None], threshold: float) -> int | None:
        """The index of the first signature at least ``threshold`` similar to this one, else None.

        One numpy comparison for all candidates: a crawl of look-alike pages can hold hundreds of
        LSH candidates per article, and comparing them one by one cost more than the look-up.
        """
        usable = [index for index, other in enumerate(signatures) if other and len(other) == len(self.signature)]
        if not usable:
            return None
        stacked = np.frombuffer(b"".join(signatures[index] for index in usable), dtype=np.uint32)
        stacked = stacked.reshape(len(usable), -1)
        shares = np.count_nonzero(stacked == np.frombuffer(self.signature, dtype=np.uint32), axis=1)
        hits = np.flatnonzero(shares / stacked.shape[1] >= threshold)
        return usable[int(hits[0])] if len(hits) else None


@lru_cache(maxsize=1)
def _character_classes() -> np.ndarray:
    """The class (_OTHER, _WORD, _SINGLE) of every BMP code point (~10 ms once per process)."""
    classes = np.fromiter((chr(code).isalnum() for code in range(_BMP_LAST + 1)), dtype=np.uint8,
                          count=_BMP_LAST + 1)
    for low, high in _SINGLE_RANGES:
        classes[low:high + 1] = _SINGLE
    classes[_BMP_LAST] = _OTHER
    return classes


@lru_cache(maxsize=1)
def _word_hash_powers() -> np.ndarray:
    """_WORD_HASH_BASE ** position (mod 2**32) for positions 0.._MAX_WORD_POSITION in a word."""
    powers = np.empty(_MAX_WORD_POSITION + 1, dtype=np.uint32)
    value = 1
    for position in range(_MAX_WORD_POSITION + 1):
        powers[position] = value
        value = (value * _WORD_HASH_BASE) & 0xFFFFFFFF
    return powers


def _fmix32(values: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finalizer (a bijection that spreads every input bit over the output)."""
    values = values ^ (values >> np.uint32(16))
    values = values * np.uint32(0x85EBCA6B)
    values = values ^ (values >> np.uint32(13))
    values = values * np.uint32(0xC2B2AE35)
    return values ^ (values >> np.uint32(16))


def word_hashes(text: str) -> np.ndarray:
    """A 32-bit hash of each word of the lower-cased text, in order (see the module docstring).

    The text is read as UTF-16 code units: a character beyond the BMP becomes two surrogates, which
    are separators (class _OTHER) as the character itself would be, so the words and their hashes
    are those of the code points, with one array operation less and half the memory.
    """
    codes = np.frombuffer(text.lower().encode("utf-16-le", "surrogatepass"), dtype=np.uint16)
    classes = _character_classes()[codes]
    in_word = np.flatnonzero(classes)  # positions of the characters that belong to words
    if not len(in_word):
        return np.empty(0, dtype=np.uint32)
    is_word = classes == _WORD
    starts = classes == _SINGLE
    starts[0] |= is_word[0]
    starts[1:] |= is_word[1:] > is_word[:-1]  # a letter after a non-letter
    start_positions = np.flatnonzero(starts)
    word_of = np.cumsum(starts)[in_word] - 1  # for each word character, the index of its word
    position = in_word - start_positions[word_of]  # its position in that word
    np.minimum(position, _MAX_WORD_POSITION, out=position)
    terms = codes[in_word].astype(np.uint32) * _word_hash_powers()[position]
    # reduceat sums in 64 bits, so the finalizer runs on 64-bit values (its high bits shift down into
    # the low ones): the recipe FINGERPRINT_SCHEME names. The low 32 bits are the word's hash.
    return _fmix32(np.add.reduceat(terms, np.searchsorted(in_word, start_positions))).astype(np.uint32)


def shingle_hashes(text: str) -> np.ndarray:
    """Distinct 32-bit hashes of the text's shingles (word hashes mixed per 3-word window), sorted."""
    words = word_hashes(text)
    if len(words) < SHINGLE_WORDS:
        return np.empty(0, dtype=np.uint32)
    count = len(words) - SHINGLE_WORDS + 1
    combined = words[:count] * _WINDOW_MULTIPLIERS[0]  # wraps modulo 2**32
    for offset, multiplier in enumerate(_WINDOW_MULTIPLIERS[1:], 1):
        combined += words[offset:offset + count] * multiplier
    combined.sort()
    repeated = np.empty(count, dtype=bool)
    repeated[0] = False
    np.equal(combined[1:], combined[:-1], out=repeated[1:])
    return combined[~repeated]  # np.unique does the same with ~10 us more overhead per call


def band_keys(signature: np.ndarray) -> tuple[int, ...]:
    """One signed 64-bit key per band (band index mixed in, so equal rows of different bands differ)."""
    return _band_keys_of(signature.astype(np.uint32).tobytes())


def _band_keys_of(rows: bytes) -> tuple[int, ...]:
    width = ROWS * 4
    digests = []
    for band, hasher in enumerate(_BAND_HASHERS):
        hasher = hasher.copy()  # a copy of a keyed hasher: ~40% less than making one per band
        hasher.update(rows[band * width:(band + 1) * width])
        digests.append(hasher.digest())
    return _BAND_KEYS.unpack(b"".join(digests))


@lru_cache(maxsize=1)
def _permutations() -> tuple[np.ndarray, np.ndarray]:
    """The (a, b) of datasketch's affine32 permutations for NUM_PERM and SEED, as uint32 columns."""
    template = MinHash(num_perm=NUM_PERM, seed=SEED, scheme="affine32")
    first, second = template.permutations
    return np.asarray(first, dtype=np.uint32), np.asarray(second, dtype=np.uint32)


def minhash_signature(shingles: np.ndarray) -> np.ndarray:
    """The MinHash signature of 32-bit shingle hashes: what ``MinHash(scheme="affine32")``'s
    ``update_batch`` computes with the identity as hash function (a test holds the two equal),
    in one matrix operation instead of a Python loop over the values."""
    first, second = _permutations()
    mixed = _fmix32(shingles.astype(np.uint32, copy=False))[:, np.newaxis]
    return (mixed * first + second).min(axis=0)


@lru_cache(maxsize=1)
def _compiled_tables() -> tuple[bytes, bytes, tuple[int, ...]]:
    """The character classes, the permutations (a values, then b values) and the window multipliers,
    as the compiled ``text_minhash`` reads them."""
    first, second = _permutations()
    return (_character_classes().tobytes(), first.tobytes() + second.tobytes(),
            tuple(int(multiplier) for multiplier in _WINDOW_MULTIPLIERS))


def fingerprint_text(text: str) -> Fingerprint | None:
    """The fingerprint of an article text, or None when it is too short to compare."""
    if compiled is None:
        return fingerprint_with_numpy(text)
    classes, permutations, multipliers = _compiled_tables()
    rows = compiled.text_minhash(text.lower(), classes, permutations, _WORD_HASH_BASE, _MAX_WORD_POSITION,
                                 multipliers, MIN_SHINGLES)
    return None if rows is None else Fingerprint(rows, _band_keys_of(rows))


def fingerprint_with_numpy(text: str) -> Fingerprint | None:
    """``fingerprint_text`` without the compiled walks: the same values, with numpy's array passes."""
    shingles = shingle_hashes(text)
    if len(shingles) < MIN_SHINGLES:
        return None
    signature = minhash_signature(shingles)
    return Fingerprint(signature.tobytes(), band_keys(signature))
