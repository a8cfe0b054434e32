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


ABOUT_ME = ("I am a retired schoolteacher who lives by the river with two cats, a vegetable garden and far too "
            "many books. I write about knitting, gardening and the small pleasures of country life, and I answer "
            "every letter my readers send me, even when it takes a while. Thank you for stopping by, and do come "
            "again soon: the kettle is always on.")
SHORT_POST = ("<p>The first frost came early this year, so the tomatoes are now ripening on the kitchen windowsill.</p>"
              "<p>Green ones go into chutney; the rest get wrapped in newspaper, one by one.</p>")


def _blog_page(post_class: str) -> str:
    archive = "".join(f"<li><a href='/2012/{m:02d}/'>2012/{m:02d} ({m + 3})</a></li>" for m in range(1, 13))
    blogroll = "".join(f"<li><a href='http://blog{n}.example.org/'>Friend's blog number {n}</a></li>"
                       for n in range(1, 11))
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>First frost</title></head><body>"
            "<div id='outer'><div id='header'><h1>Riverside notes</h1></div>"
            "<div id='main'><div class='post'><h3>First frost</h3>"
            f"<div class='{post_class}'>{SHORT_POST}</div>"
            "<div class='post-footer'>Posted by <a href='/profile'>Ann</a> at 9:12 AM "
            "<a href='/2012/10/first-frost.html#c'>3 comments</a> Labels: <a href='/l/garden'>garden</a>, "
            "<a href='/l/kitchen'>kitchen</a></div></div></div>"
            f"<div id='side'><div id='profile'><h2>About me</h2><p>{ABOUT_ME}</p></div>"
            f"<div id='archive'><h2>Archive</h2><ul>{archive}</ul></div>"
            f"<div id='friends'><h2>Friends</h2><ul>{blogroll}</ul></div></div></div></body></html>")


def test_a_short_post_in_an_element_named_as_the_body_beats_a_longer_about_box():
    text = extract(_blog_page("post-body entry-content")).text
    assert "ripening on the kitchen windowsill" in text
    assert "retired schoolteacher" not in text


def test_an_element_not_named_as_a_body_does_not_beat_the_density_choice():
    text = extract(_blog_page("inner")).text
    assert "retired schoolteacher" in text   # the density score's choice, unchanged


def test_a_small_element_named_as_a_body_elsewhere_does_not_replace_the_article():
    tweet = "<ol class='feed'><li><div class='entry-content'>Off to the ferry, back by noon!</div></li></ol>"
    text = extract(_page("<div class='story'>" + "".join(f"<p>{p}</p>" for p in STORY) + "</div>",
                         around=tweet)).text
    for paragraph in STORY:
        assert paragraph in text
    assert "ferry" not in text


COMMENTS = ["Great write-up, thanks for covering the meeting so quickly.",
            "I live on Elm Street and we were never told about the night work, which is a shame."]


def test_blocks_after_a_heading_named_as_the_comments_section_are_left_out():
    story = ("<div class='main'>" + "".join(f"<p>{p}</p>" for p in STORY)
             + "<p class='posted'>Posted by Ann at 9:12 AM</p><h2 id='comments'>Comments</h2>"
             + "".join(f"<div id='c{n}'><p>{c}</p></div><p class='posted'>Posted by: reader {n}</p>"
                       for n, c in enumerate(COMMENTS)) + "</div>")
    text = extract(_page(story)).text
    for paragraph in STORY:
        assert paragraph in text
    for comment in COMMENTS:
        assert comment not in text


def test_a_comment_count_heading_above_the_story_leaves_the_story_in():
    story = ("<div class='main'><h3 class='comments-link'><a href='#respond'>2 comments</a></h3>"
             "<div class='entry-content'>" + "".join(f"<p>{p}</p>" for p in STORY) + "</div></div>")
    text = extract(_page(story)).text
    for paragraph in STORY:
        assert paragraph in text


