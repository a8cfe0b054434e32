"""Article sinks on their own: the SQLite store and PostgreSQL (a real server, tests/pg_cluster.py).

Each sink: every article stored once however often a batch is given (a replay after a crash);
changed text updates the row and its index; an older line never overwrites newer text; Chinese,
German and English queries find their articles; a schema newer than the code is refused. The
fan-out: counts per sink, and a failing sink names itself and commits nothing further.
"""
from __future__ import annotations

import sqlite3

import pytest

from newscrawl.store.search import main as search_main, search
from newscrawl.store.sinks.base import Committed, Sink, SinkError, row_of
from newscrawl.store.sinks.fanout import SinkSet, sink_counts, sink_problems
from newscrawl.store.sinks.postgres import PostgresSink, search as postgres_search
from newscrawl.store.sinks.sqlite_store import SqliteStore, articles_db_path
from newscrawl.store.sinks.tokens import fts_query, index_text


def article(key: str, title: str, text: str, lang: str, fetched_at: str = "2030-01-02T10:00:00+00:00",
            site: str = "test-site") -> dict:
    return {"url": f"http://news.test/{key}?from=rss", "canonical_url": f"http://news.test/{key}", "site": site,
            "title": title, "published": "2030-01-02", "text": text, "html": f"<p>{text}</p>", "lang": lang,
            "authors": ["Ada Writer"], "discovered_via": "feed", "fetched_at": fetched_at, "score": 1.5,
            "rendered": False, "duplicate_of": None}


ARTICLES = [
    article("bridge", "江城新建跨江大桥正式通车",
            "经过三年施工，连接城南与城北的跨江大桥今天上午正式通车。大桥全长两公里，设有六条车道和人行步道。", "zh"),
    article("library", "市图书馆延长周末开放时间",
            "从下个月起，市图书馆周六和周日的开放时间将延长到晚上九点，方便上班族借阅图书。", "zh"),
    article("bikes", "Stadtrat beschließt neue Fahrradwege",
            "Der Stadtrat hat am Dienstag den Bau von zwölf Kilometern neuer Fahrradwege beschlossen. "
            "Die Arbeiten beginnen im Frühjahr entlang der Hauptstraße.", "de"),
    article("bakery", "Bäckerei am Marktplatz feiert Jubiläum",
            "Seit hundert Jahren backt die Familie Keller ihr Brot am Marktplatz. Zum Jubiläum gibt es "
            "ein Fest mit Musik.", "de"),
    article("tidal", "Tidal power station opens on the northern coast",
            "The first tidal power station of the region started feeding the grid on Monday. Its twelve "
            "turbines sit on the seabed off the headland.", "en"),
    article("ferry", "Ferry timetable changes for the winter",
            "From November the island ferry sails four times a day instead of six, the operator said.", "en"),
]
QUERIES = [("大桥", "bridge"), ("图书馆", "library"), ("Fahrradwege", "bikes"), ("Jubiläum", "bakery"),
           ("turbines", "tidal"), ("ferry winter", "ferry")]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.needs_postgres)])
def sink(request, tmp_path):
    if request.param == "sqlite":
        made: Sink = SqliteStore(tmp_path / "articles.sqlite")
    else:
        made = PostgresSink(request.getfixturevalue("postgres").url)
    made.open()
    yield made
    made.close()


def stored(sink) -> dict[str, tuple]:
    """canonical URL -> (title, text, first_seen, last_seen, updates) of every stored row."""
    query = "SELECT canonical_url, title, text, first_seen::text, last_seen::text, updates FROM articles"
    if isinstance(sink, SqliteStore):
        rows = sink.connection.execute(query.replace("::text", "")).fetchall()
    else:
        rows = sink.connection.execute(query).fetchall()
        sink.connection.commit()
    return {url: rest for url, *rest in rows}


def found(sink, query: str) -> list[str]:
    """Canonical URLs of the matches of ``query``, best first."""
    if isinstance(sink, SqliteStore):
        return [match.url for match in search(sink.connection, query)]
    matches = [url for _, url in postgres_search(sink.connection, query)]
    sink.connection.commit()
    return matches


def test_each_article_once_however_often_given(sink):
    rows = [row_of(item) for item in ARTICLES]
    assert sink.commit(rows) == Committed(written=len(ARTICLES), updated=0)
    assert sink.commit(rows + rows[:2]) == Committed(0, 0)  # a replay after a crash
    assert sorted(stored(sink)) == sorted(item["canonical_url"] for item in ARTICLES)


def test_changed_text_updates_the_row_and_its_index(sink):
    sink.commit([row_of(item) for item in ARTICLES])
    changed = article("ferry", "Ferry timetable changes for the winter",
                      "The operator cancelled the winter timetable after protests by islanders.", "en",
                      fetched_at="2030-01-03T10:00:00+00:00")
    assert sink.commit([row_of(changed)]) == Committed(written=0, updated=1)
    title, text, first_seen, last_seen, updates = stored(sink)["http://news.test/ferry"]
    assert text == changed["text"] and updates == 1
    assert first_seen.startswith("2030-01-02") and last_seen.startswith("2030-01-03")
    assert found(sink, "protests") == ["http://news.test/ferry"]
    assert found(sink, "sails") == []  # the old text is no longer indexed


