"""looks_binary: a page's head with more than 1 control byte in 100 (other than tab, newlines, form
feed, ESC) is binary, whatever the bytes; magic numbers and UTF-16 BOMs decide first."""
from __future__ import annotations

import random

from newscrawl.extract.dom import BINARY_CONTROL_BYTE_SHARE_INVERSE, looks_binary

TEXT_CONTROLS = b"\t\n\x0c\r\x1b"


def control_share_says_binary(data: bytes) -> bool:
    head = data[:1024]
    controls = sum(1 for byte in head if byte < 0x20 and byte not in TEXT_CONTROLS)
    return controls * BINARY_CONTROL_BYTE_SHARE_INVERSE > len(head)


def test_the_share_of_control_bytes_decides_on_any_bytes():
    rng = random.Random(5)
    for _ in range(300):
        size = rng.choice((0, 1, 99, 100, 101, 1024, 5000))
        data = b"<" + bytes(rng.randrange(0x20) if rng.random() < 0.03 else rng.randrange(0x20, 0x100)
                            for _ in range(size))
        assert looks_binary(data) == control_share_says_binary(data), data[:40]


def test_text_control_bytes_do_not_count_and_others_do():
    page = b"<html>" + b"\t\n\x0c\r\x1b" * 200
    assert not looks_binary(page)
    assert looks_binary(b"<html>" + b"\x00\x01" * 10 + b"x" * 900)  # 20 in 926: binary
    assert not looks_binary(b"<html>" + b"\x00" * 9 + b"x" * 1009)  # 9 in 1024: text


def test_magic_numbers_and_utf16_boms_decide_first():
    assert looks_binary(b"%PDF-1.7 plain enough text")
    assert not looks_binary(b"\xff\xfe<\x00h\x00t\x00m\x00l\x00")