def test_a_link_dense_column_holding_an_element_named_as_the_body_gives_way_to_it():
    events = "".join(f"<div class='event'><a href='/events/{n}'>Cloud workshop number {n} in a city near you</a>"
                     f"<p>Tuesday, November {n}, 2012, 9:00 to 17:00 local time.</p>"
                     f"<a href='/register/{n}'>Register now for workshop {n}</a></div>" for n in range(1, 9))
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>New disk options</title></head><body>"
            "<div id='pagebody'><div id='alpha'>" + events + "</div>"
            "<div id='beta'><h3>New disk options</h3><div class='entry-body'>" + SHORT_POST + "</div>"
            "<p class='entry-footer'>November 13, 2012 in <a href='/cat/storage'>Storage</a> | "
            "<a href='/2012/11/new-disk-options.html'>Permalink</a></p></div></div></body></html>")
    text = extract(page).text
    assert "ripening on the kitchen windowsill" in text
    assert "Register now" not in text


def _related_box(items: list[tuple[str, str]]) -> str:
    return ("<div class='story-extra'><h2>More on this story</h2><ul>"
            + "".join(f"<li><a href='/news/{n}'><span>{headline}</span> <span class='when'>{day}</span></a></li>"
                      for n, (headline, day) in enumerate(items))
            + "</ul></div>")


RELATED = [("Council votes on the new reservoir plan", "3 March 2016"),
           ("Why the old pipes keep bursting", "12 February 2016"),
           ("Residents asked to save water this summer", "28 January 2016")]


def test_a_short_dated_related_stories_list_after_the_story_is_kept():
    page = _page(f"<div class='wrap'><div class='story'>{''.join(f'<p>{p}</p>' for p in STORY)}</div>"
                 f"{_related_box(RELATED)}</div>")
    text = extract(page).text
    for paragraph in STORY:
        assert paragraph in text
    assert "More on this story" in text
    for headline, day in RELATED:
        assert headline in text and day in text


def test_an_undated_or_long_link_list_after_the_story_is_not_kept():
    undated = ("<div class='story-extra'><ul>"
               + "".join(f"<li><a href='/news/{n}'>{headline}</a></li>" for n, (headline, _) in enumerate(RELATED))
               + "</ul></div>")
    archive = _related_box([(f"Weekly notes from the water board, part {n}", f"{n} May 2015") for n in range(1, 13)])
    for after in (undated, archive):
        page = _page(f"<div class='wrap'><div class='story'>{''.join(f'<p>{p}</p>' for p in STORY)}</div>"
                     f"{after}</div>")
        text = extract(page).text
        assert STORY[-1] in text
        assert "Council votes" not in text and "Weekly notes" not in text


TEASERS = [("Tributes paid to a much-loved village baker", "Neighbours remember the man who baked bread for the village for forty years."),
           ("Bridge closed after storm damage", "Engineers say the old stone bridge will stay shut until the spring."),
           ("School wins national chess title", "Pupils aged nine to eleven beat teams from across the country."),
           ("Library extends its opening hours", "The town library will open on Sundays from next month, the council says."),
           ("Farmers warn of a poor apple harvest", "A wet summer has left many orchards with half their usual crop."),
           ("New bus route links the two valleys", "The service will run every hour between the market towns."),
           ("Museum shows a rediscovered painting", "The portrait spent a century in an attic before a collector spotted it."),
           ("Runners raise money for the hospital", "Hundreds took part in the ten-kilometre race along the river."),
           ("Castle roof repairs to begin in May", "Scaffolding will cover the east tower for most of the summer."),
           ("Cafe owner celebrates fifty years", "She opened the cafe in 1974 and still makes every cake herself."),
           ("Football club appoints a new manager", "The former captain returns to the club he played for as a teenager."),
           ("River clean-up draws a record crowd", "Volunteers pulled bicycles, tyres and a shopping trolley from the water.")]


