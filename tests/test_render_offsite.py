"""render: always on a page that tries to leave its site: a script's fetch() and an iframe to another host,
a script from a CDN name that resolves to loopback, and a location.href to another host after load
(the page stays where it is and becomes the item; one that navigates away before its load event
times out and gives no item; either way nothing off the site is requested).

Names come from the test itself: Chromium gets ``--host-resolver-rules`` and the crawl the test
resolver (tests/hostnames.py), both mapping them to the site's own loopback address, so a
request that got through would reach the site's server under another Host header.
"""
from __future__ import annotations

import json
import os

import pytest

from hostileweb import host_of, links_page, port_of, start_site
from hostnames import HOSTS_SETTING, hosts_setting
from newscrawl.render.plan import DEFAULT_BROWSER_PATH
from newscrawl.settings import PLAYWRIGHT_LAUNCH_OPTIONS
from test_crawl_hostile import run
from test_crawl_render import RENDER_SETTINGS

pytestmark = pytest.mark.skipif(not os.access(DEFAULT_BROWSER_PATH, os.X_OK) and not os.environ.get("CI"),
                                reason=f"no browser at {DEFAULT_BROWSER_PATH} (apt-get install chromium)")
NAMES = ("evil.test", "cdn.test")
RUNAWAY = "/news/2024/05/01/runaway-story.html"
PARAGRAPHS = "".join(f"<p>On day {i} the harbour council met again and the ferry plan number {i} was read aloud, "
                     f"argued over for an hour, and finally approved by all members.</p>" for i in range(8))


def runaway_page(port: int) -> bytes:
    return (f'<!DOCTYPE html><html><head><title>Runaway story</title><meta property="og:type" content="article">'
            f'<script src="http://cdn.test:{port}/lib.js"></script></head><body><article><h1>Runaway story</h1>'
            f'<time datetime="2024-05-01">2024-05-01</time>{PARAGRAPHS}</article>'
            f'<iframe src="http://evil.test:{port}/framed"></iframe>'
            f'<script>fetch("http://evil.test:{port}/fetched").catch(function () {{}});'
            f'addEventListener("load", function () {{ setTimeout(function () {{'
            f' location.href = "http://evil.test:{port}/landed"; }}, 50); }});</script>'
            f'</body></html>').encode()


def test_a_rendered_page_cannot_leave_its_site(tmp_path):
    site = start_site(200)
    try:
        ip, port = host_of(site), port_of(site)
        site.add_page("/", links_page([RUNAWAY]))
        site.add_page(RUNAWAY, runaway_page(port))
        for path in ("/framed", "/fetched", "/landed", "/lib.js"):
            site.add_page(path, b"<html><body><p>Somewhere else entirely.</p></body></html>")
        launch = {**PLAYWRIGHT_LAUNCH_OPTIONS, "args": [*PLAYWRIGHT_LAUNCH_OPTIONS["args"],
                                                         f"--host-resolver-rules={', '.join(f'MAP {n} {ip}' for n in NAMES)}"]}
        code, stderr, stats, items = run(tmp_path, [{"name": "runaway-gazette", "start_urls": [f"{site.base}/"],
                                                     "render": "always"}], {
            **RENDER_SETTINGS, "PLAYWRIGHT_LAUNCH_OPTIONS": json.dumps(launch),
            HOSTS_SETTING: hosts_setting({name: ip for name in NAMES})}, timeout=240)
    finally:
        site.server.shutdown()
        site.server.server_close()
    assert code == 0, stderr[-3000:]
    assert site.hosts_asked() == {ip}, site.requests
    assert [item["url"] for item in items] == [f"{site.base}{RUNAWAY}"]
    assert items[0]["title"] == "Runaway story"
    prefix = "newscrawl/site/runaway-gazette/render/"
    assert stats[prefix + "blocked_offsite"] >= 2  # the iframe and the fetch()
    assert stats[prefix + "blocked_private"] >= 1  # the script of cdn.test, a public-looking name
    assert stats[prefix + "blocked_navigation"] == 1  # location.href
