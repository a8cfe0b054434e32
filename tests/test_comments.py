"""Reader comments (``ExtractOptions.include_comments``): the readers' prose after the article,
in text and html; the comment area's furniture (authors, dates, reply links, the reply form and
its heading) never; nothing of it with the option off."""
from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from scrapy.utils.test import get_crawler

from newscrawl.crawl.pipelines import ExtractPipeline
from newscrawl.extract import extract
from newscrawl.items import ArticleItem, PageItem

CASE = Path(__file__).resolve().parent / "pages" / "en_blog_reader_comments"
SOURCE = (CASE / "source.html").read_bytes()
COMMENT_LINES = [
    "My grandfather built walls like this in Swaledale and always said the through stones were the whole secret.",
    "He was right, the wall only stopped wobbling once the through stones were in place.",
    "How many tonnes of stone did the whole stretch take, roughly?",
]
FURNITURE = ["Leave a Reply", "Your email address will not be published", "Save my name, email, and website",
             "Post Comment", "Tom Hadley", "Priya", "says:", "18 April 2023", "Reply", "3 thoughts on",
             "Recent Posts"]
ARTICLE_END = "with a row of cope stones set on edge along the top to shed the rain."


def _html_text(html: str) -> str:
    return " ".join(lxml.html.fromstring(html).text_content().split())


def test_comments_follow_the_article_in_text_and_html():
    result = extract(SOURCE, include_comments=True)
    lines = result.text.splitlines()
    assert lines[-3:] == COMMENT_LINES
    assert ARTICLE_END in lines[-4]
    html_text = _html_text(result.html)
    assert html_text.index(ARTICLE_END) < html_text.index(COMMENT_LINES[0])
    for line in COMMENT_LINES:
        assert line in html_text
    # the page's own markup: each comment's paragraph, a reply nested in its thread's list
    page = lxml.html.fromstring(result.html)
    assert [" ".join(p.text_content().split()) for p in page.iter("p")][-3:] == COMMENT_LINES
    assert page.xpath("//li//ol/li/p")[0].text == COMMENT_LINES[1]


def test_comment_furniture_and_form_stay_out():
    result = extract(SOURCE, include_comments=True)
    html_text = _html_text(result.html)
    for line in FURNITURE:
        assert line not in result.text, line
        assert line not in html_text, line
    assert "<form" not in result.html and "<textarea" not in result.html


def test_without_the_option_no_comment_at_all():
    result = extract(SOURCE, include_comments=False)
    assert result.text.splitlines()[-1].endswith(ARTICLE_END)
    for line in COMMENT_LINES:
        assert line not in result.text
        assert line not in result.html


def test_by_default_no_comment():
    assert extract(SOURCE).text == extract(SOURCE, include_comments=False).text


def test_in_main_only_takes_the_areas_inside_the_main_content():
    assert extract(SOURCE, include_comments=True, comments_in_main_only=True).text.splitlines()[-3:] == COMMENT_LINES
    outside = SOURCE.replace(b"<main ", b"<div ").replace(b"</main>", b"</div>")
    assert extract(outside, include_comments=True).text.splitlines()[-3:] == COMMENT_LINES
    in_main_only = extract(outside, include_comments=True, comments_in_main_only=True)
    assert in_main_only.text.splitlines()[-1].endswith(ARTICLE_END)


def test_comments_longer_than_the_share_are_left_out():
    article = extract(SOURCE, include_comments=False).text
    share = len("\n".join(COMMENT_LINES)) / len(article)
    assert extract(SOURCE, include_comments=True, comments_max_share=share * 1.01).text.endswith(COMMENT_LINES[-1])
    assert extract(SOURCE, include_comments=True, comments_max_share=share * 0.99).text == article