def _section_page(body_of: callable) -> str:
    items = "".join(f"<div class='item'><h2><a href='/news/{n}'>{headline}</a></h2>{body_of(teaser)}</div>"
                    for n, (headline, teaser) in enumerate(TEASERS))
    return _page(f"<div class='section'><h3>Top stories</h3>{items}</div>", title="Local news")


def test_a_section_front_page_of_headline_links_over_teasers_has_no_text():
    result = extract(_section_page(lambda teaser: f"<p>{teaser}</p>"))
    assert result.reason == "section_page"
    assert result.text == "" and result.title == "Local news"


def test_a_front_page_of_whole_posts_under_linked_titles_keeps_its_text():
    result = extract(_section_page(lambda teaser: "".join(f"<p>{teaser} {p}</p>" for p in STORY[:2])))
    assert result.reason != "section_page"
    assert TEASERS[0][1] in result.text


def test_a_document_section_whose_id_is_its_heading_slug_is_not_taken_for_a_share_bar():
    sections = ("<div class='section' id='sharing-the-work-between-two-crews'>"
                "<h2>Sharing the work between two crews</h2>"
                f"<p>{STORY[2]}</p><p>{STORY[3]}</p></div>")
    share_bar = "<div id='sharing-buttons-row'><h3>Share</h3><a href='/s?fb'>Facebook</a> <a href='/s?tw'>Twitter</a></div>"
    text = extract(_page(f"<div class='document'><p>{STORY[0]}</p><p>{STORY[1]}</p>{sections}{share_bar}</div>")).text
    for paragraph in STORY:
        assert paragraph in text
    assert "Sharing the work" in text
    assert "Facebook" not in text


def test_an_article_body_split_over_alike_wrappers_is_taken_whole():
    aside = ("<div class='aside'><ul>" + "".join(f"<li><a href='/more/{k}'>Another story about the town's water, "
                                                 f"part {k}</a></li>" for k in range(4)) + "</ul></div>")
    story = ("<div class='story'>"
             f"<div class='part'><div class='story-body story-body-1'><p>{STORY[0]}</p><p>{STORY[1]}</p></div>{aside}</div>"
             f"<div class='part'><div class='story-body story-body-2'><p>{STORY[2]}</p><p>{STORY[3]}</p></div>{aside}</div>"
             "</div>")
    text = extract(_page(story)).text
    for paragraph in STORY:
        assert paragraph in text
    assert text.index(STORY[1]) < text.index(STORY[2])
    assert "Another story" not in text


def test_a_linked_word_wrapped_in_a_span_inside_a_sentence_stays():
    sentence = ("<p><span class='kw'><a href='/quote/WTR'>Riverside Water</a></span> said on Tuesday that the work "
                "would start in the spring and last about two years, street by street.</p>")
    text = extract(_page(f"<div class='story'><p>{STORY[0]}</p>{sentence}<p>{STORY[1]}</p><p>{STORY[2]}</p></div>")).text
    assert "Riverside Water said on Tuesday" in text


def test_a_pop_up_layer_inside_the_story_is_left_out():
    """A layer named with the whole token 'pop' (a share QR code's pop-up) is page furniture;
    'pop' inside a longer word ('popular-science') is not."""
    story = ("<div class='story'>" + "".join(f"<p>{p}</p>" for p in STORY[:2])
             + "<div class='wx-qrcode-pop'><div class='text'>Scan the code with WeChat<br>to share with friends"
               "</div><a class='close'>x</a></div>"
             + f"<p class='popular-science'>{STORY[2]}</p><p>{STORY[3]}</p></div>")
    text = extract(_page(story)).text
    for paragraph in STORY:
        assert paragraph in text
    assert "Scan the code" not in text and "share with friends" not in text


