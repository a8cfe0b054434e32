"""Title heuristics: the headline shown on the page, never the site name."""
from newscrawl.extract.dom import parse_html
from newscrawl.extract.metadata import read_page_meta
from newscrawl.extract.title import find_title, following_texts, iter_following_texts, strip_site_name


def title_of(html: str) -> str | None:
    root = parse_html(html)
    return find_title(root, read_page_meta(root))


def test_h1_matching_the_start_of_title_wins():
    html = """<html><head><title>央行宣布降准0.5个百分点_财经_新浪网</title></head>
    <body><div class="logo"><h1>新浪财经</h1></div><h1>央行宣布降准0.5个百分点</h1><p>正文</p></body></html>"""
    assert title_of(html) == "央行宣布降准0.5个百分点"


def test_suffixes_are_removed_from_title_tag():
    assert strip_site_name("央行宣布降准0.5个百分点_财经_新浪网", []) == "央行宣布降准0.5个百分点"
    assert strip_site_name("Storm hits the coast - BBC News", []) == "Storm hits the coast"
    assert strip_site_name("Daily Planet | City council votes to rebuild the old bridge", ["Daily Planet"]) \
        == "City council votes to rebuild the old bridge"
    assert strip_site_name("华为发布新款手机-网易新闻", []) == "华为发布新款手机"


def test_title_tag_used_without_headline_element():
    html = "<html><head><title>Storm hits the coast - BBC News</title></head><body><p>x</p></body></html>"
    assert title_of(html) == "Storm hits the coast"


def test_og_title_before_title_tag():
    html = """<html><head><title>Example Site</title>
    <meta property="og:title" content="Rates rise again"><meta property="og:site_name" content="Example Site">
    </head><body><p>text</p></body></html>"""
    assert title_of(html) == "Rates rise again"


def test_jsonld_headline():
    html = """<html><head><script type="application/ld+json">
    {"@type": "NewsArticle", "headline": "Bridge reopens after repairs"}</script></head>
    <body><p>text</p></body></html>"""
    assert title_of(html) == "Bridge reopens after repairs"


def test_site_name_is_never_the_title():
    html = """<html><head><title>Example Times</title>
    <meta property="og:site_name" content="Example Times"></head>
    <body><h1>Example Times</h1><p>No headline here.</p></body></html>"""
    assert title_of(html) is None


def test_label_before_headline_is_dropped():
    html = """<html><head><title>最不愁吃肉的国家</title></head>
    <body><h1 class="article-title"><span>原创</span>最不愁吃肉的国家</h1></body></html>"""
    assert title_of(html) == "最不愁吃肉的国家"


def test_byline_inside_the_h1_is_not_part_of_the_title():
    html = """<html><head><title>联合国报告：全球经济增长放缓 - 某某网</title></head>
    <body><h1>联合国报告：全球经济增长放缓<span>发布时间：2019-09-26 10:09</span>
    <script>var x = 1;</script></h1></body></html>"""
    assert title_of(html) == "联合国报告：全球经济增长放缓"


def test_displayed_truncated_headline_kept():
    html = """<html><head><title>A very long headline about the weather and the markets today | Site</title></head>
    <body><h2 class="title">A very long headline about the weather…</h2></body></html>"""
    assert title_of(html) == "A very long headline about the weather…"


def test_heading_in_old_table_layout_found_by_title_part():
    html = """<html><head><title>第四届经济学年会会议议程_年会秘书处_北京大学经济研究中心</title></head>
    <body><table><tr><td>首页&gt;&gt;会议</td></tr><tr><td><b>第四届经济学年会会议议程</b></td></tr></table></body></html>"""
    assert title_of(html) == "第四届经济学年会会议议程"


def test_no_title_at_all():
    assert title_of("<html><body><p>just text</p></body></html>") is None


def _following_by_xpath(element, skip=None):
    """Reference reading of following_texts (the anchor's ancestors skipped by none): every later
    text node, whitespace collapsed, that no invisible or skipped element holds (their tails are
    read)."""
    runs = []
    for node in element.xpath("following::text()"):
        parent = node.getparent()  # for a tail: the element (or comment) before it
        holders = list(parent.iterancestors()) if node.is_tail else [parent, *parent.iterancestors()]
        hidden = any(isinstance(e.tag, str) and (e.tag in ("script", "style", "noscript", "template", "head",
                                                          "title") or (skip is not None and skip(e)))
                     for e in holders)
        if not hidden and " ".join(node.split()):
            runs.append(" ".join(node.split()))
    return runs


def test_following_texts_skip_invisible_and_skipped_blocks_but_keep_their_tails():
    root = parse_html("<html><body><div><h1>Head</h1> after  head <!-- note -->note tail"
                      "<p>One <b>bold</b> two<script>var x;</script>script tail</p>"
                      "<div class='skip'>skipped <i>all</i></div>skip tail</div><p>Last</p></body></html>")
    h1 = root.find(".//h1")
    skip = lambda element: element.get("class") == "skip"  # noqa: E731
    expected = ["after head", "note tail", "One", "bold", "two", "script tail", "skip tail", "Last"]
    assert following_texts(h1, 10_000, skip) == expected == _following_by_xpath(h1, skip)
    assert following_texts(h1, 10_000)[-4:] == ["skipped", "all", "skip tail", "Last"]
    assert following_texts(h1, 12, skip) == ["after head", "note tail"]  # stops once past the window
    assert list(iter_following_texts(h1, 10_000, skip)) == expected
