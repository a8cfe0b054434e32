"""A fixed-size bit filter of 64-bit keys: a "surely not stored" answer without a database look-up.

The SQLite state keys every stored article URL and every LSH band of its
fingerprint by a 64-bit hash (``state.url_key``, ``fingerprint.band_keys``).
Most look-ups of a crawl are for keys the state does not hold (new articles,
articles unlike any stored one), and each cost a SQLite query on the event
loop's thread. This filter holds one bit per slot, slot = key modulo the
size: a clear bit proves the key is absent; a set bit only says "maybe", and
the database answers. Its size is fixed when the crawl starts, so it does not
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
# and 12 band keys per article), which sets ~1% of the bits; then a new article's 12 band keys all
# miss with probability ~0.89 and its 2 URL keys with ~0.98. At a million articles ~10% are set and
# the filter still spares ~28% of the band look-ups and ~80% of the URL look-ups.
DEFAULT_FILTER_MIB = 16


class KeyFilter:
    """One bit per slot, ``bits`` slots (a power of two); a key's slot is its low bits."""

    def __init__(self, mib: float = DEFAULT_FILTER_MIB):
        size = 1 << max(3, int(mib * 8 * 2**20).bit_length() - 1)  # bits, a power of two
        self.mask = size - 1
        self.bytes = bytearray(size >> 3)
        self.lock = threading.Lock()

    def add(self, keys: Iterable[int]) -> None:
        """Set the bits of ``keys`` (signed or unsigned 64-bit ints).

        With numpy, in C: the state adds a batch's ~28,000 keys at a time, and a Python loop over them
        held the GIL ~4 ms per batch, which the event loop's thread waited for.
        """
        slots = np.fromiter(keys, dtype=np.int64).view(np.uint64) & np.uint64(self.mask)
        held = np.frombuffer(self.bytes, dtype=np.uint8)
        with self.lock:
            np.bitwise_or.at(held, (slots >> np.uint64(3)).astype(np.intp),
                             np.left_shift(1, slots & np.uint64(7)).astype(np.uint8))

    def may_hold(self, key: int) -> bool:
        slot = key & self.mask
        return bool(self.bytes[slot >> 3] >> (slot & 7) & 1)

    def may_hold_any(self, keys: Iterable[int]) -> bool:
        held = self.bytes
        mask = self.mask
        for key in keys:
            slot = key & mask
            if held[slot >> 3] >> (slot & 7) & 1:
                return True
        return False

    def filled(self) -> float:
        """The share of bits set (0..1): the chance that a key not held still reads "maybe"."""
        return int.from_bytes(self.bytes, "little").bit_count() / (self.mask + 1)
