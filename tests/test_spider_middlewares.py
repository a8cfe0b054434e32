"""Scrapy's spider middlewares the crawl runs: MetaCopyDetectionMiddleware is off, and the check it made
on every request (a new request carrying meta copied from a response) is made once here, on the source."""
from __future__ import annotations

import re
from pathlib import Path

from scrapy.settings import Settings
from scrapy.utils.conf import build_component_list

import newscrawl.settings
from newscrawl import spiders

META_COPY = "scrapy.spidermiddlewares.metacopy.MetaCopyDetectionMiddleware"
# a request's meta made from a response's: meta=response.meta, dict(response.meta), {**response.meta}, .copy()
COPIED_META = re.compile(r"meta=(?:dict\(|copy\.\w+\()?response\.meta\b|response\.meta\.copy\(|\*\*response\.meta\b")


def project_spider_middlewares() -> list[str]:
    settings = Settings()
    settings.setmodule(newscrawl.settings, priority="project")
    return build_component_list(settings.getwithbase("SPIDER_MIDDLEWARES"))


def test_the_meta_copy_check_is_not_run_per_request():
    middlewares = project_spider_middlewares()
    assert META_COPY not in middlewares
    assert "scrapy.spidermiddlewares.depth.DepthMiddleware" in middlewares  # the others stay


def test_no_spider_code_builds_a_request_meta_from_a_response_meta():
    sources = sorted(Path(spiders.__file__).parent.glob("*.py"))
    assert sources
    copies = [f"{path.name}:{number}: {line.strip()}" for path in sources
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if COPIED_META.search(line)]
    assert copies == []


def test_the_source_check_finds_a_copied_meta():
    for line in ("yield Request(url, meta=response.meta)", "Request(url, meta=dict(response.meta))",
                 "meta = response.meta.copy()", "Request(u, meta={**response.meta, 'x': 1})"):
        assert COPIED_META.search(line), line
    assert not COPIED_META.search('meta = {"newscrawl_site": site.name}')
    assert not COPIED_META.search("meta = failure.request.meta")  # read, not copied into a request
