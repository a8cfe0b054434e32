"""A fixed-size bit filter of 64-bit keys: a "surely not stored" answer without a database look-up.

The SQLite state keys every stored article URL and every LSH band of its
fingerprint by a 64-bit hash (``state.url_key``, ``fingerprint.band_keys``).
Most look-ups of a crawl are for keys the state does not hold (new articles,
articles unlike any stored one), and each cost a SQLite query on the event
loop's thread. This filter sets two bits per key (a Bloom filter with two
positions: the key's low bits, and the high bits of the key times an odd
constant): a clear bit proves the key is absent; two set bits only say
"maybe", and the database answers. Its size is fixed when the crawl starts, so it does not
grow with the state: as the state grows the filter only fills up, and more
look-ups fall through to the database (all of them once every bit is set).

Bits are set only by :meth:`KeyFilter.add`, under a lock (a lost update of a
byte would lose a key, and a lost key would let an article be emitted twice);
reads take no lock. Keys must be set before the rows holding them are
committed, so a reader never finds a committed key's bit clear.
"""
from __future__ import annotations

import threading
from typing import Iterable

import numpy as np

# Default size: 16 MiB (2**27 bits). A state of 100,000 articles holds ~1.4 million keys (2 URL keys
# and 12 band keys per article), which set ~2% of the bits; a key not held then reads "maybe" with
# probability ~0.0004 (both its bits set), so a new article's 12 band keys all miss with ~0.995 (one
# bit per key: ~0.89). At a million articles ~19% of the bits are set and the filter still spares ~64%
# of the band look-ups (one bit per key: ~28%) and ~93% of the URL look-ups.
DEFAULT_FILTER_MIB = 16
# Odd 64-bit multiplier giving a key's second position (Fibonacci hashing: its high bits depend on all
# of the key's bits, so the two positions are close to independent).
_SECOND_POSITION_MULTIPLIER = 0x9E3779B97F4A7C15
_UINT64 = (1 << 64) - 1


class KeyFilter:
    """``size`` bits (a power of two); a key sets the bits at its two positions (see the module docstring)."""

    def __init__(self, mib: float = DEFAULT_FILTER_MIB):
        size = 1 << max(3, int(mib * 8 * 2**20).bit_length() - 1)  # bits, a power of two
        self.mask = size - 1
        self.shift = 64 - (size.bit_length() - 1)  # the second position: the product's top bits
        self.bytes = bytearray(size >> 3)
        self.lock = threading.Lock()

    def add(self, keys: Iterable[int]) -> None:
        """Set the bits of ``keys`` (signed or unsigned 64-bit ints).

        With numpy, in C: the state adds a batch's ~28,000 keys at a time, and a Python loop over them
        held the GIL ~4 ms per batch, which the event loop's thread waited for.
        """
        values = np.fromiter(keys, dtype=np.int64).view(np.uint64)
        second = (values * np.uint64(_SECOND_POSITION_MULTIPLIER)) >> np.uint64(self.shift)  # wraps mod 2**64
        slots = np.concatenate((values & np.uint64(self.mask), second))
        held = np.frombuffer(self.bytes, dtype=np.uint8)
        with self.lock:
            np.bitwise_or.at(held, (slots >> np.uint64(3)).astype(np.intp),
                             np.left_shift(1, slots & np.uint64(7)).astype(np.uint8))

    def may_hold(self, key: int) -> bool:
        """Whether ``key`` may be held (both its bits set); False proves it is not."""
        return self.may_hold_any((key,))

    def may_hold_any(self, keys: Iterable[int]) -> bool:
        """Whether any of ``keys`` may be held, in one loop over the keys.

        The crawl asks this for every article (its URL keys, then its 12 band keys), on the event
        loop's thread; a method call per key inside ``any`` cost ~25 us per article there, this loop
        ~5 us (most keys stop at their first, clear, bit). The positions are those ``add`` sets.
        """
        held, mask, shift = self.bytes, self.mask, self.shift
        for key in keys:
            first = key & mask
            if held[first >> 3] >> (first & 7) & 1:
                second = ((key * _SECOND_POSITION_MULTIPLIER) & _UINT64) >> shift
                if held[second >> 3] >> (second & 7) & 1:
                    return True
        return False

    def filled(self) -> float:
        """The share of bits set (0..1); a key not held reads "maybe" with about its square."""
        return int.from_bytes(self.bytes, "little").bit_count() / (self.mask + 1)
