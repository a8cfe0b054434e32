"""The state store, output repair, fingerprints and the state admin command, without a crawl."""
from __future__ import annotations

import json
import logging
import sqlite3

import numpy as np
from datasketch import MinHash

from newscrawl.demo.stories import HARBOR
from newscrawl.crawl.fingerprint import (FINGERPRINT_SCHEME, NEAR_DUPLICATE_JACCARD, NUM_PERM, SEED, fingerprint_text,
                                   minhash_signature, shingle_hashes, word_hashes)
from newscrawl.store.incremental import Ledger, PendingFingerprints
from newscrawl.items import ArticleItem
from newscrawl.store.output_repair import repair_output
from newscrawl.store.state import ArticleRecord, SqliteState
from newscrawl.store.state_admin import main as state_admin

from incremental_web import story_record


def test_repair_cuts_a_torn_line_and_returns_the_unrecorded_ones(tmp_path):
    path = tmp_path / "out.jsonl"
    recorded = json.dumps({"canonical_url": "http://a.test/1"}) + "\n"
    unrecorded = json.dumps({"canonical_url": "http://a.test/2"}) + "\n"
    path.write_text(recorded + unrecorded + '{"canonical_url": "http://a.t', encoding="utf-8")
    repair = repair_output(path, committed=len(recorded))
    assert [line["canonical_url"] for line in repair.items] == ["http://a.test/2"]
    assert repair.cut_bytes == len('{"canonical_url": "http://a.t')
    assert path.read_text(encoding="utf-8") == recorded + unrecorded
    assert repair_output(tmp_path / "missing.jsonl") is None


def test_repair_cuts_garbage_after_the_recorded_offset(tmp_path):
    path = tmp_path / "out.jsonl"
    good = json.dumps({"canonical_url": "http://a.test/1"}) + "\n"
    path.write_bytes(good.encode() + b"\x00\x00\x00\n" + good.encode())
    repair = repair_output(path, committed=0)
    assert len(repair.items) == 1 and path.read_bytes() == good.encode()


