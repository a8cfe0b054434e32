"""Script-built sample sites: an empty app shell that JavaScript fills with the article.

Every article page ships ``<div id="root">`` and a little "Loading" text; the
shared ``/static/app.js`` reads the page's ``window.__ARTICLE__`` data and
inserts the headline, the date and the paragraphs (and, for a browser that
fetches them, an image and a style sheet, which the crawl must not request).
The home page's headline list is built the same way. One page can hang: its
script ``/static/never.js`` answers only after ``HANG_SECONDS``, so the
browser's load event does not come in time.

Used by the rendering tests and ``benchmarks/render_speed.py``.
"""
from __future__ import annotations

import html
import json

from .stories import HARBOR, Story
from .web import DemoSite, Reply

HANG_SECONDS = 30.0
HANGING_PATH = "/news/hanging-page.html"
FETCH_DELAY_SECONDS = 0.3  # the fetched site's data requests answer this late
FETCH_GAP_MS = 100  # ... and its script waits this long between the headline and the body request
APP_JS = """(function () {
  var data = window.__ARTICLE__ || {};
  if (data.fetch) {  // an app that loads its article as data: headline first, the body a moment later
    fetch(data.fetch).then(function (r) { return r.json(); }).then(function (article) {
      setTimeout(function () {
        fetch(article.body).then(function (r) { return r.json(); }).then(function (paragraphs) {
          article.paragraphs = paragraphs; render(article);
        });
      }, FETCH_GAP_MS);
    });
  } else {
    render(data);
  }
})();
function render(data) {
  var root = document.getElementById("root");
  root.innerHTML = "";
  document.title = data.title ? data.title + " | " + data.site : data.site;
  var link = document.createElement("link");
  link.rel = "stylesheet"; link.href = "/static/site.css";
  document.head.appendChild(link);
  if (data.links) {
    var list = document.createElement("ul");
    data.links.forEach(function (item) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = item[0]; a.textContent = item[1]; li.appendChild(a); list.appendChild(li);
    });
    root.appendChild(list);
    return;
  }
  var article = document.createElement("article");
  var h1 = document.createElement("h1"); h1.textContent = data.title; article.appendChild(h1);
  var byline = document.createElement("p"); byline.className = "byline";
  var time = document.createElement("time"); time.setAttribute("datetime", data.date);
  time.textContent = data.date.slice(0, 10);
  byline.appendChild(document.createTextNode("By " + data.author + " | ")); byline.appendChild(time);
  article.appendChild(byline);
  var img = document.createElement("img"); img.src = "/img/" + data.key + ".jpg"; img.alt = "";
  article.appendChild(img);
  data.paragraphs.forEach(function (text) {
    var p = document.createElement("p"); p.textContent = text; article.appendChild(p);
  });
  root.appendChild(article);
}
"""
# Scripts a bundled app typically loads besides its own (so the shell has "many scripts").
VENDOR_SCRIPTS = ("runtime", "vendor", "polyfills", "analytics")


def _shell(site_title: str, data: dict, extra_head: str = "") -> bytes:
    vendors = "".join(f'<script src="/static/{name}.js" defer></script>' for name in VENDOR_SCRIPTS)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(site_title)}</title>{extra_head}
{vendors}</head><body>
<header><a href="/">{html.escape(site_title)}</a></header>
<div id="root"><p class="loading">Loading…</p></div>
<script>window.__ARTICLE__ = {json.dumps(data)};</script>
<script src="/static/app.js"></script>
</body></html>"""
    return page.encode("utf-8")


def article_path(index: int, story: Story) -> str:
    return f"/news/{story.date[:10].replace('-', '/')}/{index}-{story.key}.html"


def scripted_site(base: str, name: str = "script-gazette", title: str = "Script Gazette",
                  stories: tuple[Story, ...] = HARBOR[:4], hanging: bool = False) -> DemoSite:
    """A site whose home page and articles are built by JavaScript."""
    site = DemoSite(name, base)
    headlines = []
    for index, story in enumerate(stories):
        path = article_path(index, story)
        data = {"site": title, "key": story.key, "title": story.title, "date": story.date,
                "author": story.author, "paragraphs": list(story.paragraphs)}
        site.routes[path] = Reply(_shell(title, data))
        site.articles[base + path] = story
        headlines.append((path, story.title))
    if hanging:
        site.routes[HANGING_PATH] = Reply(_shell(title, {"site": title, "links": []},
                                                 '<script src="/static/never.js"></script>'))
        site.routes["/static/never.js"] = Reply(b"", content_type="text/javascript", delay=HANG_SECONDS)
        headlines.append((HANGING_PATH, "A page that never finishes loading"))
    site.routes["/"] = Reply(_shell(title, {"site": title, "links": headlines}))
    site.routes["/static/app.js"] = Reply(APP_JS.replace("FETCH_GAP_MS", str(FETCH_GAP_MS)).encode(), content_type="text/javascript",
                                          headers=(("Cache-Control", "max-age=3600"),))
    for vendor in VENDOR_SCRIPTS:
        site.routes[f"/static/{vendor}.js"] = Reply(b"void 0;", content_type="text/javascript",
                                                    headers=(("Cache-Control", "max-age=3600"),))
    site.routes["/static/site.css"] = Reply(b"body { margin: 0 }", content_type="text/css")
    site.routes["/robots.txt"] = Reply(b"User-agent: *\nAllow: /\n", content_type="text/plain")
    site.config = {"name": name, "start_urls": [base + "/"], "render": "always"}
    return site


def fetched_site(base: str) -> DemoSite:
    """A script-built site whose pages fetch their article as JSON after load, in two slow requests
    with a pause between them: the render must wait for the network to go quiet, not just for load."""
    site = scripted_site(base, "fetch-gazette", "Fetch Gazette", HARBOR[6:])
    for path, story in [(url[len(base):], story) for url, story in site.articles.items()]:
        api = f"/api/{story.key}"
        data = {"site": "Fetch Gazette", "key": story.key, "title": story.title, "date": story.date,
                "author": story.author, "body": api + "/body.json"}
        site.routes[path] = Reply(_shell("Fetch Gazette", {"site": "Fetch Gazette", "fetch": api + ".json"}))
        site.routes[api + ".json"] = Reply(json.dumps(data).encode(), content_type="application/json",
                                           delay=FETCH_DELAY_SECONDS)
        site.routes[api + "/body.json"] = Reply(json.dumps(list(story.paragraphs)).encode(),
                                                content_type="application/json", delay=FETCH_DELAY_SECONDS)
    return site


def hanging_site(base: str) -> DemoSite:
    """The script-built site with one page that hangs."""
    return scripted_site(base, "slow-gazette", "Slow Gazette", HARBOR[4:6], hanging=True)