BLOGGER_PAGE = """<html><head><title>Winter sowing in milk jugs</title></head><body>
<div class="post hentry"><h1 class="post-title">Winter sowing in milk jugs</h1>
<div class="post-body entry-content">
<p>Every January the kitchen fills with empty milk jugs, cut around the middle and punched with holes in the bottom.</p>
<p>Filled with compost and sown with hardy seeds, they sit outside all winter, and the frost does the work a fridge would.</p>
<p>By April each jug is a crowded little greenhouse of seedlings, ready to be split and planted out in the beds.</p>
</div></div>
<div class="comments" id="comments"><h4>2 comments:</h4>
<div class="comments-content"><div class="comment-thread"><ol>
<li class="comment" id="c101"><div class="comment-block">
<div class="comment-header"><cite class="user"><a href="/profile/1">Ines</a></cite>
<span class="datetime secondary-text"><a href="#c101">January 9, 2024 at 8:14 PM</a></span></div>
<p class="comment-content">I tried this last year with chard and it came up weeks before the ones on the windowsill.</p>
<span class="comment-actions secondary-text"><a class="comment-reply" href="#">Reply</a><span class="item-control blog-admin"><a href="#">Delete</a></span></span>
</div></li>
<li class="comment" id="c102"><div class="comment-block">
<div class="comment-header"><cite class="user">Anonymous</cite>
<span class="datetime secondary-text"><a href="#c102">January 10, 2024 at 6:02 AM</a></span></div>
<p class="comment-content">Do the jugs need their caps off the whole time?</p>
<span class="comment-actions secondary-text"><a class="comment-reply" href="#">Reply</a></span>
</div></li></ol>
<div class="continue"><a href="#">Add comment</a></div></div></div>
<h4 id="comment-post-message">Post a Comment</h4>
<div class="comment-form"><p>Note: only a member of this blog may post a comment.</p></div>
</div>
<div id="sidebar"><div class="widget" id="PopularPosts1"><h2>Popular Posts</h2>
<ul><li><a href="/seed-swap">Our village seed swap</a></li><li><a href="/compost">Hot compost in a pallet bin</a></li></ul></div></div>
</body></html>"""


def test_blogger_comment_thread():
    text = extract(BLOGGER_PAGE, include_comments=True).text
    assert text.splitlines()[-2:] == [
        "I tried this last year with chard and it came up weeks before the ones on the windowsill.",
        "Do the jugs need their caps off the whole time?"]
    for line in ("Ines", "Anonymous", "January 9", "Reply", "Delete", "Add comment", "Post a Comment",
                 "only a member of this blog", "2 comments", "Popular Posts"):
        assert line not in text, line


RECENT_COMMENTS_WIDGET = """<html><head><title>Pruning the old pear</title></head><body>
<article><h1>Pruning the old pear</h1>
<p>The pear by the gate had not been pruned for a decade, and its crown had become a thicket of water shoots.</p>
<p>We took out a third of the old wood this winter and will take the next third in two years, so the tree is not shocked.</p>
<p>The cuts were made just outside the branch collar, which lets the tree close the wound on its own.</p>
</article>
<aside><div class="widget widget_comments" id="sidebar-comments"><h2>What readers say</h2><ul>
<li class="comment-item">Ann on <a href="/wall">Rebuilding a dry stone wall in one weekend</a></li>
<li class="comment-item">Bob on <a href="/seeds">This year's seed order from the catalogue</a></li>
</ul></div></aside></body></html>"""


def test_a_list_of_links_to_comments_is_not_comments():
    page = RECENT_COMMENTS_WIDGET
    with_option = extract(page, include_comments=True)
    assert with_option.text == extract(page, include_comments=False).text
    assert "Ann" not in with_option.text



@pytest.mark.parametrize("options, kept", [({}, False), ({"include_comments": True}, True)])
def test_the_crawl_passes_the_option_through(options, kept):
    settings = {"NEWSCRAWL_EXTRACT_WORKERS": 0, "NEWSCRAWL_EXTRACT_OPTIONS": options}
    pipeline = ExtractPipeline.from_crawler(get_crawler(settings_dict=settings))
    page = PageItem(url="http://127.0.0.2:8000/2023/04/dry-stone-wall/", site="hillside", body=SOURCE,
                    encoding="utf-8", discovered_via="feed", fetched_at="2023-04-20T00:00:00+00:00",
                    url_kind="article")
    item = pipeline.process_item(page)
    assert isinstance(item, ArticleItem)
    assert item.text.endswith(COMMENT_LINES[-1]) is kept
    assert "Leave a Reply" not in item.text
