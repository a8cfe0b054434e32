"""JSON lines: the direct encoding gives the bytes Scrapy's JSON-lines exporter gives; the writer gathers lines."""
from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import datetime, timezone

from scrapy.exporters import JsonLinesItemExporter

from newscrawl.items import ArticleItem
from newscrawl.store.jsonl import JsonlWriter, LineEncoder


def _exporter_line(item, **options) -> bytes:
    buffer = io.BytesIO()
    JsonLinesItemExporter(buffer, encoding="utf-8", **options).export_item(item)
    return buffer.getvalue()


def _article(**changes) -> ArticleItem:
    fields = dict(url="http://127.0.0.1/a/1.html", canonical_url="http://127.0.0.1/a/1.html", site="harbor",
                  title="港口扩建 \"quoted\" \\ back", published="2024-05-02T08:00:00+08:00",
                  text="第一段。\nSecond paragraph\twith a tab and \u2028 a line separator.",
                  html="<p>第一段。</p><p>Second</p>", lang="zh", authors=["王明", "Ann Lee"], score=0.8125)
    fields.update(changes)
    return ArticleItem(**fields)


def test_direct_line_is_the_exporters_line_for_articles():
    encoder = LineEncoder({"encoding": "utf-8", "fields": None, "indent": 0})
    for item in (_article(), _article(title=None, published=None, authors=[], duplicate_of="http://x/1")):
        line = encoder.line(item)
        assert line == _exporter_line(item)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert json.loads(line)["title"] == item.title


def test_other_options_and_items_go_through_the_exporter():
    item = _article()
    only_two = LineEncoder({"encoding": "utf-8", "fields": ["url", "title"]})
    assert only_two.line(item) == _exporter_line(item, fields_to_export=["url", "title"])
    assert list(json.loads(only_two.line(item))) == ["url", "title"]
    assert not LineEncoder({"encoding": "latin-1"}).direct  # another encoding: the exporter's rules

    @dataclass
    class Stamped:
        when: datetime

    stamped = Stamped(datetime(2024, 5, 2, tzinfo=timezone.utc))
    assert LineEncoder({"encoding": "utf-8"}).line(stamped) == _exporter_line(stamped)
    assert LineEncoder({"encoding": "utf-8"}).line({"a": 1}) == _exporter_line({"a": 1})


def test_state_records_in_batches_by_count_or_age(tmp_path):
    from types import SimpleNamespace

    from scrapy.utils.test import get_crawler

    from newscrawl.store.jsonl import DurableFeedExporter

    crawler = get_crawler(settings_dict={"FEEDS": {str(tmp_path / "out.jsonl"): {"format": "jsonlines"}},
                                         "NEWSCRAWL_STATE_RECORD_ITEMS": 3, "NEWSCRAWL_STATE_RECORD_SECONDS": 60})
    exporter = DurableFeedExporter(crawler)
    exporter.ledger = SimpleNamespace(unrecorded=["a", "b"])
    assert exporter._records_due() == []  # 2 of 3, and not 60 s old: they wait
    exporter.ledger.unrecorded.append("c")
    assert exporter._records_due() == ["a", "b", "c"]
    exporter.ledger.unrecorded = ["d"]
    assert exporter._records_due() == []
    exporter.recorded_at -= 61  # the last batch is a minute old: record what waits
    assert exporter._records_due() == ["d"]


def test_writer_gathers_lines_until_size_time_or_sync(tmp_path, monkeypatch):
    path = tmp_path / "out.jsonl"
    writer = JsonlWriter(path, overwrite=True)
    assert writer.open() == 0
    clock = [1000.0]
    monkeypatch.setattr("newscrawl.store.jsonl.time.monotonic", lambda: clock[0])
    writer.write(b'{"n": 0}\n')  # the first line after opening writes out at once
    assert path.read_bytes() == b'{"n": 0}\n'
    writer.write(b'{"n": 1}\n')
    assert writer.offset == 18 and path.read_bytes() == b'{"n": 0}\n'  # gathered, not yet in the file
    clock[0] += JsonlWriter.FLUSH_SECONDS
    writer.write(b'{"n": 2}\n')  # a line that comes late writes out what gathered
    assert path.read_bytes() == b'{"n": 0}\n{"n": 1}\n{"n": 2}\n'
    big = b'{"text": "' + b"x" * JsonlWriter.FLUSH_BYTES + b'"}\n'
    writer.write(big)  # enough bytes write out without waiting
    assert path.stat().st_size == writer.offset
    writer.write(b'{"n": 3}\n')
    writer.sync()  # sync writes out and fsyncs
    assert path.read_bytes().endswith(b'{"n": 3}\n') and path.stat().st_size == writer.offset
    writer.write(b'{"n": 4}\n')
    writer.close()
    assert path.read_bytes().splitlines()[-1] == b'{"n": 4}'
