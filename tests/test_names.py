"""Class and id names as evidence (newscrawl/extract/names.py): a name's strength, and the blocks
it removes before the density pass or keeps for the prose they hold."""
from __future__ import annotations

import time

import pytest

from newscrawl.extract import extract
from newscrawl.extract.dom import clean_tree, is_unlikely_name, parse_html
from newscrawl.extract.limits import count_attributes, too_many_attributes
from newscrawl.extract.names import NameStrength, judge_named_blocks, name_strength
from newscrawl.extract.options import DEFAULT_OPTIONS

PROSE = ("The harbour board met on Tuesday to decide the future of the old grain quay, which has stood empty "
         "since the last mill closed and now needs a new roof before the winter storms arrive.")


@pytest.mark.parametrize("classes, ident, strength", [
    ("sidebar", "", NameStrength.WHOLE),
    ("related-links", "", NameStrength.WHOLE),
    ("share__tool share__tool--email", "", NameStrength.WHOLE),     # a BEM element is its block: "share"
    ("promo_holder clearfix", "", NameStrength.WHOLE),              # a box around what it names
    ("", "footer", NameStrength.WHOLE),
    ("elementor-widget-container", "", NameStrength.PART),          # a page builder's box
    ("wp-block-group has-sidebar", "", NameStrength.WHOLE),         # a whole token beside it still counts
    ("sidebar-grid__container article__body-wrap", "", NameStrength.PART),   # a grid, not a sidebar
    ("TestReport__Section TestReport__Section--Ads", "", NameStrength.PART),  # a BEM modifier
    ("o-row c-fixed-sidebar-layout--140--left@lg", "", NameStrength.PART),
    ("share-zone", "", NameStrength.PART),
    ("comment-list", "", NameStrength.COMMENTS),
])
def test_name_strength(classes, ident, strength):
    assert name_strength(classes, ident) is strength


def _judged(body: str):
    root = parse_html(f"<html><body>{body}</body></html>")
    named = [element for element in root.iter()   # those clean_tree's rule names like boilerplate
             if is_unlikely_name(f"{element.get('class', '')} {element.get('id', '')}")]
    verdicts = judge_named_blocks(root, named, DEFAULT_OPTIONS)
    return ({element.get("class") or element.get("id") for element in verdicts.doomed},
            {element.get("class") or element.get("id") for element in verdicts.suspects})


def test_paragraphs_sharing_a_boilerplate_name_that_hold_the_prose_are_kept():
    doomed, suspects = _judged("".join(f'<p class="paywall">{PROSE}</p>' for _ in range(6))
                               + '<div class="sidebar"><a href="/a">One</a> <a href="/b">Two</a></div>')
    assert suspects == {"paywall"} and doomed == {"sidebar"}


def test_a_whole_name_needs_most_of_the_prose_a_compound_one_less():
    body = ("<div class='story'>" + f"<p>{PROSE}</p>" * 6 + "</div>"
            + f"<div class='elementor-widget-container'><p>{PROSE}</p><p>{PROSE}</p></div>"
            + f"<div class='promo'><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>")
    doomed, suspects = _judged(body)
    assert suspects == {"elementor-widget-container"} and doomed == {"promo"}


def test_link_lists_and_comments_go_whatever_they_hold():
    links = "".join(f'<li><a href="/{n}">{PROSE}</a></li>' for n in range(8))
    comments = "".join(f"<p>{PROSE}</p>" for _ in range(12))
    doomed, suspects = _judged(f"<p>{PROSE}</p><ul class='elementor-nav-menu'>{links}</ul>"
                               f"<div id='comments'>{comments}</div>")
    assert suspects == set() and doomed == {"elementor-nav-menu", "comments"}


def test_a_keyword_link_inside_a_sentence_keeps_its_word():
    paragraph = ('<p>The council will vote on the <a class="tag-link" href="/tag/budget">budget</a> '
                 "next week, after two months of hearings in every ward of the city.</p>")
    html = f"<html><body><div class='text'>{paragraph * 5}<div class='tags'><a href='/t'>Budget</a></div></div></body></html>"
    text = extract(html).text
    assert "vote on the budget next week" in " ".join(text.split())


def test_a_named_box_inside_the_article_goes_even_when_it_holds_prose():
    story = f"<p>{PROSE}</p>" * 4
    slideshow = "".join(f"<li><h4>Slide {n}</h4><p>A caption of a picture from another story, told at length. "
                        f"{PROSE}</p></li>" for n in range(8))
    html = (f"<html><body><div class='article-text'>{story}<p>Also on the site:</p>"
            f"<div class='promo-box'><ul>{slideshow}</ul></div></div></body></html>")
    text = extract(html).text
    assert "The harbour board met on Tuesday" in text and "Slide 3" not in text


def test_clean_tree_returns_the_kept_named_blocks():
    root = parse_html("<html><body>" + f'<p class="paywall">{PROSE}</p>' * 5 + "</body></html>")
    suspects = clean_tree(root, DEFAULT_OPTIONS)
    assert [element.get("class") for element in suspects] == ["paywall"] * 5
    assert len(root.findall(".//p")) == 5


@pytest.mark.parametrize("tag", [
    '<path d="M0 0 ' + " ".join(f"L{n} {n % 97}" for n in range(8_000)) + ' Z">',      # a long SVG path
    '<img srcset="' + ", ".join(f"/i-{n}.jpg {n}w" for n in range(3_000)) + '">',     # a long srcset
    "<div data-state='" + '{"k": "a=b c=d", "v": [1, 2, 3]} ' * 2_000 + "'>",         # JSON in a data-* value
])
def test_long_attribute_values_are_one_attribute_each(tag):
    assert len(tag) > 20_000
    assert count_attributes(tag, 10) <= 2
    assert not too_many_attributes(f"<html><body>{tag}</body></html>", DEFAULT_OPTIONS.max_attributes_per_element)


def test_a_tag_of_a_million_attributes_is_refused_quickly():
    page = "<html><body><div " + " ".join(f"a{n}=x" for n in range(1_000_000)) + ">hi</div></body></html>"
    started = time.monotonic()
    assert too_many_attributes(page, DEFAULT_OPTIONS.max_attributes_per_element)
    assert time.monotonic() - started < 10
    assert count_attributes('<div a=1 b="x y z" c=\'q\' d e=f', 100) == 5
