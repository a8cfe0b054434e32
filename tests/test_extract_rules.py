"""Accuracy rules of the density extractor, one test per rule (pages written for the tests)."""
from __future__ import annotations

from newscrawl.extract import extract
from test_extract_edge import PARAGRAPHS_EN

STORY = PARAGRAPHS_EN  # four paragraphs of one story


def _page(story_html: str, title: str = "Water board approves pipe replacement", around: str = "") -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
            f"<div class='menu'><a href='/'>Home</a> <a href='/news'>News</a></div>"
            f"<h1>{title}</h1>{story_html}{around}</body></html>")


def test_elements_with_a_hiding_css_class_are_left_out():
    story = (f"<div class='story'><p>{STORY[0]}</p><p>{STORY[1]}</p>"
             "<div class='box hidden'><a href='#after-box'>Skip the box and continue reading</a></div>"
             f"<p>{STORY[2]}</p><p class='Hide'>Text shown only after clicking a button.</p>"
             f"<p class='hidden-gem'>{STORY[3]}</p></div>")
    text = extract(_page(story)).text
    assert "continue reading" not in text
    assert "after clicking" not in text
    for paragraph in STORY:   # 'hidden-gem' is not a hiding class: only whole class names count
        assert paragraph in text


def test_blog_engine_furniture_lines_are_left_out():
    furniture = ["Like this:", "Be the first to like this.", "Powered by WordPress",
                 "TrackBack URL for this entry:", "You can leave a response, or trackback from your own site.",
                 "Comments are closed.", "Hide caption", "Enlarge this image"]
    story = ("<div class='entry'>" + "".join(f"<p>{p}</p>" for p in STORY[:2])
             + "<div>Hide caption</div><p>Enlarge this image</p>"
             + "".join(f"<p>{p}</p>" for p in STORY[2:])
             + "".join(f"<div>{line}</div>" for line in furniture[:6]) + "</div>")
    text = extract(_page(story)).text
    for line in furniture:
        assert line not in text
    for paragraph in STORY:
        assert paragraph in text


def test_a_trackback_notice_with_its_url_is_left_out():
    notice = ("TrackBack URL for this entry: http://www.example-blog-host.com/services/trackback/"
              "6a00d83451b31569e20153938cc353970b Listed below are links to weblogs that reference this post.")
    assert 80 < len(notice) <= 200
    story = "<div class='entry'>" + "".join(f"<p>{p}</p>" for p in STORY) + f"<p>{notice}</p></div>"
    text = extract(_page(story)).text
    assert "TrackBack" not in text
    for paragraph in STORY:
        assert paragraph in text
