"""Three sample news sites for the offline demo and the crawl tests.

- ``harbor-times`` (English): home, sections with endless pagination, tag and
  about pages, an endless calendar, RSS feed, robots.txt with ``Disallow`` and
  ``Sitemap:``, a sitemap index with a gzip sitemap and a Google News sitemap,
  and broken links (404, 500, a slow page, a redirect loop).
- ``valley-ledger`` (English): a JSON Feed announced only by ``<link rel=alternate>``
  on the home page, and a print copy that names the article as rel=canonical.
- ``jiangcheng-daily`` (Chinese, GBK): Atom feed and a plain sitemap given in
  sites.yaml; some pages declare the charset only in a ``<meta>`` tag.

Each builder takes the site's base URL (``http://127.0.0.x:port``) and returns
a :class:`DemoSite`; :data:`Story` objects listed in ``DemoSite.articles`` are
the pages a crawl must emit.
"""
from __future__ import annotations

import gzip
import html
import json
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from .stories import HARBOR, JIANGCHENG, VALLEY, Story

UTF8_HTML = "text/html; charset=utf-8"
NAV = {
    "Harbor Times": [("/", "Home"), ("/world/", "World"), ("/business/", "Business"), ("/tag/ports", "Ports"),
                     ("/about", "About us"), ("/archive/2024/05/", "Archive")],
    "Valley Ledger": [("/", "Home"), ("/about", "About")],
}


@dataclass(frozen=True)
class Reply:
    body: bytes = b""
    content_type: str | None = UTF8_HTML
    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0  # seconds to wait before answering


@dataclass
class DemoSite:
    name: str
    base: str
    routes: dict[str, Reply] = field(default_factory=dict)
    # (path prefix, handler of the full path with query) for endless pages
    dynamic: list[tuple[str, Callable[[str], Reply]]] = field(default_factory=list)
    articles: dict[str, Story] = field(default_factory=dict)  # absolute URL -> story
    config: dict = field(default_factory=dict)  # the site's sites.yaml entry

    def reply(self, path: str) -> Reply:
        if path in self.routes:
            return self.routes[path]
        for prefix, handler in self.dynamic:
            if path.startswith(prefix):
                return handler(path)
        return Reply(b"<html><body><h1>Not found</h1></body></html>", status=404)


def _links(items: list[tuple[str, str]]) -> str:
    return "".join(f'<li><a href="{html.escape(u)}">{html.escape(t)}</a></li>' for u, t in items)


def _en_page(title: str, body: str, head: str = "", site: str = "Harbor Times") -> bytes:
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} | {site}</title>
<style>body {{ font-family: serif; }} .ad {{ display: block; }}</style>
<script>window.dataLayer = [];function track(e) {{ dataLayer.push(e); }}</script>
{head}</head><body>
<header><a href="/" class="logo">{site}</a>
<nav class="menu"><ul>{_links(NAV.get(site, [("/", "Home")]))}</ul></nav></header>
<!-- main content starts -->
{body}
<iframe src="/ads/frame.html" class="ad" title="advertisement"></iframe>
<noscript>Please enable JavaScript to see our newsletter offers.</noscript>
<footer><p>Copyright 2024 {site}. All rights reserved.</p><ul><li><a href="/about">About</a></li>
<li><a href="/contact">Contact</a></li></ul></footer>
<script>track("pageview");</script></body></html>"""
    return page.encode("utf-8")


def _story_date(story: Story) -> str:
    return story.date[:10]


def _en_article(story: Story, url: str, related: list[tuple[str, str]], site: str, markup: bool) -> bytes:
    head = f'<link rel="canonical" href="{url}">'
    if markup:
        ld = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": story.title,
              "datePublished": story.date, "author": {"@type": "Person", "name": story.author}}
        head += (f'<meta property="og:type" content="article"><meta property="og:title" content="{html.escape(story.title)}">'
                 f'<meta property="article:published_time" content="{story.date}">'
                 f'<script type="application/ld+json">{json.dumps(ld)}</script>')
    paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in story.paragraphs)
    body = f"""<main><article><h1>{html.escape(story.title)}</h1>
