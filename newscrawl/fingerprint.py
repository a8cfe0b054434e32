"""Content fingerprints of articles, for near-duplicate detection (syndicated stories).

An article's text becomes a set of shingles (3 consecutive words; CJK
characters count as words, each shingle hashed to 32 bits with numpy),
summarised by a MinHash signature from ``datasketch``. Two articles whose shingle sets have a Jaccard similarity of
at least ``NEAR_DUPLICATE_JACCARD`` are near-duplicates. To find candidates
without comparing every pair, the signature is cut into ``BANDS`` bands of
``ROWS`` values; articles sharing one band key are candidates (LSH), and a
candidate is confirmed by the signatures' estimated Jaccard.

Band and row counts were chosen for the S-curve 1-(1-J^ROWS)^BANDS: with
12 bands of 5 rows a pair at J=0.8 becomes a candidate with probability
0.99, a pair at J=0.3 with 0.03.
"""
from __future__ import annotations

import hashlib
import re
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np
from datasketch import MinHash

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

# Words: runs of letters/digits, or one CJK ideograph / kana / hangul syllable each.
_TOKEN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W_]+")
_BAND_KEY = struct.Struct(">q")
_PERSONS = [band.to_bytes(2, "big") for band in range(BANDS)]
# Odd 32-bit multipliers mixing the words of a shingle in order ("a b c" and "c b a" differ).
_WINDOW_MULTIPLIERS = (0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D)[:SHINGLE_WORDS]
_MASK32 = np.uint64(0xFFFFFFFF)


@dataclass(frozen=True)
class Fingerprint:
    """A MinHash signature (NUM_PERM uint32 values) and its LSH band keys (signed 64-bit ints)."""

    signature: bytes
    bands: tuple[int, ...]

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


def shingle_hashes(text: str) -> np.ndarray:
    """Distinct 32-bit hashes of the text's shingles (CRC-32 per word, combined per 3-word window)."""
    tokens = _TOKEN_RE.findall(text.lower())
    if len(tokens) < SHINGLE_WORDS:
        return np.empty(0, dtype=np.uint64)
    words = np.fromiter((zlib.crc32(t.encode("utf-8")) for t in tokens), dtype=np.uint64, count=len(tokens))
    count = len(tokens) - SHINGLE_WORDS + 1
    combined = np.zeros(count, dtype=np.uint64)
    for offset, multiplier in enumerate(_WINDOW_MULTIPLIERS):
        combined = (combined + words[offset:offset + count] * np.uint64(multiplier)) & _MASK32
    return np.unique(combined)


def band_keys(signature: np.ndarray) -> tuple[int, ...]:
    """One signed 64-bit key per band (band index mixed in, so equal rows of different bands differ)."""
    rows = signature.astype(np.uint32).tobytes()
    width = ROWS * 4
    return tuple(
        _BAND_KEY.unpack(hashlib.blake2b(rows[band * width:(band + 1) * width], digest_size=8,
                                         person=_PERSONS[band]).digest())[0]
        for band in range(BANDS))


@lru_cache(maxsize=1)
def _template() -> MinHash:
    """A MinHash whose permutations are reused (drawing them costs more than hashing an article)."""
    return MinHash(num_perm=NUM_PERM, seed=SEED)


def fingerprint_text(text: str) -> Fingerprint | None:
    """The fingerprint of an article text, or None when it is too short to compare."""
    shingles = shingle_hashes(text)
    if len(shingles) < MIN_SHINGLES:
        return None
    template = _template()
    minhash = MinHash(num_perm=NUM_PERM, seed=SEED, hashfunc=int, permutations=template.permutations,
                      scheme=template.scheme)
    minhash.update_batch(shingles.tolist())  # already hashed: the hash function is the identity
    signature = np.asarray(minhash.hashvalues, dtype=np.uint32)
    return Fingerprint(signature.tobytes(), band_keys(signature))
