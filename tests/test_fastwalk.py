"""The compiled walks (newscrawl/extract/_fastwalk.pyx) give exactly what the Python walks give.

Skipped when the module is not built, except where NEWSCRAWL_REQUIRE_FASTWALK=1 (CI sets it:
there a missing build is a failure, not a skip; conftest.py).
"""
from __future__ import annotations

import copy
import pathlib

import lxml.etree
import lxml.html
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from newscrawl.extract import density, dom, fastwalk, metadata, page_texts, serialized, title
from newscrawl.extract.content import _candidate_scores
from newscrawl.extract.dates import patterns as date_patterns
from newscrawl.extract.dates.foreign import foreign_test
from newscrawl.extract.density import DensityTable, guarded_log
from newscrawl.extract.named_attributes import _NAMES, _VALUES, AttributeTest, _selected_attributes
from newscrawl.extract.dom import _CONTROL_CHARS_RE, _cleaning_attributes_in_python, clean_tree, parse_html, text_of
from newscrawl.extract.options import DEFAULT_OPTIONS, make_options
from newscrawl.extract import output
from newscrawl.extract.output import _is_empty_block, _render_plan_in_python, _render_text_in_python
from newscrawl.extract.patterns import BLOCK_LEVEL_TAGS, CONTAINER_TAGS, KEPT_HTML_TAGS
from newscrawl.extract.verdict import count_links

from test_extract_fuzz import documents

pytestmark = pytest.mark.needs_fastwalk

PAGES = pathlib.Path(__file__).parent / "pages"
COLUMNS = ("elements", "tag_names", "text", "link_text", "tags", "link_tags", "punctuation", "paragraphs",
           "longest_run")


def _page(body_html: str):
    return lxml.html.document_fromstring(f"<html><body>{body_html}</body></html>")


def _assert_same_tables(root) -> None:
    """The counts, and the score pass's SD, candidates and scores, to the bit."""
    compiled, python = DensityTable(root), DensityTable(root, use_compiled=False)
    for column in COLUMNS:
        assert getattr(compiled, column) == getattr(python, column), column
    assert compiled.position == python.position
    walked_in_c = fastwalk.compiled.density_counts(root, CONTAINER_TAGS) is not None
    assert (compiled.compiled_counts is not None) == walked_in_c and python.compiled_counts is None
    assert compiled.standard_deviation() == python.standard_deviation()
    log_sd = guarded_log(python.standard_deviation())
    for options in (DEFAULT_OPTIONS, make_options(mass_weight=0, min_candidate_chars=0, link_max_chars=3)):
        assert _candidate_scores(compiled, log_sd, options) == _candidate_scores(python, log_sd, options)
    _assert_same_subtree_counts(root, python)


def _assert_same_subtree_counts(root, python: DensityTable) -> None:
    """density.subtree_counts in C: the table's counts of every element asked for, None for one
    not in the tree (None for all where the C walk gives way to Python's)."""
    detached = lxml.html.fromstring("<div><p>elsewhere</p></div>")
    asked = [*python.elements[::-1], detached, detached[0]]
    rows = fastwalk.compiled.subtree_counts(root, asked)
    if fastwalk.compiled.density_counts(root, CONTAINER_TAGS) is None:
        assert rows is None
        return
    expected = [(i, python.text[i], python.link_text[i], python.tags[i], python.paragraphs[i])
                for i in range(len(python.elements) - 1, -1, -1)]
    assert rows == [*expected, None, None]


SELECTION_TESTS = (AttributeTest("a", "rel", "author"), AttributeTest(None, "data-ptime"),
                   AttributeTest("time", "pubdate"), AttributeTest(None, "href", "x"))