def test_a_one_link_paragraph_followed_by_prose_stays_in_the_text_flow():
    """Crossheads that link to a full story, each followed by its summary, are part of the
    article; a one-link paragraph that ends the story ("Read more: ...") is still a teaser."""
    heads = ["证监会：继续推进长期资金入市", "证监会：证金公司将增资扩股"]
    bodies = ["证监会新闻发言人3日表示，证监会一直在支持养老基金等各类长期资金入市，下一步将继续推进各类长期资金的入市，推动长期资金与资本市场实现良性发展。",
              "证监会新闻发言人3日表示，证金公司将进行第三次增资扩股，由现有股东进行增资，增资扩股后还将多渠道筹集资金用于扩大业务规模，维护资本市场稳定。"]
    story = ("<div id='endText'><p>" + "；".join(bodies) + "。</p>"
             + "".join(f"<p><a href='/15/0703/{n}.html'>{head}</a></p><p>{body}</p>"
                       for n, (head, body) in enumerate(zip(heads, bodies)))
             + "<p><a href='/15/0703/9.html'>延伸阅读：证监会例行发布会全文</a></p></div>")
    html = ("<html><head><meta charset='utf-8'><title>证监会例行发布会新闻汇总</title></head><body>"
            "<h1>证监会例行发布会新闻汇总</h1>" + story + "</body></html>")
    text = extract(html).text
    for head in heads:
        assert head in text
    assert "延伸阅读" not in text


def test_a_box_around_the_whole_page_stays_whatever_its_name_says():
    """The only child of <body> (and its only child...) wraps the page: its id naming comments or a
    newsletter does not make it boilerplate. A box so named inside the page still goes."""
    story = "".join(f"<p>{p}</p>" for p in STORY)
    html = ("<html><head><title>Water board approves pipe replacement</title></head><body>"
            "<div id='http://example.org/newsletters/1997/oct.htm'><div class='page'>"
            f"<h2>Water board approves pipe replacement</h2>{story}"
            "<div class='newsletter'><p>Sign up to our newsletter for the week's stories.</p></div>"
            "</div></div></body></html>")
    text = extract(html).text
    for paragraph in STORY:
        assert paragraph in text
    assert "Sign up" not in text


def test_an_id_naming_a_footer_marks_it_whatever_its_classes_hold():
    """id="site-foot" names the page footer; its class list holding "text" (a styling word) does
    not keep it: its long browser notice must not be taken for the short story."""
    story = f"<div class='story'><p>{STORY[0]}</p></div>"
    notice = ("<div id='site-foot' class='site-foot-text-dark'><p><strong>This page is best viewed in an "
              "up-to-date web browser with style sheets (CSS) enabled. While you will be able to view the "
              "content of this page in your current browser, you will not be able to get the full visual "
              "experience. Please consider upgrading your browser software or enabling style sheets (CSS) "
              "if you are able to do so.</strong></p></div>")
    text = extract(_page(story, around=notice)).text
    assert STORY[0] in text
    assert "best viewed" not in text


def test_a_widget_whose_class_only_holds_text_inside_a_word_is_still_boilerplate():
    """'context-full' holds "text" inside a word: no content name, so the gallery widget goes."""
    slides = "".join(f"<div class='slide'><h3>Picture {n}</h3><p>Caption of picture {n} of the week's gallery, "
                     f"with a line about the company shown.</p><span>{n}/12</span></div>" for n in range(1, 13))
    story = (f"<div class='story'><p>{STORY[0]}</p><p>{STORY[1]}</p>"
             f"<div class='dnd-widget-wrapper context-full type-gallery'>{slides}</div>"
             f"<p>{STORY[2]}</p><p>{STORY[3]}</p></div>")
    text = extract(_page(story)).text
    for paragraph in STORY:
        assert paragraph in text
    assert "Caption of picture" not in text