def test_an_older_line_never_overwrites_newer_text(sink):
    newer = article("tidal", "Tidal station delayed", "The opening moved to spring.", "en",
                    fetched_at="2030-02-01T00:00:00+00:00")
    sink.commit([row_of(newer)])
    assert sink.commit([row_of(ARTICLES[4])]) == Committed(0, 0)  # fetched a month earlier
    title, text, first_seen, last_seen, _ = stored(sink)["http://news.test/tidal"]
    assert text == newer["text"]
    assert first_seen.startswith("2030-01-02") and last_seen.startswith("2030-02-01")


@pytest.mark.parametrize("query, key", QUERIES)
def test_chinese_german_and_english_queries_find_their_article_first(sink, query, key):
    sink.commit([row_of(item) for item in ARTICLES])
    assert found(sink, query)[:1] == [f"http://news.test/{key}"]


def test_a_store_of_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "articles.sqlite"
    store = SqliteStore(path)
    store.open()
    store.close()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 99")
    with pytest.raises(SinkError, match="schema version 99, newer than this newscrawl knows"):
        SqliteStore(path).open()


@pytest.mark.needs_postgres
def test_postgres_schema_is_versioned_and_uses_the_languages_configuration(postgres):
    sink = PostgresSink(postgres.url)
    sink.open()
    sink.commit([row_of(item) for item in ARTICLES])
    sink.close()
    sink.open()  # a second open migrates nothing and keeps the rows
    with postgres.connect() as connection:
        assert connection.execute("SELECT value FROM newscrawl_meta WHERE name = 'schema_version'").fetchone() == ("1",)
        configs = dict(connection.execute("SELECT lang, ts_config::text FROM articles").fetchall())
        assert configs == {"zh": "simple", "de": "german", "en": "english"}
        assert connection.execute("SELECT count(*) FROM articles").fetchone() == (len(ARTICLES),)
        indexes = {name for (name,) in connection.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'articles'")}
        assert "articles_search" in indexes
        connection.execute("UPDATE newscrawl_meta SET value = '7' WHERE name = 'schema_version'")
    sink.close()
    with pytest.raises(SinkError, match="schema version 7"):
        PostgresSink(postgres.url).open()


def test_a_postgres_server_that_is_down_is_one_problem_line(tmp_path):
    settings = {"POSTGRES_URL": "postgresql://nobody@127.0.0.1:1/news", "ARTICLES_DB": str(tmp_path / "a.sqlite")}
    problems = sink_problems(_Settings(settings))
    assert len(problems) == 1 and problems[0].startswith("newscrawl: article sink postgres: PostgreSQL database news")
    assert problems[0].endswith("; not starting") and "\n" not in problems[0]


class _Settings(dict):
    def getbool(self, name, default=False):
        return bool(int(self.get(name, default)))


class _BrokenSink(Sink):
    """A sink whose server went away: every commit fails."""

    name = "broken"

    def __init__(self, error: Exception | None = None):
        self.error = error or SinkError("connection lost")

    def commit(self, rows):
        raise self.error


def test_the_fan_out_counts_per_sink_and_names_the_one_that_failed(tmp_path):
    from scrapy.statscollectors import MemoryStatsCollector
    from scrapy.utils.test import get_crawler

    stats = MemoryStatsCollector(get_crawler())
    store = SqliteStore(tmp_path / "articles.sqlite")
    store.open()
    sinks = SinkSet([store, _BrokenSink()], stats)
    sinks.add(ARTICLES[0])
    sinks.add(ARTICLES[1])
    with pytest.raises(SinkError, match="article sink broken: connection lost"):
        sinks.commit(sinks.take())
    assert sinks.take() == []
    assert sink_counts(stats.get_stats()) == {"sqlite": {"written": 2, "updated": 0, "failed": 0},
                                              "broken": {"written": 0, "updated": 0, "failed": 2}}
    store.close()


def test_cjk_runs_are_indexed_and_queried_as_pairs():
    assert index_text("江城大桥 opens").split() == ["江城", "城大", "大桥", "opens"]
    assert fts_query("江城大桥 Opens") == '"江城 城大 大桥" AND "opens"'
    assert fts_query("桥") == '"桥" *'
    assert fts_query("(*)") is None


def test_articles_db_sits_beside_the_state_unless_given(tmp_path):
    assert str(articles_db_path(_Settings(STATE_PATH="/var/crawl/state.sqlite"))) == "/var/crawl/articles.sqlite"
    assert str(articles_db_path(_Settings(ARTICLES_DB="/data/a.sqlite"))) == "/data/a.sqlite"


def test_search_command_prints_title_date_site_url_and_snippet(tmp_path, capsys):
    store = SqliteStore(tmp_path / "articles.sqlite")
    store.open()
    store.commit([row_of(item) for item in ARTICLES])
    store.close()
    assert search_main(["大桥", "--db", str(tmp_path / "articles.sqlite"), "--limit", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1. 江城新建跨江大桥正式通车"
    assert lines[1] == "   2030-01-02 | test-site | http://news.test/bridge"
    assert "跨江大桥今天上午正式通车" in lines[2]
    assert search_main(["ferry", "--db", str(tmp_path / "missing.sqlite")]) == 2
    assert "no article store at" in capsys.readouterr().err


def test_a_postgres_url_of_another_scheme_is_a_bad_setting_without_its_password():
    from scrapy.settings import Settings

    from newscrawl.config.config_check import setting_problems

    problems = setting_problems(Settings({"POSTGRES_URL": "mysql://news:secret@db/news"}))
    assert problems == ["setting POSTGRES_URL: expected postgresql://user@host/db, got a URL with scheme 'mysql'"]
    assert setting_problems(Settings({"POSTGRES_URL": "postgresql://news:secret@db/news"})) == []


def test_search_finds_a_word_inside_a_german_compound_after_the_word_matches(tmp_path):
    store = SqliteStore(tmp_path / "articles.sqlite")
    store.open()
    store.commit([row_of(item) for item in ARTICLES] + [row_of(article(
        "wege", "Neue Wege für den Verkehr", "Der Stadtrat plant Wege für Busse und Bahnen.", "de"))])
    urls = [match.url for match in search(store.connection, "wege")]
    assert urls == ["http://news.test/wege", "http://news.test/bikes"]  # the word first, then "Fahrradwege"
    assert [match.url for match in search(store.connection, "wege", inside_words=False)] == ["http://news.test/wege"]
    assert search(store.connection, "ai") == []  # two letters: not looked for inside words ("said")
    store.close()


def test_any_error_of_a_sink_is_a_sink_error_so_the_crawl_stops_rather_than_records(tmp_path):
    from scrapy.statscollectors import MemoryStatsCollector
    from scrapy.utils.test import get_crawler

    stats = MemoryStatsCollector(get_crawler())
    sinks = SinkSet([_BrokenSink(KeyError("a bug"))], stats)
    with pytest.raises(SinkError, match="article sink broken: 'a bug'"):
        sinks.commit([ARTICLES[0]])
    with pytest.raises(SinkError, match="an article cannot be stored"):
        sinks.commit([{**ARTICLES[0], "score": "not a number"}])


def test_a_store_migrated_by_another_crawl_while_this_one_waited_opens(tmp_path):
    """Two crawls opening a new store at once: the second reads version 0, waits for the first's write
    lock, and must then find the schema made, not create its tables again."""
    import threading
    import time

    from newscrawl.store.sinks.schema import SQLITE_MIGRATIONS
    from newscrawl.store.sinks.sqlite_store import connect

    path = tmp_path / "articles.sqlite"
    first = sqlite3.connect(path, isolation_level=None)
    first.execute("PRAGMA journal_mode = WAL")
    first.execute("BEGIN IMMEDIATE")   # the first crawl is migrating
    opened: list = []

    def second_crawl() -> None:
        try:
            opened.append(connect(path, create=True))
        except SinkError as error:
            opened.append(error)

    waiting = threading.Thread(target=second_crawl)
    waiting.start()
    time.sleep(0.5)   # the second crawl has read version 0 and waits for the lock
    for version, statements in enumerate(SQLITE_MIGRATIONS, start=1):
        for statement in statements:
            first.execute(statement)
        first.execute(f"PRAGMA user_version = {version:d}")
    first.execute("COMMIT")
    waiting.join(timeout=30)
    assert len(opened) == 1 and isinstance(opened[0], sqlite3.Connection), opened
    assert opened[0].execute("PRAGMA user_version").fetchone()[0] == len(SQLITE_MIGRATIONS)
    opened[0].close()
    first.close()


def test_crawls_opening_a_new_store_at_the_same_moment_all_open_it(tmp_path):
    """Connections racing to switch a new store to the write-ahead log: SQLite answers the loser
    "database is locked" without waiting (about one round in fifteen with three), so opening must
    try again; seen as a crawl refusing to start beside another on the same store."""
    import threading

    from newscrawl.store.sinks.sqlite_store import connect

    failures: list[str] = []

    def open_store(path, start: threading.Barrier) -> None:
        start.wait()
        try:
            connect(path, create=True).close()
        except SinkError as error:
            failures.append(str(error))

    for round_number in range(150):
        path = tmp_path / f"articles-{round_number}.sqlite"
        start = threading.Barrier(3)
        crawls = [threading.Thread(target=open_store, args=(path, start)) for _ in range(3)]
        for crawl in crawls:
            crawl.start()
        for crawl in crawls:
            crawl.join(timeout=60)
    assert failures == []