def test_state_knows_canonical_and_fetched_urls_and_finds_near_duplicates(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite")
    state.add_articles([story_record(0), story_record(1)], "out.jsonl", 123)
    assert state.is_known("http://a.test/" + HARBOR[0].key)
    assert state.is_known("http://a.test/" + HARBOR[0].key + "?from=rss")
    assert not state.is_known("http://a.test/" + HARBOR[2].key)
    assert state.is_known("http://a.test/" + HARBOR[2].key, "http://a.test/" + HARBOR[1].key)  # any of them
    assert not state.is_known("http://a.test/" + HARBOR[2].key, "http://a.test/" + HARBOR[3].key)
    copy = fingerprint_text("Republished with permission. " + " ".join(HARBOR[0].paragraphs))
    assert state.near_duplicate_of(copy, NEAR_DUPLICATE_JACCARD) == "http://a.test/" + HARBOR[0].key
    other = fingerprint_text(" ".join(HARBOR[2].paragraphs))
    assert state.near_duplicate_of(other, NEAR_DUPLICATE_JACCARD) is None
    assert state.open_outputs() == [("out.jsonl", 123)]


class _Stats:
    def __init__(self):
        self.values = {}

    def inc_value(self, key, count=1):
        self.values[key] = self.values.get(key, 0) + count


def _article(key: str, text: str) -> ArticleItem:
    return ArticleItem(url=f"http://b.test/{key}", canonical_url=f"http://b.test/{key}", site="b", title=key,
                       published=None, text=text, html="", lang="en")


def test_ledger_marks_copies_of_articles_still_pending_and_of_recorded_ones(tmp_path):
    ledger = Ledger(SqliteState(tmp_path / "state.sqlite"), _Stats(), NEAR_DUPLICATE_JACCARD)
    first = _article("first", " ".join(HARBOR[0].paragraphs))
    dropped = _article("gone", " ".join(HARBOR[1].paragraphs))
    assert ledger.admit(first) is None and ledger.admit(dropped) is None
    ledger.release(dropped.canonical_url)  # dropped later on: nothing is a copy of it
    copy = _article("copy", "Republished with permission. " + " ".join(HARBOR[0].paragraphs))
    assert ledger.admit(copy) is None and copy.duplicate_of == first.canonical_url
    of_dropped = _article("of-gone", "Via the wire. " + " ".join(HARBOR[1].paragraphs))
    assert ledger.admit(of_dropped) is None and of_dropped.duplicate_of is None
    unrelated = _article("other", " ".join(HARBOR[2].paragraphs))
    assert ledger.admit(unrelated) is None and unrelated.duplicate_of is None
    for item in (first, copy, of_dropped, unrelated):
        ledger.written(item)
    ledger.commit()
    assert not ledger.pending.by_band  # all recorded: the pending index is empty again
    late = _article("late", "From our partners. " + " ".join(HARBOR[0].paragraphs))
    assert ledger.admit(late) is None and late.duplicate_of == first.canonical_url  # found in the backend


def test_pending_fingerprints_forget_a_record_and_keep_those_sharing_its_bands():
    pending = PendingFingerprints()
    first, copy, other = story_record(0), story_record(0, text=" ".join(HARBOR[0].paragraphs)), story_record(1)
    for record in (first, copy, other):
        pending.add(record)
    assert pending.sharing_a_band(first.fingerprint) == [first, copy]  # earliest admitted first
    pending.remove(first)
    assert pending.sharing_a_band(first.fingerprint) == [copy]
    pending.remove(first)  # again: nothing else goes
    assert pending.sharing_a_band(other.fingerprint) == [other]
    pending.remove(copy)
    pending.remove(other)
    assert not pending.by_band


def test_pending_fingerprints_shared_by_three_records_shrink_back_to_one_entry():
    pending = PendingFingerprints()
    same = [story_record(0, first_seen=f"2030-01-0{day}T00:00:00+00:00") for day in (1, 2, 3)]  # one text: all bands shared
    for record in same:
        pending.add(record)
    assert pending.sharing_a_band(same[0].fingerprint) == same
    pending.remove(same[1])
    assert pending.sharing_a_band(same[0].fingerprint) == [same[0], same[2]]
    pending.remove(same[0])
    assert pending.sharing_a_band(same[2].fingerprint) == [same[2]]
    assert all(entry == (2, same[2]) for entry in pending.by_band.values())  # single entries, not lists
    pending.remove(same[2])
    assert not pending.by_band


def test_first_similar_skips_unusable_and_dissimilar_signatures_and_keeps_their_order():
    story = " ".join(HARBOR[0].paragraphs)
    fingerprint = fingerprint_text(story)
    near = fingerprint_text("Republished with permission. " + story).signature
    other = fingerprint_text(" ".join(HARBOR[2].paragraphs)).signature
    candidates = [other, None, near[:8], near, fingerprint.signature]
    assert fingerprint.first_similar(candidates, NEAR_DUPLICATE_JACCARD) == 3
    assert fingerprint.first_similar([other, None, b""], NEAR_DUPLICATE_JACCARD) is None
    assert fingerprint.first_similar([], NEAR_DUPLICATE_JACCARD) is None
    assert fingerprint.first_similar([other], 0.0) == 0  # a threshold of 0 takes any signature


def test_commit_of_a_count_records_only_the_articles_written_before_the_sync(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite")
    ledger = Ledger(state, _Stats(), NEAR_DUPLICATE_JACCARD)
    before = [_article(f"before-{n}", " ".join(HARBOR[n].paragraphs)) for n in range(2)]
    after = _article("after", " ".join(HARBOR[2].paragraphs))
    for item in (*before, after):
        assert ledger.admit(item) is None
        ledger.written(item)
    ledger.commit("out.jsonl", 100, count=2)  # the fsync covered the first two lines only
    assert [state.is_known(item.canonical_url) for item in (*before, after)] == [True, True, False]
    assert ledger.is_known(after.canonical_url)  # still in flight: not fetched again meanwhile
    assert state.open_outputs() == [("out.jsonl", 100)]
    ledger.commit("out.jsonl", 150)
    assert state.is_known(after.canonical_url) and not ledger.unrecorded


def test_look_ups_do_not_wait_for_a_write_in_progress(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite")
    state.add_articles([story_record(0)])
    writes = state.writer.db
    writes.execute("PRAGMA busy_timeout=0")
    writes.execute("BEGIN IMMEDIATE")  # the sync thread's transaction, not committed yet
    writes.execute("INSERT INTO urls VALUES (?, ?)", (12345, 1))
    try:
        assert state.is_known("http://a.test/" + HARBOR[0].key)  # answered at once, from the last commit
        assert not state.is_known("http://a.test/" + HARBOR[1].key)
    finally:
        writes.execute("ROLLBACK")


def test_short_texts_get_no_fingerprint():
    assert fingerprint_text("Breaking: road closed.") is None


def test_words_are_letter_runs_and_single_cjk_characters_hashed_by_their_letters():
    words = word_hashes("Rain, rain -- RAIN! nair 9月2日电")
    assert len(words) == 4 + 5  # four Latin words; 9, 月, 2, 日, 电
    assert words[0] == words[1] == words[2]  # case and punctuation do not matter
    assert words[3] != words[0]  # the same letters in another order
    assert len(word_hashes("")) == 0 and len(word_hashes(" ,.;!")) == 0
    assert len(word_hashes("🙂 word 😀")) == 1  # characters beyond the BMP separate words


def test_minhash_signature_is_datasketchs_affine32_minhash():
    shingles = shingle_hashes(" ".join(HARBOR[0].paragraphs))
    reference = MinHash(num_perm=NUM_PERM, seed=SEED, scheme="affine32", hashfunc=int)
    reference.update_batch(shingles.tolist())
    assert np.array_equal(minhash_signature(shingles), np.asarray(reference.hashvalues, dtype=np.uint32))


def test_signatures_of_another_fingerprint_recipe_are_dropped_and_the_urls_kept(tmp_path, caplog):
    path = tmp_path / "state.sqlite"
    SqliteState(path).add_articles([story_record(0), story_record(1)])
    with sqlite3.connect(path) as db:  # as if written by a version with another recipe
        db.execute("UPDATE meta SET value = 'an-older-recipe' WHERE name = 'fingerprint'")
    with caplog.at_level(logging.WARNING, logger="newscrawl.store.state"):
        state = SqliteState(path)
    assert "dropped the fingerprints of 2 article(s)" in caplog.text
    assert state.counts()["bands"] == 0
    assert state.is_known("http://a.test/" + HARBOR[0].key)
    copy = fingerprint_text("Republished with permission. " + " ".join(HARBOR[0].paragraphs))
    assert state.near_duplicate_of(copy, NEAR_DUPLICATE_JACCARD) is None
    state.add_articles([story_record(2)])
    state.close()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="newscrawl.store.state"):
        state = SqliteState(path)  # the recipe is recorded now: the new signatures stay
    assert not caplog.text and state.counts()["bands"] > 0
    assert state.db.execute("SELECT value FROM meta WHERE name = 'fingerprint'").fetchone()[0] == FINGERPRINT_SCHEME


def test_prune_forgets_old_articles_and_reset_removes_the_file(tmp_path, capsys):
    path = tmp_path / "state.sqlite"
    state = SqliteState(path)
    state.add_articles([story_record(0, "2001-01-01T00:00:00+00:00"), story_record(1)])
    state.close()
    assert state_admin(["prune", "--days", "30", "--state", str(path)]) == 0
    state = SqliteState(path)
    assert not state.is_known("http://a.test/" + HARBOR[0].key) and state.is_known("http://a.test/" + HARBOR[1].key)
    assert state.counts()["bands"] == 12  # the pruned article's bands went with it
    state.close()
    assert state_admin(["reset", "--state", str(path)]) == 0
    assert not path.exists()
    assert "forgot 1 article(s)" in capsys.readouterr().out


def test_a_batch_larger_than_one_statement_is_recorded_whole_and_repeats_are_skipped(tmp_path):
    from newscrawl.crawl.fingerprint import Fingerprint

    state = SqliteState(tmp_path / "state.sqlite")
    state.add_articles([story_record(0)])
    base = story_record(1).fingerprint
    many = [ArticleRecord(f"http://c.test/{n}", f"http://c.test/{n}?rss", "c", "2030-01-01T00:00:00+00:00",
                          Fingerprint(base.signature, tuple(band ^ n for band in base.bands)))
            for n in range(4000)]  # 48,000 band rows: several statements
    state.add_articles([story_record(0), *many, many[5]], "out.jsonl", 999)  # one recorded before, one repeated
    counts = state.counts()
    assert counts["articles"] == 4001 and counts["urls"] == 8002
    assert counts["bands"] == 12 * 4001
    assert state.is_known("http://c.test/3999?rss") and state.is_known("http://a.test/" + HARBOR[0].key)
    assert state.open_outputs() == [("out.jsonl", 999)]
