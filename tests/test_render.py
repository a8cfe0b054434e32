"""Rendering plan, script-built page signals and the browser's request filter (no browser needed)."""
from __future__ import annotations

import logging
import os

import pytest
from scrapy.settings import Settings

from newscrawl.render.handler import PLAYWRIGHT_LOGGER, RENDERS_PER_CPU, quiet_playwright_logger, render_page_limit
from newscrawl.render.request_filter import block_reason, navigation_headers
from newscrawl.render.plan import DEFAULT_BROWSER_PATH, HANDLER_PATH, RenderPlan, browser_path
from newscrawl.render.shape import PageShape, ScriptBuiltOptions, read_page_shape, visible_text_chars
from newscrawl.config.sites import SiteConfig

SHELL = b"""<html><head><script src="/a.js"></script><script type="application/ld+json">{}</script>
<script type='text/javascript'>var x;</script></head><body><div id="root">Loading</div>
<script>boot()</script></body></html>"""


def _sites(**modes) -> list[SiteConfig]:
    return [SiteConfig(name=name, start_urls=(f"https://{name}.example/",), render=mode) for name, mode in modes.items()]


def test_page_shape_counts_code_scripts_not_json_ld_and_finds_the_app_root():
    shape = read_page_shape(SHELL)
    assert shape == PageShape(scripts=3, app_root=True)


@pytest.mark.parametrize("markup, found", [
    (b'<div id="__next"></div>', True), (b"<div class=x id=app>", True), (b"<app-root></app-root>", True),
    (b'<div id="root-menu"></div>', False), (b'<div id="application"></div>', False), (b"<p>root</p>", False),
])
def test_app_root_element(markup, found):
    assert read_page_shape(markup).app_root is found


def test_script_built_needs_little_text_and_a_root_or_many_scripts():
    options = ScriptBuiltOptions(max_text_chars=100, min_scripts=5)
    assert PageShape(scripts=0, app_root=True).is_script_built(99, options)
    assert PageShape(scripts=5, app_root=False).is_script_built(0, options)
    assert not PageShape(scripts=4, app_root=False).is_script_built(0, options)
    assert not PageShape(scripts=20, app_root=True).is_script_built(101, options)


def test_visible_text_collapses_whitespace():
    assert visible_text_chars(["  Hello\n\n", "\tworld  "]) == len("Hello world")


def test_browser_path_setting_then_environment_then_debian_default():
    assert browser_path(Settings({"NEWSCRAWL_CHROMIUM_PATH": "/opt/c"}), {"NEWSCRAWL_CHROMIUM_PATH": "/env/c"}) == "/opt/c"
    assert browser_path(Settings(), {"NEWSCRAWL_CHROMIUM_PATH": "/env/c"}) == "/env/c"
    assert browser_path(Settings(), {}) == DEFAULT_BROWSER_PATH == "/usr/bin/chromium"


def test_without_browser_always_sites_are_left_out_and_auto_sites_crawl_plainly(tmp_path):
    settings = Settings({"NEWSCRAWL_CHROMIUM_PATH": str(tmp_path / "missing")})
    sites = _sites(a="always", b="auto", c="never")
    plan = RenderPlan.for_sites(sites, settings)
    assert not plan.browser_found
    assert [plan.mode(n) for n in "abc"] == ["unavailable", "never", "never"]
    assert plan.unavailable_sites == ("a",) and not plan.uses_browser
    assert [s.name for s in plan.crawlable(sites)] == ["b", "c"]
    plan.configure(settings)
    assert "http" not in settings.getdict("DOWNLOAD_HANDLERS")


def test_with_browser_only_always_pages_carry_playwright_meta(tmp_path):
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    settings = Settings({"NEWSCRAWL_CHROMIUM_PATH": str(browser), "USER_AGENT": "ua/1",
                         "NEWSCRAWL_RENDER_SETTLE_MS": 0, "PLAYWRIGHT_LAUNCH_OPTIONS": {"args": ["--x"]}})
    plan = RenderPlan.for_sites(_sites(a="always", b="auto", c="never"), settings)
    assert plan.uses_browser and plan.unavailable_sites == ()
    meta = plan.page_meta("a")
    assert meta["playwright"] is True and meta["playwright_context"] == "site:a"
    assert meta["playwright_context_kwargs"]["user_agent"] == "ua/1"
    assert "playwright_page_methods" not in meta
    assert plan.page_meta("b") == {} and plan.page_meta("c") == {}
    assert plan.render_meta("b")["playwright_context"] == "site:b"


