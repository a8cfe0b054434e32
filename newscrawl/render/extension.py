"""``render: auto``: render a page again when its plain copy gave no article but looks script-built.

Listens to ``item_dropped``: a PageItem of an auto site, fetched plainly and
dropped by the extraction pipeline, is requested again through the browser
(``dont_filter``, so the duplicate filter lets it through) when the page had
little visible text plus an app root element or many scripts. Counts
``render/auto_requests`` and ``render/auto_declined`` per site. Also counts
``errors/browser_missing`` for ``render: always`` sites left out for want of
a browser, so the per-site summary says why they have no pages.
"""
from __future__ import annotations

import logging

from scrapy import signals
from scrapy.exceptions import NotConfigured

from ..run.counters import count
from ..items import PageItem
from .middleware import SHAPE_META_KEY
from .shape import ScriptBuiltOptions, visible_text_chars

logger = logging.getLogger(__name__)

# request.meta keys carried over to the rendered copy (the spider's own; Scrapy's depth for DEPTH_LIMIT).
KEPT_META_PREFIX = "newscrawl_"
KEPT_META_KEYS = ("depth",)


class RenderExtension:
    def __init__(self, crawler, plan, options: ScriptBuiltOptions):
        self.crawler = crawler
        self.plan = plan
        self.options = options

    @classmethod
    def from_crawler(cls, crawler):
        plan = getattr(crawler.spider, "render_plan", None)
        if plan is None or not (plan.uses_browser or plan.unavailable_sites):
            raise NotConfigured
        settings = crawler.settings
        options = ScriptBuiltOptions(
            max_text_chars=settings.getint("NEWSCRAWL_RENDER_AUTO_MAX_TEXT_CHARS", ScriptBuiltOptions.max_text_chars),
            min_scripts=settings.getint("NEWSCRAWL_RENDER_AUTO_MIN_SCRIPTS", ScriptBuiltOptions.min_scripts),
        )
        ext = cls(crawler, plan, options)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.item_dropped, signal=signals.item_dropped)
        return ext

    def spider_opened(self) -> None:
        for site in self.plan.unavailable_sites:
            count(self.crawler.stats, "errors/browser_missing", site)

    def item_dropped(self, item, response, exception) -> None:
        if not isinstance(item, PageItem) or item.rendered or self.plan.mode(item.site) != "auto":
            return
        shape = response.meta.get(SHAPE_META_KEY) if response is not None else None
        if shape is None:
            return
        text_chars = visible_text_chars(response.xpath("//body//text()").getall())
        if not shape.is_script_built(text_chars, self.options):
            count(self.crawler.stats, "render/auto_declined", item.site)
            return
        count(self.crawler.stats, "render/auto_requests", item.site)
        logger.debug("rendering %s again: no article in the plain page (%d text chars, %d scripts, app root %s)",
                     response.url, text_chars, shape.scripts, shape.app_root)
        meta = {k: v for k, v in response.meta.items()
                if k.startswith(KEPT_META_PREFIX) and k != SHAPE_META_KEY or k in KEPT_META_KEYS}
        meta.update(self.plan.render_meta(item.site))
        self.crawler.engine.crawl(response.request.replace(meta=meta, dont_filter=True))