def test_timestamp_credit_and_tool_lines_are_left_out():
    furniture = ["Stand: 08.07.2026 05:00 Uhr", "Aktualisiert: 12.03.2024", "Updated 5:27 am CST, Wednesday May 3",
                 "Actualizado a las 15:10h.", "Son Güncelleme : 30.04.2024 - 16:49", "30.04.2024 | 16:48",
                 "Bildrechte: dpa/Thomas Frey", "Photo: Henrik Montgomery/TT", "Teilen", "Drucken", "Text size",
                 "Order Reprints", "Caption", "Close", "Lesen Sie auch", "Box aufklappen",
                 "Sendung: Radio Mitte, 24.04.2024, 15:10 Uhr", "Über dieses Thema berichtete das Regionalradio am 3. Mai.",
                 "Lesezeit: 4 Minuten", "5 min read"]
    story = ("<div class='story'>" + "".join(f"<div>{line}</div>" for line in furniture[:8])
             + "".join(f"<p>{p}</p>" for p in STORY) + "".join(f"<p>{line}</p>" for line in furniture[8:]) + "</div>")
    text = extract(_page(story)).text
    lines = text.split("\n")
    for line in furniture:
        assert line not in lines
    for paragraph in STORY:
        assert paragraph in text


def test_sentences_that_open_like_furniture_stay():
    kept = ["Updated figures will follow when the board meets again in the spring, officials said.",
            "Photo: the council published a picture of the burst main on its website on Monday evening."]
    story = "<div class='story'>" + "".join(f"<p>{p}</p>" for p in [*STORY, *kept]) + "</div>"
    text = extract(_page(story)).text
    for paragraph in kept:
        assert paragraph in text


def test_the_dates_of_a_thread_s_posts_stay():
    posts = "".join(f"<div class='post'><div>1{day}.03.2020, 21:30</div><p>{paragraph}</p></div>"
                    for day, paragraph in enumerate(STORY))
    text = extract(_page(f"<div class='thread'>{posts}</div>")).text
    for day in range(len(STORY)):
        assert f"1{day}.03.2020, 21:30" in text


def test_a_block_named_caption_stays_unless_it_sits_beside_a_picture_as_a_short_line():
    """A name is evidence: a caption-named paragraph, a caption-named block without a picture,
    and one whose picture unit also holds the story stay; a short one beside its picture goes."""
    caption = "Workers lay the first new pipe under the market square on Monday."
    story = (f"<div class='story'><p>{STORY[0]}</p>"
             f"<div class='photo'><img src='/pipe.jpg' alt=''><span class='photo-caption'>{caption}</span></div>"
             f"<p>{STORY[1]}</p>"
             f"<p class='wp-caption-text'>Told in a paragraph: the engineers met the residents twice.</p>"
             f"<div class='caption-box'>No picture here: the meeting lasted three hours.</div>"
             f"<p>{STORY[2]}</p><p>{STORY[3]}</p></div>")
    text = extract(_page(story)).text
    assert caption not in text
    assert "Told in a paragraph" in text
    assert "No picture here" in text
    for paragraph in STORY:
        assert paragraph in text
    assert caption in extract(_page(story), named_caption_max_chars=0).text


def test_boxes_named_infobox_that_make_up_the_content_stay():
    """A fact box's name counts only while the boxes so named hold less than half the content:
    a board of offers, each in an "infobox", is the content itself."""
    offers = "".join(f"<div class='infobox'><h3>Offer {n}</h3><p>{paragraph}</p></div>"
                     for n, paragraph in enumerate(STORY))
    text = extract(_page(f"<div class='board'><p>Four offers this week.</p>{offers}</div>")).text
    for paragraph in STORY:
        assert paragraph in text
    story = (f"<div class='story'><p>{STORY[0]}</p><p>{STORY[1]}</p>"
             "<div class='infobox'><h3>Figures</h3><ul><li>Pipes: 40 km</li><li>Cost: 12 million</li></ul></div>"
             f"<p>{STORY[2]}</p><p>{STORY[3]}</p></div>")
    text = extract(_page(story)).text
    assert "Pipes: 40 km" not in text
    assert "Pipes: 40 km" in extract(_page(story), fact_box_max_share=0).text