def _assert_same_rows(root) -> None:
    """The attribute reads: the cleaning's rows, the class/id/itemprop values and selections of
    named_attributes."""
    tagged = {tag: [element for element in root.iter(tag)] for tag in metadata._TAGGED}
    tagged["hidden"] = list(root.iter(*metadata._HIDDEN))
    assert fastwalk.compiled.tagged_elements(root, metadata._TAGGED, metadata._HIDDEN) == tagged
    names = metadata._META_ATTRIBUTES + ("class", "x")
    elements = list(root.iter(lxml.etree.Element))
    assert fastwalk.compiled.attribute_rows(elements, names) == \
        [tuple(element.get(name) for name in names) for element in elements]
    values, rows = fastwalk.compiled.cleaning_attributes(root)
    python_values, python_rows = _cleaning_attributes_in_python(root)
    assert values == python_values   # the distinct ones, in the order first met
    assert python_values == list(dict.fromkeys(python_values))
    assert [python_values[kind] for kind in python_rows.kinds] == \
        [(e.tag, e.get("class"), e.get("id"), e.get("style"), e.get("hidden") is not None, e.get("aria-hidden"),
          e.get("itemprop")) for e in python_rows.elements]   # each element with its own row
    # each distinct row's verdict number is its index: sort then gives each element its row
    sorted_rows = rows.sort(list(range(len(values))), 0, 0, 0, -1)[3]
    assert sorted_rows == [element for element, kind in zip(python_rows.elements, python_rows.kinds) if kind]
    for bits in ((2, 4, 8, 1), (1, 2, 4, 8)):   # each verdict routed as the reference routes it
        verdicts = [index % 16 for index in range(len(values))]
        assert rows.sort(verdicts, *bits) == python_rows.sort(verdicts, *bits)
    words = ("date", "a", "e", "x", "新", "")
    chosen = {}
    tables = fastwalk.compiled.attribute_values(root, _NAMES)
    for name in _NAMES:
        chosen[name] = {value for value in set(_VALUES[name](root)) if any(word in value for word in words[:5])}
        for some in (words[:5], words[:1], words[5:], (), ("a", "ab", "b")):
            assert tables[name].with_words(some) == \
                {value for value in set(_VALUES[name](root)) if any(word in value for word in some)}
    for tests in ((), SELECTION_TESTS):
        names = tuple(name for name in _NAMES if chosen[name])
        expected = [value.getparent() for value in
                    _selected_attributes(root, chosen, names, "|".join(test.xpath for test in tests))]
        assert fastwalk.compiled.select_attributes(root, {name: chosen[name] for name in names}, tests) == expected


def _assert_same_text(nodes) -> None:
    """render_text, and the verdict's character and link counts."""
    assert fastwalk.compiled.render_text(nodes, BLOCK_LEVEL_TAGS) == _render_text_in_python(nodes)
    chars = sum(len(text_of(node).strip()) for node in nodes)
    link_chars = sum(len(text_of(link).strip()) for node in nodes for link in node.iter("a"))
    assert fastwalk.compiled.link_counts(nodes) == (chars, link_chars, count_links(nodes))
    assert fastwalk.compiled.collapsed_texts(nodes) == [" ".join(text_of(node).split()) for node in nodes]


def _assert_same_texts(root) -> None:
    """render_text of the body, of its children together, and of each of the first elements alone."""
    body = root.find("body")
    if body is not None:
        _assert_same_text([body])
        _assert_same_text(list(body))
    for element in list(root.iter(lxml.etree.Element))[:60]:
        _assert_same_text([element])


