"""The crawl and the extractor share one vocabulary of article types and one link-density cut-off."""
from __future__ import annotations

import pytest
from scrapy.utils.test import get_crawler

from newscrawl.crawl.classify import LIST, UNKNOWN, ClassifyOptions, judge_page
from newscrawl.extract import ExtractOptions, extract
from newscrawl.extract.confidence import declares_article
from newscrawl.extract.patterns import ARTICLE_SCHEMA_TYPES, NON_ARTICLE_SCHEMA_TYPES
from newscrawl.extract.result import ExtractResult
from newscrawl.crawl.pipelines import ExtractPipeline

PROSE = ("The harbour board met on Tuesday to agree the plan for the new quay, and the vote was close, "
         "as members asked about the cost, the noise of the works and the months of closed berths. ")


def _page(schema_type: str) -> str:
    return (f'<html><head><script type="application/ld+json">{{"@type": "{schema_type}"}}</script>'
            f"</head><body><article><h1>Quay plan agreed</h1>{('<p>' + PROSE + '</p>') * 3}</article>"
            "</body></html>")


def _result(**changes) -> ExtractResult:
    base = ExtractResult(url="u", title="t", published=None, text="x" * 400, html="<p/>", lang="en", score=0.3,
                         og_type="website")
    return ExtractResult(**{**base.__dict__, **changes})


@pytest.mark.parametrize("schema_type", sorted(ARTICLE_SCHEMA_TYPES))
def test_each_article_type_is_an_article_to_the_extractor_and_to_the_crawl(schema_type):
    assert declares_article(None, (schema_type.upper(),))
    # a list URL, an unsure extractor, no date: only the declared type makes it an article
    assert judge_page(_result(schema_types=(schema_type,)), LIST) is None


@pytest.mark.parametrize("schema_type", sorted(NON_ARTICLE_SCHEMA_TYPES))
def test_each_non_article_type_is_no_article_to_the_extractor_and_a_listing_to_the_crawl(schema_type):
    assert extract(_page(schema_type.upper())).reason == "not_article_type"
    # an article URL, a sure extractor: only the declared type makes it a listing
    assert judge_page(_result(schema_types=(schema_type,)), UNKNOWN) == "list_page"


def test_the_extractor_is_as_sure_of_a_tech_article_as_of_a_news_article():
    news, tech = extract(_page("NewsArticle")), extract(_page("TechArticle"))
    assert news.is_article and tech.is_article
    assert tech.score == news.score > extract(_page("WebPage")).score


def test_the_crawl_link_density_cut_off_is_the_extractors():
    assert ClassifyOptions().max_link_density == ExtractOptions().max_article_link_density


def _pipeline(**settings) -> ExtractPipeline:
    return ExtractPipeline.from_crawler(get_crawler(settings_dict={"NEWSCRAWL_EXTRACT_WORKERS": 0, **settings}))


def test_the_crawl_follows_the_extractor_options_it_runs_with():
    pipeline = _pipeline(NEWSCRAWL_EXTRACT_OPTIONS={"max_article_link_density": 0.6})
    assert pipeline.extract_options.max_article_link_density == 0.6
    # a page the extractor accepted at link density 0.55 is not dropped by the crawl as link-dense
    assert judge_page(_result(link_density=0.55, score=0.8), UNKNOWN, pipeline.classify_options) is None


def test_a_crawl_setting_can_set_a_lower_cut_off():
    pipeline = _pipeline(NEWSCRAWL_MAX_LINK_DENSITY=0.3)
    assert judge_page(_result(link_density=0.35, score=0.8), UNKNOWN, pipeline.classify_options) == "link_dense"
    assert _pipeline().classify_options.max_link_density == ExtractOptions().max_article_link_density
