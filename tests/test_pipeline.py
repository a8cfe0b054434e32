"""ExtractPipeline and DuplicatePipeline through a test crawler: items, drops and their stats."""
from __future__ import annotations

import dataclasses

import pytest
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.test import get_crawler

from newscrawl.crawl import extract_jobs, pipelines
from newscrawl.extract import extract
from newscrawl.demo.stories import HARBOR
from newscrawl.demo.web import harbor_times
from newscrawl.items import ArticleItem, PageItem
from newscrawl.crawl.pipelines import ArticleCountPipeline, DuplicatePipeline, ExtractPipeline
from newscrawl.report.progress import site_summaries

BASE = "http://127.0.0.2:8000"
SITE = harbor_times(BASE)
STORY = HARBOR[0]  # carries og:type and JSON-LD
ARTICLE_PATH = f"/2024/05/14/{STORY.key}.html"


def _page(path: str, kind: str = "article", **changes) -> PageItem:
    page = PageItem(url=BASE + path, site="harbor-times", body=SITE.routes[path].body, encoding="utf-8",
                    discovered_via="feed", fetched_at="2024-05-15T00:00:00+00:00", url_kind=kind)
    return dataclasses.replace(page, **changes)


@pytest.fixture
def crawler():
    return get_crawler(settings_dict={"NEWSCRAWL_EXTRACT_WORKERS": 0})


def test_article_page_becomes_an_article_item(crawler):
    item = ExtractPipeline.from_crawler(crawler).process_item(_page(ARTICLE_PATH, url=BASE + ARTICLE_PATH + "?utm_source=x"))
    assert isinstance(item, ArticleItem)
    assert item.title == STORY.title
    assert item.published.startswith("2024-05-14")
    assert item.canonical_url == BASE + ARTICLE_PATH
    assert item.discovered_via == "feed" and item.site == "harbor-times"
    assert STORY.paragraphs[1][:60] in item.text
    assert isinstance(item.score, float) and item.fetched_at == "2024-05-15T00:00:00+00:00"


@pytest.mark.parametrize("path, kind, reason", [
    ("/about", "list", "list_page"),
    ("/tag/ports", "list", None),
    ("/", "list", None),
])
def test_non_articles_are_dropped_with_a_counted_reason(crawler, path, kind, reason):
    with pytest.raises(DropItem):
        ExtractPipeline.from_crawler(crawler).process_item(_page(path, kind))
    stats = crawler.stats.get_stats()
    dropped = {k: v for k, v in stats.items() if k.startswith("newscrawl/dropped/")}
    assert sum(dropped.values()) == 1
    if reason:
        assert stats[f"newscrawl/dropped/{reason}"] == 1
        assert stats[f"newscrawl/site/harbor-times/dropped/{reason}"] == 1


def test_feed_date_and_title_fill_gaps(crawler):
    body = (b"<html><body><article><p>" + b"A plain paragraph with words, commas and stops. " * 12
            + b"</p></article></body></html>")
    item = ExtractPipeline.from_crawler(crawler).process_item(
        _page(ARTICLE_PATH, url=BASE + "/stories/48100-x", body=body, hint_published="2024-05-01T10:00:00+00:00",
              hint_title="From the feed"))
    assert item.published == "2024-05-01T10:00:00+00:00"
    assert item.title == "From the feed"


@pytest.mark.parametrize("found, hint, chosen", [
    ("2024-05-14T08:30:00+00:00", "2024-05-14T09:00:00+00:00", "2024-05-14T08:30:00+00:00"),
    ("2024-05-14", "2024-05-14T09:00:00+00:00", "2024-05-14T09:00:00+00:00"),
    ("2024-05-14", "2024-05-13", "2024-05-14"),
    (None, "2024-05-13", "2024-05-13"),
    ("2024-05-14", None, "2024-05-14"),
])
def test_choose_published(found, hint, chosen):
    assert pipelines.choose_published(found, hint) == chosen


def test_extractor_failure_drops_the_page_not_the_crawl(crawler, monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(extract_jobs, "extract", explode)  # workers 0: extract runs in this process
    with pytest.raises(DropItem):
        ExtractPipeline.from_crawler(crawler).process_item(_page(ARTICLE_PATH))
    assert crawler.stats.get_value("newscrawl/dropped/extract_error") == 1


def test_other_items_pass_through(crawler):
    other = {"x": 1}
    assert ExtractPipeline.from_crawler(crawler).process_item(other) is other
    assert DuplicatePipeline.from_crawler(crawler).process_item(other) is other


def test_duplicates_by_canonical_url_are_dropped(crawler):
    extract_pipeline = ExtractPipeline.from_crawler(crawler)
    dedup = DuplicatePipeline.from_crawler(crawler)
    first = dedup.process_item(extract_pipeline.process_item(_page(ARTICLE_PATH)))
    counter = ArticleCountPipeline.from_crawler(crawler)
    assert counter.process_item(first) is first
    copy = extract_pipeline.process_item(_page(ARTICLE_PATH, url=BASE + "/print/1?ref=share"))
    assert copy.canonical_url == first.canonical_url  # from rel=canonical
    with pytest.raises(DropItem):
        dedup.process_item(copy)
    assert crawler.stats.get_value("newscrawl/dropped/duplicate") == 1
    assert crawler.stats.get_value("newscrawl/articles") == 1
    assert crawler.stats.get_value("newscrawl/site/harbor-times/articles") == 1


def test_article_scores_are_summed_per_site_for_the_summary(crawler):
    article = ExtractPipeline.from_crawler(crawler).process_item(_page(ARTICLE_PATH))
    counter = ArticleCountPipeline.from_crawler(crawler)
    counter.process_item(article)
    counter.process_item(dataclasses.replace(article, site="other-site", score=0.25))
    counter.process_item(dataclasses.replace(article, site="other-site", score=0.5))
    sites = site_summaries(crawler.stats.get_stats(), "finished")
    assert sites["harbor-times"]["article_score_sum"] == pytest.approx(article.score) and article.score > 0
    assert sites["other-site"]["article_score_sum"] == pytest.approx(0.75)
    assert sites["other-site"]["articles"] == 2


def test_root_canonical_is_ignored():
    result = dataclasses.replace(
        extract(SITE.routes[ARTICLE_PATH].body, BASE + ARTICLE_PATH), canonical_url=BASE + "/")
    assert pipelines.canonical_url_of(_page(ARTICLE_PATH), result) == BASE + ARTICLE_PATH


@pytest.mark.parametrize("setting, pipeline", [("NEWSCRAWL_EXTRACT_ENABLED", ExtractPipeline),
                                               ("NEWSCRAWL_DEDUP_ENABLED", DuplicatePipeline)])
def test_disabled_by_setting(setting, pipeline):
    with pytest.raises(NotConfigured):
        pipeline.from_crawler(get_crawler(settings_dict={setting: False}))


def test_worker_count_defaults_to_cpus_minus_one(monkeypatch):
    monkeypatch.setattr(pipelines.os, "cpu_count", lambda: 4)
    assert pipelines.worker_count(-1) == 3 and pipelines.worker_count(0) == 0 and pipelines.worker_count(2) == 2
    monkeypatch.setattr(pipelines.os, "cpu_count", lambda: 1)
    assert pipelines.worker_count(-1) == 0