<p class="byline">By <span class="author">{html.escape(story.author)}</span> |
<time datetime="{story.date}">{_story_date(story)}</time></p>
<div class="story-body">{paragraphs}</div></article>
<aside class="related"><h2>More stories</h2><ul>{_links(related)}</ul></aside>
<div class="share">Share: <a href="https://social.invalid/share">Social</a> <a href="mailto:?">Email</a></div></main>"""
    return _en_page(story.title, body, head, site)


def _list_page(title: str, items: list[tuple[str, str]], extra: str = "", site: str = "Harbor Times",
               head: str = "") -> bytes:
    body = f'<main><h1>{html.escape(title)}</h1><ul class="headlines">{_links(items)}</ul>{extra}</main>'
    return _en_page(title, body, '<meta property="og:type" content="website">' + head, site)


def _rss(base: str, items: list[tuple[str, Story]]) -> bytes:
    from email.utils import format_datetime
    from datetime import datetime

    entries = "".join(
        f"<item><title>{html.escape(s.title)}</title><link>{u}?utm_source=rss</link>"
        f"<guid isPermaLink=\"false\">{s.key}</guid>"
        f"<pubDate>{format_datetime(datetime.fromisoformat(s.date))}</pubDate></item>"
        for u, s in items)
    return (f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Harbor Times</title>'
            f"<link>{base}/</link><description>Latest news</description>{entries}</channel></rss>").encode("utf-8")


def _urlset(urls: list[tuple[str, Story | None]], news: bool = False) -> bytes:
    ns = ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' if news else ""
    rows = []
    for url, story in urls:
        extra = ""
        if story and news:
            extra = (f"<news:news><news:publication><news:name>Harbor Times</news:name><news:language>en"
                     f"</news:language></news:publication><news:publication_date>{story.date}"
                     f"</news:publication_date><news:title>{html.escape(story.title)}</news:title></news:news>")
        elif story:
            extra = f"<lastmod>{_story_date(story)}</lastmod>"
        rows.append(f"<url><loc>{url}</loc>{extra}</url>")
    return (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
            f'{ns}>{"".join(rows)}</urlset>').encode("utf-8")


def _calendar(base: str) -> Callable[[str], Reply]:
    """An endless archive: every month links to the previous and next month and to its days."""

    def handler(path: str) -> Reply:
        parts = [p for p in urlsplit(path).path.split("/") if p][1:]
        try:
            year, month = int(parts[0]), int(parts[1])
        except (IndexError, ValueError):
            return Reply(b"", status=404)
        prev_y, prev_m = (year, month - 1) if month > 1 else (year - 1, 12)
        next_y, next_m = (year, month + 1) if month < 12 else (year + 1, 1)
        days = [(f"/archive/{year}/{month:02d}/{d:02d}/", f"{year}-{month:02d}-{d:02d}") for d in (1, 8, 15, 22)]
        nav = [(f"/archive/{prev_y}/{prev_m:02d}/", "Previous month"), (f"/archive/{next_y}/{next_m:02d}/", "Next month")]
        return Reply(_list_page(f"Archive {year}-{month:02d}", days + nav))

    return handler


def _endless_section(name: str, first_pages: dict[int, list[tuple[str, str]]]) -> Callable[[str], Reply]:
    """A section whose ?page=N links to page N+1 and to sort variants, forever."""

    def handler(path: str) -> Reply:
        query = parse_qs(urlsplit(path).query)
        try:
            page = int(query.get("page", ["1"])[0])
        except ValueError:
            page = 1
        items = list(first_pages.get(page, []))
        items += [(f"/{name}/?page={page + 1}", "Older stories"),
                  (f"/{name}/?page={page}&sort=oldest", "Oldest first"),
                  (f"/{name}/?page={page}&sort=newest&session={page * 7919}", "Newest first")]
        return Reply(_list_page(f"{name.title()} news, page {page}", items))

    return handler


def harbor_times(base: str) -> DemoSite:
    site = DemoSite("harbor-times", base)
    paths = {s.key: f"/{s.date[:4]}/{s.date[5:7]}/{s.date[8:10]}/{s.key}.html" for s in HARBOR}
    latest, older, gz_only, news_only = HARBOR[:4], HARBOR[4:5], HARBOR[5:6], HARBOR[6:7]
    headlines = [(paths[s.key], s.title) for s in latest]
    for index, story in enumerate(HARBOR):
        related = [h for h in headlines if h[0] != paths[story.key]][:3]
        site.routes[paths[story.key]] = Reply(_en_article(story, base + paths[story.key], related,
                                                          "Harbor Times", markup=index % 2 == 0))
        site.articles[base + paths[story.key]] = story
    home_items = [(paths[latest[0].key] + "?utm_source=home&utm_medium=web", latest[0].title)] + headlines[1:]
    home_items += [("/2024/05/01/missing-story.html", "A story that was taken down"),
                   ("/2024/05/02/broken-story.html", "A story on a broken server"),
                   ("/2024/05/03/slow-story.html", "A story on a slow server"),
                   ("/loop/a", "A story behind a redirect loop"),
                   ("/private/2024/05/10/draft-story-not-for-robots.html", "A draft"),
                   ("/section/business.html", "Business")]
    site.routes["/"] = Reply(_list_page("Latest news", home_items, head='<link rel="alternate" '
                                        'type="application/rss+xml" href="/feed.xml" title="RSS">'))
    site.dynamic.append(("/world/", _endless_section("world", {1: headlines[:2], 2: [(paths[older[0].key], older[0].title)]})))
    site.dynamic.append(("/archive/", _calendar(base)))
    site.routes["/business/"] = Reply(_list_page("Business", headlines[2:] + [("/world/?page=2", "More")]))
    site.routes["/tag/ports"] = Reply(_list_page("Stories tagged ports", headlines[:2]))
    about = ("<p>The Harbor Times has covered the port, the islands and the city since 1921. Our newsroom of "
             "twenty-two reporters and editors works from the old customs house on the east quay, and we "
             "publish every morning, with updates through the day.</p><p>We are owned by a reader trust. "
             "Letters, tips and corrections are welcome by mail or at the front desk, which is open on "
             "weekdays from nine to five.</p>")
    site.routes["/about"] = Reply(_en_page("About us", f"<main><h1>About the Harbor Times</h1>{about}</main>",
                                           '<meta property="og:type" content="website">'))
    site.routes["/contact"] = Reply(_list_page("Contact", [("/about", "About us")]))
    site.routes["/2024/05/02/broken-story.html"] = Reply(b"<h1>Internal error</h1>", status=500)
    site.routes["/2024/05/03/slow-story.html"] = Reply(_list_page("Slow", []), delay=6.0)
    site.routes["/loop/a"] = Reply(status=302, headers=(("Location", "/loop/b"),))
    site.routes["/loop/b"] = Reply(status=302, headers=(("Location", "/loop/a"),))
    site.routes["/private/2024/05/10/draft-story-not-for-robots.html"] = Reply(
        _en_article(HARBOR[0], base + "/private/x", [], "Harbor Times", True))
    site.routes["/robots.txt"] = Reply(f"User-agent: *\nDisallow: /private/\n\nSitemap: {base}/sitemap_index.xml\n"
                                       .encode(), content_type="text/plain")
    site.routes["/feed.xml"] = Reply(_rss(base, [(base + paths[s.key], s) for s in latest]),
                                     content_type="application/rss+xml")
    index = ('<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
             f"<sitemap><loc>{base}/sitemap-articles.xml.gz</loc></sitemap>"
             f"<sitemap><loc>{base}/news-sitemap.xml</loc></sitemap></sitemapindex>")
    site.routes["/sitemap_index.xml"] = Reply(index.encode(), content_type="application/xml")
    archive = [(base + paths[s.key], s) for s in (*older, *gz_only)] + [(base + "/about", None)]
    site.routes["/sitemap-articles.xml.gz"] = Reply(gzip.compress(_urlset(archive)), content_type="application/gzip")
    site.routes["/news-sitemap.xml"] = Reply(_urlset([(base + paths[s.key], s) for s in (*latest[:2], *news_only)],
                                                     news=True), content_type="application/xml")
    site.config = {"name": site.name, "start_urls": [base + "/"]}
    return site


def valley_ledger(base: str) -> DemoSite:
    site = DemoSite("valley-ledger", base)
    paths = {s.key: f"/stories/{48100 + i}-{s.key}" for i, s in enumerate(VALLEY)}
    for story in VALLEY:
        url = base + paths[story.key]
        # articles link home only: the JSON Feed is the one way to find the later stories
        site.routes[paths[story.key]] = Reply(_en_article(story, url, [("/", "Home")], "Valley Ledger", markup=True))
        site.articles[url] = story
    printed = VALLEY[0]
    site.routes["/print/48100"] = Reply(_en_article(printed, base + paths[printed.key], [], "Valley Ledger", True))
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": "Valley Ledger", "home_page_url": base + "/",
            "items": [{"id": s.key, "url": base + paths[s.key], "title": s.title, "date_published": s.date}
                      for s in VALLEY[1:]]}
    site.routes["/feed.json"] = Reply(json.dumps(feed).encode(), content_type="application/feed+json")
    home = [(paths[VALLEY[0].key], VALLEY[0].title), ("/print/48100", "Print edition"), ("/about", "About")]
    site.routes["/"] = Reply(_list_page("Valley Ledger", home, site="Valley Ledger",
                                        head='<link rel="alternate" type="application/feed+json" href="/feed.json">'))
    site.routes["/about"] = Reply(_list_page("About the Ledger", [("/", "Home")], site="Valley Ledger"))
    site.routes["/contact"] = Reply(_list_page("Contact the Ledger", [("/", "Home")], site="Valley Ledger"))
    site.config = {"name": site.name, "start_urls": [base + "/"], "max_depth": 2}
    return site


def _zh_page(title: str, body: str, head: str = "") -> bytes:
    page = f"""<!DOCTYPE html><html lang="zh-CN"><head><meta http-equiv="Content-Type" content="text/html; charset=gbk">
