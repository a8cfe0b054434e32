"""Class/id/itemprop values read once per tree; chosen attributes returned in document order."""
from newscrawl.extract.dom import parse_html
from newscrawl.extract.named_attributes import AttributeTest, select_attributes, words_in_values


def tree(body: str):
    return parse_html(f"<html><head><title>t</title></head><body>{body}</body></html>")


def test_words_found_in_values_case_sensitively():
    root = tree('<div class="post-date">a</div><div class="PostDate">b</div><div id="pubtime">c</div>'
                '<div class="menu">d</div>')
    assert words_in_values(root, "class", ["date", "Date"]) == {"post-date", "PostDate"}
    assert words_in_values(root, "class", ["date"]) == {"post-date"}
    assert words_in_values(root, "id", ["pub"]) == {"pubtime"}
    assert words_in_values(root, "class", ["nothing"]) == set()


def test_selection_in_document_order_by_position_and_by_membership():
    few = tree('<p id="x">1</p><span class="date">2</span><i itemprop="author">3</i>')
    chosen = {"class": {"date"}, "id": {"x"}, "itemprop": ("author",)}
    assert [element.text for element in select_attributes(few, chosen)] == ["1", "2", "3"]
    many = tree("".join(f'<p class="{"date" if i % 2 else "other"}" id="n{i}">{i}</p>' for i in range(10)))
    elements = select_attributes(many, {"class": {"date"}, "id": {"n2", "n4", "n5"}})
    # one per attribute: "5" holds two chosen ones
    assert [element.text for element in elements] == ["1", "2", "3", "4", "5", "5", "7", "9"]


def test_attribute_tests_join_the_selection():
    root = tree('<a rel="author" href="/a">Ann</a><span class="byline">By Bob</span><b rel="author">no</b>'
                '<a rel="nofollow author-x">Cy</a><a rel="me\tauthor">tab</a><time pubdate>t</time>')
    elements = select_attributes(root, {"class": {"byline"}}, (AttributeTest("a", "rel", "author"),))
    assert [element.text for element in elements] == ["Ann", "By Bob"]   # a token between spaces only
    present = select_attributes(root, {}, (AttributeTest("time", "pubdate"), AttributeTest(None, "rel")))
    assert [element.text for element in present] == ["Ann", "no", "Cy", "tab", "t"]
    assert select_attributes(root, {"class": set()}) == []


def test_values_holding_the_separator_characters_still_match_whole_values():
    odd = "".join(f'<p class="x{chr(0xE000 + i)} date">{i}</p>' for i in range(4))
    root = tree(odd + "".join(f'<p class="date">{i}</p>' for i in range(4, 9)))
    elements = select_attributes(root, {"class": {"date"}})
    assert [element.text for element in elements] == ["4", "5", "6", "7", "8"]
