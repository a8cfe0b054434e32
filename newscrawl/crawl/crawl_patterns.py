"""Vocabularies of the crawl side: URL shapes, tracking parameters, feed types.

Compiled once, specific before generic; the logic lives in urls.py,
classify.py and discovery.py.
"""
from __future__ import annotations

import re

# Query parameters that only track the visitor or campaign; removed from canonical URLs.
TRACKING_PARAMS = frozenset({
    "fbclid", "gclid", "dclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "_ga", "_gl",
    "ref", "ref_src", "ref_url", "cmpid", "ncid", "ocid", "sr_share", "share", "share_token",
    "spm", "scm", "from", "source", "src", "tt_from", "utm_id", "wt.mc_id", "wtmc", "at_medium",
    "at_campaign", "at_custom1", "at_custom2", "rss", "feed", "mbid", "smid", "partner",
})
# Prefixes of tracking parameter names (utm_source, utm_medium, ..., pk_campaign, ...).
TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "hmsr", "hmpl", "hmcu", "hmkw", "hmci")

# --- article URLs --------------------------------------------------------
# A date in the path followed by a further segment: /2024/05/14/slug, /2024-05-14/id, /20240514/123.
DATE_THEN_MORE_RE = re.compile(
    r"/(19|20)\d\d(?:[-/_]?)(0[1-9]|1[0-2])(?:(?:[-/_]?)(0[1-9]|[12]\d|3[01]))?/+[^/]+")
# A long numeric id in the last segment: /123456.html, /article-1234567, /a/2024/0514/c1234567.shtml.
NUMERIC_ID_RE = re.compile(r"(?:^|[^0-9])\d{5,}(?:[^0-9/]*)$")
# An English headline slug in the last segment: four or more hyphen-joined words.
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+){3,}(?:\.s?html?)?$", re.I)

# --- list and section URLs ----------------------------------------------
# Path words of pages that list other pages or describe the site.
LIST_PATH_RE = re.compile(
    r"/(?:tags?|category|categories|section|sections|topics?|authors?|columns?|channels?|page|pages|"
    r"archives?|calendar|search|about|about-us|contact|contact-us|privacy|terms|login|register|"
    r"subscribe|newsletter|index|list|lists|feed|rss|sitemap|help|faq|jobs|careers|video|videos|"
    r"gallery|photos|live)(?:[/._-]|$)", re.I)
# Query keys that paginate, sort or filter a list.
LIST_QUERY_RE = re.compile(r"(?:^|&)(?:page|p|pg|start|offset|sort|order|filter|month|year|day|date|tag|q|query)=",
                           re.I)
# A query that is only a post number (WordPress ?p=15500): a post, though "p" otherwise paginates.
POST_ID_QUERY_RE = re.compile(r"^p=\d{3,}$")
# Digit runs collapse to "#" when grouping URLs by shape (calendar traps).
DIGITS_RE = re.compile(r"\d+")

# --- page signals ----------------------------------------------------------
# (schema.org types of one story and of pages that list or describe: ARTICLE_SCHEMA_TYPES and
# NON_ARTICLE_SCHEMA_TYPES in newscrawl.extract.patterns, shared with the extractor)
# og:type values of non-article pages.
LIST_OG_TYPES = frozenset({"profile", "video.other", "music.song", "book"})
# og:type values many CMSs put on every page, articles included (tv.msnbc.com, pcworld.com pages of
# ../shared/eval): not a list signal, only no article signal.
GENERIC_OG_TYPES = frozenset({"website"})

# --- discovery -------------------------------------------------------------
# <link rel="alternate" type=...> values that announce a feed.
FEED_LINK_TYPES = frozenset({
    "application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+json",
    "application/json+feed", "application/x.atom+xml", "application/x-rss+xml",
})
# Discovery sources whose URLs the site itself lists as content: exempt from the URL-shape trap cap
# (a site of /story/123.html pages listed in its sitemap is not an endless calendar), and remembered
# when dropped as no article (incremental.is_dead_end).
LISTED_VIA = frozenset({"feed", "sitemap"})
# Content types that are never HTML pages worth parsing for links.
HTML_CONTENT_TYPE_RE = re.compile(rb"^\s*(?:text/html|application/xhtml\+xml)", re.I)

# --- remembered drops (incremental.py) --------------------------------------
# Drop reasons that say the page itself is no article: its URL is not fetched again for
# NEWSCRAWL_REMEMBER_DROPS_DAYS when the page is no way to articles either (incremental.py). Listing
# verdicts (list_page, link_dense, link_page, section_page, not_article_type) and no_body (no content
# block: what a page of bare links gives) stay out: new articles are found through such pages.
# Faults (extract_error) and bookkeeping (duplicate, known) stay out: they say nothing of the page.
REMEMBERED_DROP_REASONS = frozenset({
    "too_short",  # the extractor found too little prose for an article (stubs, contact and legal pages)
    "not_article",  # neither URL nor page says article, and the text is not enough evidence
    "too_large",  # the page is beyond the extractor's size limits
    "not_html",  # binary or plain data served as a page
    "empty_input",  # an empty page
})