def test_configure_installs_the_handler_browser_path_and_memory_extension(tmp_path):
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    settings = Settings({"NEWSCRAWL_CHROMIUM_PATH": str(browser), "PLAYWRIGHT_LAUNCH_OPTIONS": {"args": ["--x"]}})
    RenderPlan.for_sites(_sites(a="auto"), settings).configure(settings)
    assert settings.getdict("DOWNLOAD_HANDLERS") == {"http": HANDLER_PATH, "https": HANDLER_PATH}
    assert settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS") == {"args": ["--x"], "executable_path": str(browser)}
    extensions = {getattr(k, "__name__", k): v for k, v in settings.getdict("EXTENSIONS").items()}
    assert extensions["MemoryUsage"] is None and extensions["ScrapyPlaywrightMemoryUsageExtension"] == 0


def test_plain_sites_change_no_setting():
    settings = Settings()
    plan = RenderPlan.for_sites(_sites(a="never"), settings)
    plan.configure(settings)
    assert not plan.uses_browser and settings.getdict("DOWNLOAD_HANDLERS") == {}


@pytest.mark.parametrize("kind, blocked", [("Image", True), ("Media", True), ("Font", True), ("Stylesheet", True),
                                           ("Document", False), ("Script", False), ("XHR", False), ("Fetch", False)])
def test_browser_skips_images_media_fonts_and_css(kind, blocked):
    reason = block_reason("https://news.example/x", kind, "https://news.example/a", "https://news.example/a")
    assert reason == ("type" if blocked else None)


@pytest.mark.parametrize("url, page_url, blocked", [
    ("http://127.0.0.2:8080/app.js", "http://127.0.0.2:8080/news/1.html", False),  # the page's own origin
    ("http://127.0.0.2:9999/admin", "http://127.0.0.2:8080/news/1.html", True),  # another port
    ("http://169.254.169.254/latest/meta-data/", "https://news.example/a.html", True),  # cloud metadata
    ("http://localhost/x", "https://news.example/a.html", True),
    ("https://cdn.example/app.js", "https://news.example/a.html", False),  # public: allowed
])
def test_browser_never_reaches_private_addresses_beyond_the_page(url, page_url, blocked):
    assert block_reason(url, "Script", page_url, page_url) == ("private" if blocked else None)


def test_page_fetches_are_judged_by_the_page_shown_and_documents_by_the_navigation():
    # a script of a page that a public URL redirected to a private host: Scrapy checked only the public one
    assert block_reason("http://10.0.0.5/x.js", "Script", "https://news.example/a", "http://10.0.0.5/") is None
    assert block_reason("http://10.0.0.5/x.js", "XHR", "http://10.0.0.5/a", "https://news.example/a") == "private"
    # before the first document commits, the page shows about:blank: the navigation's origin counts
    assert block_reason("http://127.0.0.2:8080/app.js", "Script", "http://127.0.0.2:8080/a", "about:blank") is None


def test_browser_redirects_and_frames_to_private_addresses_are_blocked():
    # a redirect hop of the navigation, or a frame, to a private host: not the origin Scrapy checked
    assert block_reason("http://10.0.0.5/", "Document", "https://news.example/a.html", "about:blank") == "private"
    assert block_reason("http://10.0.0.5/", "Document", "https://news.example/a.html",
                        "https://news.example/a.html") == "private"
    # the page itself: Scrapy already checked its URL
    assert block_reason("http://127.0.0.2:8080/a.html", "Document", "http://127.0.0.2:8080/a.html", "about:blank") is None


def test_navigations_carry_the_scrapy_headers_with_the_browser_user_agent_as_fallback():
    browser = {"User-Agent": "HeadlessChrome", "Accept": "*/*", "Referer": "http://a.example/"}
    headers = navigation_headers({"User-Agent": "newscrawl/test", "Accept-Language": "en"}, browser)
    assert headers == {"user-agent": "newscrawl/test", "accept-language": "en", "referer": "http://a.example/"}
    assert navigation_headers({}, browser)["user-agent"] == "HeadlessChrome"


def test_render_page_limit_comes_from_the_setting_or_the_cpu_count():
    assert render_page_limit(Settings({"NEWSCRAWL_RENDER_MAX_PAGES": 3})) == 3
    assert render_page_limit(Settings({})) == RENDERS_PER_CPU * (os.cpu_count() or 1)


@pytest.mark.parametrize("level, expected", [("INFO", logging.INFO), ("DEBUG", logging.DEBUG), (logging.WARNING, logging.WARNING)])
def test_scrapy_playwright_logs_at_the_crawl_level(level, expected):
    logger = logging.getLogger(PLAYWRIGHT_LOGGER)
    before = logger.level
    try:
        logger.setLevel(logging.NOTSET)
        quiet_playwright_logger(Settings({"LOG_LEVEL": level}))
        assert logger.getEffectiveLevel() == expected  # what scrapy-playwright asks before logging each request
    finally:
        logger.setLevel(before)