def _assert_same_runs(root) -> None:
    """The date search's text walks (page_texts), at sizes that stop them early and late, and
    the title's search for body texts starting with a word (lxml's smart strings as reference)."""
    for word in ("a", "news", "新", "2018", "Posted"):
        assert fastwalk.compiled.body_texts_starting(root, word) == [
            (str(node), node.getparent(), node.is_tail) for node in page_texts._BODY_TEXT_NODES(root)
            if str(node).lstrip(" \t\r\n").startswith(word)]
    elements = list(root.iter(lxml.etree.Element))
    for element in elements[::max(1, len(elements) // 12)]:
        for max_chars, skip in ((0, None), (60, None), (400, foreign_test(DEFAULT_OPTIONS)), (10**9, None)):
            assert fastwalk.compiled.following_runs(element, max_chars, skip, title._INVISIBLE_TAGS) == \
                list(title.iter_following_texts(element, max_chars, skip))
            preceding = fastwalk.compiled.preceding_runs(element, max_chars, skip, title._INVISIBLE_TAGS)
            title.compiled = None
            try:
                assert preceding == title.preceding_texts(element, max_chars, skip)
            finally:
                title.compiled = fastwalk.compiled
    body = page_texts.first_body(root)
    for max_chars in (0, 40, 400, 10**9):
        assert fastwalk.compiled.visible_runs(root, max_chars) == \
            page_texts._visible_runs_in_python(root, max_chars)
        if body is not None:
            assert fastwalk.compiled.link_free_runs(body, max_chars, foreign_test(DEFAULT_OPTIONS)) == \
                page_texts._link_free_runs_in_python(body, max_chars, foreign_test(DEFAULT_OPTIONS))


def _assert_same_html(root) -> None:
    """render_html's plan and empty blocks, and its whole output, with and without the compiled walks."""
    body = root.find("body")
    if body is None:
        return
    wrapper = lxml.html.fragment_fromstring("<div></div>")
    wrapper.extend(copy.deepcopy(child) for child in body)
    assert fastwalk.compiled.render_plan(wrapper, BLOCK_LEVEL_TAGS, KEPT_HTML_TAGS) == _render_plan_in_python(wrapper)
    assert fastwalk.compiled.empty_blocks(wrapper) == \
        [element for element in wrapper.iter("p", "li", "figure", "figcaption") if _is_empty_block(element)]
    html = output.render_html([body], "http://127.0.0.1/a/")
    try:
        output.compiled = None
        assert output.render_html([body], "http://127.0.0.1/a/") == html
    finally:
        output.compiled = fastwalk.compiled


def _page_sources() -> list[pathlib.Path]:
    return sorted(PAGES.glob("*/source.html"))


def test_there_are_pages_to_compare():
    assert len(_page_sources()) >= 10


@pytest.mark.parametrize("path", _page_sources(), ids=lambda path: path.parent.name)
def test_density_counts_match_on_the_test_pages(path):
    root = parse_html(path.read_bytes().decode("utf-8", "replace"))
    _assert_same_rows(root)
    _assert_same_runs(root)
    _assert_same_tables(root)          # the raw tree: scripts, comments, forms
    clean_tree(root, DEFAULT_OPTIONS)
    _assert_same_tables(root)          # the cleaned tree the extractor scores
    _assert_same_texts(root)
    _assert_same_html(root)


@pytest.mark.parametrize("path", _page_sources(), ids=lambda path: path.parent.name)
def test_cleaning_keeps_the_same_named_blocks_with_the_python_walks(path, monkeypatch):
    """clean_tree's verdicts on named blocks (names.judge_named_blocks reads a DensityTable): the
    same tree and the same suspects with the compiled walks and with the Python ones."""
    html = path.read_bytes().decode("utf-8", "replace")
    results = []
    for walks in (fastwalk.compiled, None):
        monkeypatch.setattr(dom, "compiled", walks)
        monkeypatch.setattr(density, "compiled", walks)
        root = parse_html(html)
        suspects = clean_tree(root, DEFAULT_OPTIONS)
        tree = root.getroottree()
        results.append((lxml.etree.tostring(root), [tree.getpath(element) for element in suspects]))
    assert results[0] == results[1]


@pytest.mark.parametrize("html", [
    # whitespace Python's str.strip() removes (NBSP, ideographic space, line separator, \x1c)
    "<p>\u00a0\u3000 text\u2028\x1c</p><p>\u00a0</p><p> \u200b </p>",
    # CJK and ASCII punctuation, inside and outside links, in tails
    "<div>一句话，又一句。<a href=x>链接，。</a>尾巴！“引号”<b>b</b>…</div>",
    # text runs split by stripped comments, adjacent text nodes
    "<div>a<!-- x -->b<p>c<!-- y --> d</p>e<!-- z -->f</div>",
    # nested links, a link's tail, empty elements
    "<div><a>one<a>two</a>three</a>tail, <p></p><p> </p></div>",
    # four-byte UTF-8 and combining marks
    "<p>\U0001F600 emoji, e\u0301t\u00e9.</p>",
])
def test_density_counts_match_on_text_edge_cases(html):
    _assert_same_tables(_page(html))


def test_comment_removal_leaves_adjacent_text_nodes_counted_as_one_run():
    root = lxml.html.document_fromstring("<html><body><div>  ab<!--c-->cd  </div></body></html>")
    lxml.etree.strip_elements(root, lxml.etree.Comment, with_tail=False)
    div = root.find(".//div")
    table = DensityTable(root)
    index = table.index_of(div)
    assert table.text[index] == len("abcd")     # one run, stripped once at its two ends
    _assert_same_tables(root)


def test_namespaced_element_falls_back_to_the_python_walk():
    root = lxml.html.document_fromstring("<html><body><p>text</p></body></html>")
    lxml.etree.SubElement(root.find("body"), "{http://www.w3.org/2000/svg}svg").text = "drawing"
    assert fastwalk.compiled.density_counts(root, CONTAINER_TAGS) is None
    table = DensityTable(root)
    assert "{http://www.w3.org/2000/svg}svg" in table.tag_names
    _assert_same_tables(root)


def test_a_tree_100000_deep_is_walked_without_recursion():
    root = lxml.html.document_fromstring("<html><body><div></div></body></html>")
    chain = [root.find(".//div")]
    for _ in range(100_000):
        chain.append(lxml.etree.SubElement(chain[-1], "div"))
        chain[-1].tail = "。"
    chain[-1].text = "deepest text, here."
    counts = fastwalk.compiled.density_counts(root, CONTAINER_TAGS)
    elements, text, marks = counts[0], counts[2], counts[6]
    assert len(elements) == 100_000 + 3
    assert text[0] == len("deepest text, here.") + 100_000   # the text and every added div's tail
    assert marks[0] == 2 + 100_000
    del chain, counts, elements
    # freed here, deepest first (the list order), as extract frees them


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_density_counts_match_on_generated_documents(html):
    root = parse_html(html)
    if root is None:
        return
    every_node = len(list(root.iter()))
    assert fastwalk.compiled.count_nodes(root, 10**9) == every_node
    assert fastwalk.compiled.count_nodes(root, every_node - 1) == every_node   # stops past the limit
    _assert_same_rows(root)
    _assert_same_runs(root)
    _assert_same_tables(root)
    clean_tree(root, DEFAULT_OPTIONS)
    _assert_same_tables(root)
    _assert_same_texts(root)
    _assert_same_html(root)


@pytest.mark.parametrize("html", [
    '<div class="a&amp;b" id="">x</div><p class="">y</p><span hidden>z</span><b hidden="">w</b>',
    '<div CLASS="Upper" ID=Top STYLE="display:none">x</div><i aria-hidden="true" itemprop="articleBody">y</i>',
    '<p xml:lang="en" class="share comment">x</p><a href="/x" title="t">no judged attribute</a>',
    '<div class="x" class="y" id="first" id="second">duplicates: the first of each is kept</div>',
    '<svg><g class="icon"><text id="label">t</text></g></svg><math><mi style="color:red">x</mi></math>',
    '<div itemprop="author" class="by" id="a" itemprop="second">x</div><p class="&#x4e2d;&lt;">y</p>',
])
def test_cleaning_rows_match_on_attribute_edge_cases(html):
    _assert_same_rows(_page(html))


def test_cleaning_rows_hold_the_values_clean_tree_judges():
    root = lxml.html.document_fromstring(
        '<html><body><div class="share" id="bar" style="display:none">x</div><p>plain</p>'
        '<span hidden aria-hidden="true" itemprop="articleBody">y</span></body></html>')
    values, rows = fastwalk.compiled.cleaning_attributes(root)
    assert values == [
        ("div", "share", "bar", "display:none", False, None, None),
        ("span", None, None, None, True, "true", "articleBody"),
    ]
    hidden, named, reviewed, marked = rows.sort([4, 3], 2, 4, 8, 1)   # bits: 2 hidden, 4 named, 8 reviewed, 1 marked
    assert named == [root.find(".//div")] and hidden == marked == [root.find(".//span")] and reviewed == []
    hidden, named, reviewed, marked = rows.sort([8, 0], 2, 4, 8, 1)
    assert reviewed == [root.find(".//div")] and hidden == named == marked == []


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab\t\n\r\x00\x01\x0b\x1f\x7f\x85\ufffd\ufffe\uffff\uefbf\ud800"
                                         "\udfff\U0001ffff\u00ef\u00bf\u3000"), max_size=12))
