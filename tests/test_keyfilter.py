"""The state's key filter: no false "absent", few false "maybe", and look-ups it rules out skip SQLite."""
from __future__ import annotations

import random

import pytest

from newscrawl.demo.stories import HARBOR
from newscrawl.crawl.fingerprint import NEAR_DUPLICATE_JACCARD, fingerprint_text
from newscrawl.store.keyfilter import KeyFilter
from newscrawl.store.state import SqliteState

from incremental_web import story_record


def _random_keys(seed: int, count: int) -> list[int]:
    draw = random.Random(seed)
    return [draw.randrange(-2**63, 2**63) for _ in range(count)]


def test_every_added_key_reads_maybe_and_few_others_do():
    held = KeyFilter(mib=1)  # 8,388,608 bits
    keys = _random_keys(1, 20_000)
    held.add(keys)
    assert all(held.may_hold(key) for key in keys)  # negative keys included
    others = _random_keys(2, 20_000)
    false_maybes = sum(held.may_hold(key) for key in others)
    assert false_maybes < 5  # ~0.48% of the bits are set, both of a key's bits: ~0.5 expected
    assert 0.004 < held.filled() < 0.006
    assert held.may_hold_any([others[0], keys[5]]) and not held.may_hold_any([])


def test_any_of_several_keys_reads_maybe_exactly_when_one_of_them_does():
    held = KeyFilter(mib=0.001)  # 8,192 bits: crowded, so many keys not added read "maybe" too
    held.add(_random_keys(3, 1_000))
    others = _random_keys(4, 3_000)
    groups = [others[start:start + 3] for start in range(0, len(others), 3)]
    answers = [held.may_hold_any(group) for group in groups]
    assert answers == [any(held.may_hold(key) for key in group) for group in groups]
    assert 0 < sum(answers) < len(groups)  # both answers occur


def test_size_is_rounded_down_to_a_power_of_two_bits():
    assert KeyFilter(mib=1).mask + 1 == 8 * 2**20
    assert KeyFilter(mib=1.5).mask + 1 == 8 * 2**20
    assert KeyFilter(mib=0.0001).mask + 1 == 512


class _NoQueries:
    def execute(self, *args):
        raise AssertionError(f"queried SQLite: {args[0]}")


def test_look_ups_the_filter_rules_out_do_not_query_the_file(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite")
    state.add_articles([story_record(0)])
    state.db = _NoQueries()
    assert not state.is_known("http://a.test/" + HARBOR[1].key, "http://a.test/elsewhere")
    assert state.near_duplicate_of(fingerprint_text(" ".join(HARBOR[2].paragraphs)), NEAR_DUPLICATE_JACCARD) is None
    with pytest.raises(AssertionError, match="queried SQLite"):
        state.is_known("http://a.test/" + HARBOR[0].key)  # its bit is set: the file must answer


def test_a_reopened_state_loads_its_keys_into_the_filter(tmp_path):
    path = tmp_path / "state.sqlite"
    first = SqliteState(path)
    first.add_articles([story_record(0), story_record(1)])
    first.close()
    again = SqliteState(path, filter_mib=0.01)  # a small filter: its bits come from the file
    assert again.filter.filled() > 0
    assert again.is_known("http://a.test/" + HARBOR[1].key + "?from=rss")
    copy = fingerprint_text("Shared by a partner site. " + " ".join(HARBOR[0].paragraphs))
    assert again.near_duplicate_of(copy, NEAR_DUPLICATE_JACCARD) == "http://a.test/" + HARBOR[0].key
    assert not again.is_known("http://a.test/" + HARBOR[2].key)


@pytest.mark.parametrize("mib", [0, 0.0001])  # no filter, and a tiny one with every bit set
def test_answers_are_the_same_without_the_filter_or_with_a_full_one(tmp_path, mib):
    state = SqliteState(tmp_path / "state.sqlite", filter_mib=mib)
    state.add_articles([story_record(n) for n in range(3)])
    if state.filter is not None:
        state.filter.add(range(512))
        assert state.filter.filled() == 1.0
    assert state.is_known("http://a.test/" + HARBOR[2].key) and not state.is_known("http://a.test/none")
    other = fingerprint_text(" ".join(HARBOR[4].paragraphs))
    assert state.near_duplicate_of(other, NEAR_DUPLICATE_JACCARD) is None
    assert "key filter" in state.describe() or mib == 0