<title>{html.escape(title)}_江城晚报</title>{head}
<script type="text/javascript">var _hmt = _hmt || [];</script></head><body>
<div class="top"><a href="/">首页</a> | <a href="/channel/local.shtml">本地</a> | <a href="/channel/sports.shtml">体育</a>
| <a href="/about.shtml">关于我们</a></div>
{body}
<div class="footer">江城晚报社版权所有 未经授权禁止转载 <a href="/about.shtml">联系我们</a></div></body></html>"""
    return page.encode("gbk")


def jiangcheng_daily(base: str) -> DemoSite:
    site = DemoSite("jiangcheng-daily", base)
    paths = {s.key: f"/news/{s.date[:4]}{s.date[5:7]}{s.date[8:10]}/{s.key}.shtml" for s in JIANGCHENG}
    headlines = [(paths[s.key], s.title) for s in JIANGCHENG]
    for index, story in enumerate(JIANGCHENG):
        when = f"{story.date[:4]}年{story.date[5:7]}月{story.date[8:10]}日 {story.date[11:16]}"
        paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in story.paragraphs)
        related = [h for h in headlines if h[0] != paths[story.key]][:3]
        body = (f'<div class="article"><h1>{html.escape(story.title)}</h1><div class="info">{when} 来源：江城晚报 '
                f'作者：{story.author}</div><div class="content">{paragraphs}</div></div>'
                f'<div class="related"><h3>相关新闻</h3><ul>{_links(related)}</ul></div>')
        # every other page declares its charset only in <meta>, not in the HTTP header
        content_type = "text/html" if index % 2 else "text/html; charset=gbk"
        site.routes[paths[story.key]] = Reply(_zh_page(story.title, body), content_type=content_type)
        site.articles[base + paths[story.key]] = story
    home = f'<div class="list"><ul>{_links(headlines[:3])}</ul></div>'
    site.routes["/"] = Reply(_zh_page("首页", home), content_type="text/html; charset=gbk")
    channel = f'<div class="list"><h2>本地新闻</h2><ul>{_links(headlines)}</ul></div>'
    site.routes["/channel/local.shtml"] = Reply(_zh_page("本地新闻", channel), content_type="text/html")
    site.routes["/channel/sports.shtml"] = Reply(_zh_page("体育", f"<ul>{_links(headlines[2:3])}</ul>"),
                                                 content_type="text/html")
    about = "<div><h1>关于我们</h1><p>江城晚报创刊于一九五六年，是江城市发行量最大的晚报。报社设有新闻、经济、文体等部门。</p></div>"
    site.routes["/about.shtml"] = Reply(_zh_page("关于我们", about), content_type="text/html")
    entries = "".join(f'<entry><title>{html.escape(s.title)}</title><link href="{base}{paths[s.key]}"/>'
                      f"<id>{s.key}</id><updated>{s.date}</updated><published>{s.date}</published></entry>"
                      for s in JIANGCHENG[3:])
    atom = (f'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>江城晚报</title>'
            f"<id>{base}/</id><updated>2024-05-14T08:30:00+08:00</updated>{entries}</feed>")
    site.routes["/atom.xml"] = Reply(atom.encode("utf-8"), content_type="application/atom+xml")
    site.routes["/sitemap.xml"] = Reply(_urlset([(base + paths[s.key], s) for s in JIANGCHENG]),
                                        content_type="text/xml")
    site.config = {"name": site.name, "start_urls": [base + "/"], "feeds": [base + "/atom.xml"],
                   "sitemaps": [base + "/sitemap.xml"]}
    return site


BUILDERS = (harbor_times, valley_ledger, jiangcheng_daily)