@example("\ufffe")
@example("x\uffff")
@example("\uefbf\u00be")   # the bytes EF BF BE split over two characters? UTF-8 never does
def test_control_character_scan_matches_the_regex(text):
    data = text.encode("utf-8", "surrogatepass")
    assert fastwalk.compiled.holds_control_characters(data) == (_CONTROL_CHARS_RE.search(text) is not None)


def _paragraph_matches(text: str, wanted: int) -> int:
    found = 0
    for _ in serialized._PARAGRAPH_IN_LITERAL_RE.finditer(text):
        found += 1
        if found >= wanted:
            break
    return found


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["<p>", "<P ", "<p\u3000", "<p\u2028", "<pa", "<", "p", "P", ">", " ", "x", "\\",
                                 "\\u003cp>", "\\U003Cp\\", "\\u003cP\\u003cp>", "\\u003cpx", "\\u003c", "u003c",
                                 "中", "\U0001f600"]), max_size=14),
       st.integers(min_value=1, max_value=6))
@example(["\\u003cp\\", "u003cp>"], 5)  # a match's closing backslash starts no other match
@example(["<p", ">"], 1)
def test_paragraph_start_count_is_the_expressions(pieces, wanted):
    text = "".join(pieces)
    assert fastwalk.compiled.paragraph_starts(text, wanted) == _paragraph_matches(text, wanted)


@pytest.mark.parametrize("size", [1, 2, 3, 4095, 4096, 4097, 4098, 8192, 10000])
def test_control_character_scan_finds_one_anywhere_in_a_long_text(size):
    """The scan tests the bytes in chunks: a character at a chunk's edge, or the three bytes of
    U+FFFF split over two chunks, or at the very end, is found all the same."""
    for unit in ("中文 text\n\t", "ascii\r\n\t"):
        plain = (unit * size)[:size]
        assert not fastwalk.compiled.holds_control_characters(plain.encode("utf-8"))
        for bad in ("\x01", "\x1f", "\ufffe", "\uffff"):
            for position in {0, size // 2, size - 1, 4094, 4095, 4096}:
                if 0 <= position < size:
                    data = (plain[:position] + bad + plain[position:]).encode("utf-8")
                    assert fastwalk.compiled.holds_control_characters(data), (unit, bad, position)
    data = b"x" * 4094 + "\uffff".encode("utf-8") + b"x" * 10   # EF BF | BF across the 4096 edge
    assert data[4094:4097] == b"\xef\xbf\xbf" and fastwalk.compiled.holds_control_characters(data)


@pytest.mark.parametrize("html", [
    "<p>a\x0bb\x1cc\u2028d\x85e\u3000f\rg</p><p>line\none\n\n two </p><p> \u00a0 </p>",
    "<div>lead<p>para<b>bold</b>tail</p>after<br>break<ul><li>one<li>two</ul>end</div>",
    "<table><tr><td>c1<td>c2</tr></table><h1>head</h1><span>in<i>line</i></span>",
    "<p>中文，句子。</p><p>\U0001F600 e\u0301</p>",
])
def test_render_text_matches_on_text_edge_cases(html):
    root = _page(html)
    _assert_same_texts(root)


@pytest.mark.parametrize("html", [
    "<h1 class='t'>Title</h1><div>only <b>inline</b><br>text</div><div><p>block</p></div><section> </section>",
    "<p> </p><p>\u00a0\u3000</p><li><span> </span></li><figure><img src='/i.png'></figure><figcaption></figcaption>",
    "<p><a href='javascript:x'>j</a><a href='/rel' onclick='x' style='c'>r</a><img data-src='/lazy.png'></p>",
    "<div class='x'></div><span>s</span><font color=red>f</font><center>c<p>p</p></center>",
])
def test_render_html_matches_on_edge_cases(html):
    _assert_same_html(_page(html))


def test_render_text_leaves_trees_with_comments_to_the_python_walk():
    root = lxml.html.document_fromstring("<html><body><p>a<!-- c -->b</p></body></html>")
    assert fastwalk.compiled.render_text([root.find("body")], BLOCK_LEVEL_TAGS) is None


@pytest.mark.parametrize("html", [
    # hidden texts, one equal to a visible text; comments and their tails; links and their tails
    "<p>Posted 2018-09-02</p><script>Posted 2018-09-02</script><noscript>n</noscript><style>s</style>"
    "<p>a<!-- c -->after comment<a href=x>link</a>after link</p>",
    # foreign blocks (named, footer, aside, nav) skipped with their tails; a list named block
    "<div class='comments'>c 2018</div>tail<footer>f</footer>t2<aside>a</aside><nav>n</nav>"
    "<ul class='list'><li><a>1</a></li><li><a>2</a></li></ul><div id='main'>kept <b>bold</b></div>",
    # whitespace: XML-blank texts give no run, other whitespace is collapsed
    "<p> \t\r\n </p><p>\u00a0</p><p>a \u3000 b\n c</p>",
    # nested bodies and text straight under body
    "text under body<div><body>inner body text</body></div>",
])
def test_text_walks_match_on_edge_cases(html):
    _assert_same_runs(_page(html))


def test_the_compiled_walks_hide_the_same_elements_as_page_texts():
    assert page_texts._HIDDEN_PARENTS == {"script", "style", "noscript"}   # named in _fastwalk.pyx


def test_following_runs_leave_namespaced_elements_to_the_python_walk():
    root = _page("<h1>Head</h1><p>after</p>")
    lxml.etree.SubElement(root.find("body"), "{http://www.w3.org/2000/svg}svg").text = "drawing"
    heading = root.find(".//h1")
    assert fastwalk.compiled.following_runs(heading, 100, None, title._INVISIBLE_TAGS) is None
    assert title.following_texts(heading, 100) == ["after", "drawing"]


def test_link_free_runs_leave_namespaced_elements_to_the_python_walk():
    root = lxml.html.document_fromstring("<html><body><p>text</p></body></html>")
    lxml.etree.SubElement(root.find("body"), "{http://www.w3.org/2000/svg}svg").text = "drawing"
    assert fastwalk.compiled.link_free_runs(root.find("body"), 100, foreign_test(DEFAULT_OPTIONS)) is None
    assert page_texts.link_free_runs(root, 100, foreign_test(DEFAULT_OPTIONS)) == ["text", "drawing"]


def test_the_text_walks_take_the_foreign_block_tags_from_the_date_vocabulary(monkeypatch):
    """A tag added to dates.patterns.FOREIGN_BLOCK_TAGS is asked about by the C walks, as by the
    Python ones, once handed to them (dates.foreign does so at import)."""
    root = _page("<h1>Head</h1><p>kept</p><section>furniture</section><p>last</p>")
    body, heading = root.find("body"), root.find(".//h1")
    original = date_patterns.FOREIGN_BLOCK_TAGS
    monkeypatch.setattr(date_patterns, "FOREIGN_BLOCK_TAGS", original | {"section"})
    is_foreign = foreign_test(DEFAULT_OPTIONS)
    try:
        fastwalk.compiled.set_foreign_block_tags(date_patterns.FOREIGN_BLOCK_TAGS)
        assert fastwalk.compiled.link_free_runs(body, 100, is_foreign) == ["Head", "kept", "last"] == \
            page_texts._link_free_runs_in_python(body, 100, is_foreign)
        assert fastwalk.compiled.following_runs(heading, 100, is_foreign, title._INVISIBLE_TAGS) == ["kept", "last"] \
            == list(title.iter_following_texts(heading, 100, is_foreign))
    finally:
        fastwalk.compiled.set_foreign_block_tags(original)
    assert fastwalk.compiled.link_free_runs(body, 100, is_foreign) == ["Head", "kept", "furniture", "last"]


def test_attribute_searches_leave_out_the_root_itself_as_the_xpath_does():
    root = lxml.html.document_fromstring('<html class="page" id="top"><body class="b page"><p id="p">x</p></body></html>')
    assert fastwalk.compiled.attribute_values(root, ("class",))["class"].with_words(("page",)) == {"b page"}
    assert fastwalk.compiled.select_attributes(root, {"id": {"top", "p"}}, ()) == [root.find(".//p")]
    _assert_same_rows(root)
