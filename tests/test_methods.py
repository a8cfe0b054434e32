"""Line blocks, site templates, content blocks and the evaluation command, on pages written here."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from newscrawl.extract import extract
from newscrawl.extract.contentblocks import BlockStatsReader, find_noise_blocks
from newscrawl.extract.dom import parse_html
from newscrawl.extract.lineblock import article_lines, block_lengths
from newscrawl.extract.options import ExtractOptions
from newscrawl.extract.template import SiteTemplate, group_by_url, learn_template, url_similarity
from newscrawl.crawl.templates import SiteTemplates, TemplateFileStore

REPO = Path(__file__).resolve().parent.parent
OPTIONS = ExtractOptions()

TOPICS = ["harbour", "library", "railway", "orchard", "museum", "bridge", "market", "school"]
NOTE = ("Editor's note: this newsletter is sent to every reader of the Valley Post each morning, "
        "and you can change your delivery settings on the account page at any time.")


def paragraphs(n: int, topic: str) -> list[str]:
    return [f"Paragraph {k} about the {topic}: the council met on Tuesday, and residents said the plan for the "
            f"{topic} would change how the town works, while officials promised a review of costs by spring."
            for k in range(1, 6 + n % 3)]


def page_v1(n: int) -> str:
    """The first layout of a site: the story, then a prose-like newsletter note."""
    topic = TOPICS[n % len(TOPICS)]
    body = "\n".join(f"<p>{p}</p>" for p in paragraphs(n, topic))
    return f"""<html><head><title>The {topic} story {n} - Valley Post</title></head>
<body>
<div id="masthead"><a href="/">Valley Post</a></div>
<ul class="menu"><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/arts">Arts</a></li></ul>
<div class="page">
<div class="story-head">
<h1>The {topic} story {n}</h1>
<p class="byline">By Staff, 12 May 2024</p>
</div>
<div class="story-text">
{body}
</div>
<div class="story-extra">
<p>{NOTE}</p>
</div>
<div class="most-read"><h3>Most read</h3>
<ul><li><a href="/a/{n + 1}">Another story {n + 1}</a></li><li><a href="/a/{n + 2}">Another story {n + 2}</a></li></ul>
</div>
</div>
<div class="bottom">Valley Post, 1 Main Street</div>
</body></html>"""


def page_v2(n: int) -> str:
    """The same site after a redesign: other markup, same kind of newsletter note."""
    topic = TOPICS[n % len(TOPICS)]
    body = "\n".join(f'<p class="para">{p}</p>' for p in paragraphs(n, topic))
    return f"""<!DOCTYPE html><html><head><title>{topic} story {n} | Valley Post</title></head>
<body class="v2">
<header class="site-header"><a class="logo" href="/">VP</a></header>
<section class="content-area">
<article class="post">
<h1 class="post-title">The {topic} story {n}</h1>
<div class="post-meta">12 May 2024</div>
<section class="post-body">
{body}
</section>
<aside class="signup-box">
<p>{NOTE}</p>
</aside>
</article>
<section class="more"><h4>More from the Post</h4><a href="/b/{n}">Read on {n}</a></section>
</section>
<footer class="site-foot">All rights reserved</footer>
</body></html>"""


def url_of(n: int) -> str:
    return f"https://valleypost.example/2024/05/{n:02d}/the-story-number-{n}"


# --- line blocks -----------------------------------------------------------------

def test_block_lengths_are_sliding_sums():
    assert block_lengths([1, 2, 3, 4], 3) == [6, 9]
    assert block_lengths([5], 3) == [5]


def test_lineblock_finds_the_story_and_not_the_menu():
    html = page_v1(1)
    text = extract(html, algorithm="lineblock").text
    assert "Paragraph 1 about the library" in text
    assert "Paragraph 6 about the library" in text
    assert "Sport" not in text.split("\n")
    assert extract(html, algorithm="lineblock").method == "lineblock"


def test_lineblock_threshold_depends_on_the_script():
    chinese = "<html><body><div>首页</div>\n\n\n\n<p>" + "江城今天召开会议，讨论了交通规划。" * 6 + "</p>\n</body></html>"
    assert article_lines(chinese, OPTIONS)          # 102 chars: above the CJK threshold (86)
    assert article_lines(chinese, ExtractOptions(lineblock_threshold_cjk=186)) == []   # not the English one
    english = "<html><body><p>" + "A short line. " * 9 + "</p></body></html>"   # ~110 chars, below 186
    assert article_lines(english, OPTIONS) == []
    assert article_lines(english, ExtractOptions(lineblock_threshold=50))


def test_lineblock_on_a_minified_page_without_newlines():
    html = page_v1(2).replace("\n", "")
    assert "\n" not in html
    lines = article_lines(html, OPTIONS)
    assert any("Paragraph 1 about the railway" in line for line in lines)
    assert not any(line == "Valley Post, 1 Main Street" for line in lines)


def test_unknown_algorithm_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="'magic'"):
        extract(page_v1(1), algorithm="magic")


def test_density_stays_the_default_method():
    assert extract(page_v1(1)).method == "density"


# --- site templates ----------------------------------------------------------------

def test_url_similarity_and_groups():
    assert url_similarity(url_of(1), url_of(2)) > 0.6     # "https://valleypost.example/2024/05/0" of 56
    assert url_similarity("https://a.example/news/1", "https://b.example/video/zz") < 0.5
    groups = group_by_url([url_of(1), "https://valleypost.example/video/clip-7", url_of(2), None], OPTIONS)
    assert groups == [[0, 2], [1], [3]]


def test_learn_template_markers_and_json_round_trip():
    template = learn_template([(url_of(n), page_v1(n)) for n in (1, 2, 3)])
    assert template is not None
    assert template.first_markers and template.last_markers
    assert '<div class="story-extra">' in template.last_markers
    assert SiteTemplate.from_json(template.to_json()) == template
    with pytest.raises(ValueError, match="first_markers"):
        SiteTemplate.from_dict({"version": 1, "first_markers": [], "last_markers": ["x"]})


def test_template_cuts_boilerplate_the_density_core_keeps():
    template = learn_template([(url_of(n), page_v1(n)) for n in (1, 2, 3)])
    page = page_v1(5)
    alone = extract(page, url_of(5))
    assisted = extract(page, url_of(5), template=template)
    assert "Editor's note" in alone.text            # a prose sibling of the story
    assert assisted.method == "template-cut"
    assert "Editor's note" not in assisted.text
    assert "Paragraph 1 about the bridge" in assisted.text
    assert "Paragraph 5 about the bridge" in assisted.text


def test_template_cut_keeps_an_opening_paragraph_before_the_first_marker():
    """The first marker falls after this story's intro (intros vary per page): the intro stays,
    the short furniture before the marker goes."""
    template = learn_template([(url_of(n), page_v1(n)) for n in (1, 2, 3)])
    intro = ("The council met on Monday evening and, after a long debate that ran past midnight, "
             "agreed on a plan for the new crossing.")
    opening = f'<p class="intro">{intro}</p>\n<p class="credit">Picture from our archive</p>\n'
    page = page_v1(6).replace('<div class="story-text">', opening + '<div class="story-text">')
    assert "Picture from our archive" in extract(page, url_of(6)).text
    assisted = extract(page, url_of(6), template=template)
    assert assisted.method == "template-cut"
    assert assisted.text.startswith(intro)
    assert "Picture from our archive" not in assisted.text and "By Staff" not in assisted.text


def test_template_of_another_layout_misses():
    template = learn_template([(url_of(n), page_v1(n)) for n in (1, 2, 3)])
    result = extract(page_v2(5), url_of(5), template=template)
    assert result.method == "template-miss"
    assert "Paragraph 1 about the bridge" in result.text


def test_template_learned_from_minified_pages():
    pages = [(url_of(n), page_v1(n).replace("\n", "")) for n in (1, 2, 3)]
    template = learn_template(pages)
    assert template is not None
    result = extract(page_v1(6).replace("\n", ""), url_of(6), template=template)
    assert result.method == "template-cut"
    assert "Paragraph 2 about the market" in result.text and "Editor's note" not in result.text


def test_no_template_from_unrelated_pages():
    assert learn_template([(None, "<html><body><p>one</p></body></html>")]) is None


# --- templates during a crawl: learning, a redesign, relearning ------------------------

class Stats:
    def __init__(self):
        self.values: dict[str, int] = {}

    def inc_value(self, key, value=1):
        self.values[key] = self.values.get(key, 0) + value


def crawl_site(templates: SiteTemplates, pages: list[tuple[int, str]]) -> list:
    results = []
    for n, html in pages:
        url = url_of(n)
        template = templates.template_for("valley", url)
        result = extract(html, url, template=template) if template else extract(html, url)
        templates.observe("valley", url, html, None, result.method)
        results.append(result)
    return results


def test_crawl_relearns_after_a_redesign_and_accuracy_recovers(tmp_path):
    stats = Stats()
    templates = SiteTemplates(TemplateFileStore(tmp_path), stats)
    before = crawl_site(templates, [(n, page_v1(n)) for n in range(1, 9)])
    after = crawl_site(templates, [(n, page_v2(n)) for n in range(9, 21)])
    counted = stats.values
    assert counted["newscrawl/templates/learned"] == 1
    assert counted["newscrawl/templates/relearns"] == 1
    assert counted["newscrawl/templates/hits"] >= 10
    assert counted["newscrawl/templates/misses"] >= 2
    assert counted["newscrawl/site/valley/templates/relearns"] == 1
    assert all("Editor's note" not in r.text for r in before[3:])      # template used after 3 pages
    assert all(r.method == "template-cut" for r in after[-6:])           # relearned on the new layout
    assert all("Editor's note" not in r.text and "Paragraph 1" in r.text for r in after[-6:])


def test_templates_persist_between_runs(tmp_path):
    first = SiteTemplates(TemplateFileStore(tmp_path))
    crawl_site(first, [(n, page_v1(n)) for n in range(1, 5)])
    first.save()
    saved = json.loads((tmp_path / "valley.json").read_text(encoding="utf-8"))
    assert saved["site"] == "valley" and saved["groups"][0]["template"]["first_markers"]
    second = SiteTemplates(TemplateFileStore(tmp_path))
    assert second.template_for("valley", url_of(30)) is not None


def test_unreadable_store_is_ignored(tmp_path):
    (tmp_path / "valley.json").write_text("{not json", encoding="utf-8")
    assert SiteTemplates(TemplateFileStore(tmp_path)).template_for("valley", url_of(1)) is None


# --- content blocks ----------------------------------------------------------------

def test_content_blocks_remove_navigation_and_forms():
    html = """<html><body>
<div class="nav"><a href="/1">Politics</a> <a href="/2">Business</a> <a href="/3">Science</a></div>
<div class="login"><span>Name</span><input type="text" name="user"><textarea></textarea></div>
<div class="story"><h1>Title</h1><p>""" + "The river rose overnight, and the town prepared. " * 8 + """</p></div>
</body></html>"""
    root = parse_html(html)
    noise = find_noise_blocks(root, OPTIONS)
    assert [e.get("class") for e in noise] == ["nav", "login"]
    result = extract(html, content_blocks=True)
    assert "The river rose overnight" in result.text and "Politics" not in result.text



def test_block_stats_reader_reads_inner_blocks_from_the_outer_counts():
    html = """<html><body><ul class="list"><li class="list-item">Intro text, plain. <a href="/1">One</a>
<ul class="list"><li><a href="/2">Two</a> and more.</li></ul></li></ul><p>Outside.</p></body></html>"""
    root = parse_html(html)
    blocks = list(root.iter("ul", "li"))
    fresh = [BlockStatsReader()(block) for block in blocks]
    reader = BlockStatsReader()
    assert [reader(block) for block in blocks] == fresh   # the first counts all of them
    assert [reader(block) for block in reversed(blocks)] == fresh[::-1]
    assert fresh[0].link_tags == 2 and fresh[-1].link_tags == 1


# --- command lines ---------------------------------------------------------------------

def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_cli_learns_a_template_and_uses_it(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    for n in (1, 2, 3):
        (folder / f"p{n}.html").write_text(page_v1(n), encoding="utf-8")
    page = tmp_path / "new.html"
    page.write_text(page_v1(7), encoding="utf-8")
    out = tmp_path / "template.json"
    learned = run_cli("-m", "newscrawl.extract", "--learn-template", str(folder), "-o", str(out))
    assert learned.returncode == 0, learned.stderr
    used = run_cli("-m", "newscrawl.extract", str(page), "--template", str(out))
    assert used.returncode == 0, used.stderr
    data = json.loads(used.stdout)
    assert data["method"] == "template-cut" and "Editor's note" not in data["text"]


def test_cli_template_errors_exit_2(tmp_path):
    page = tmp_path / "p.html"
    page.write_text(page_v1(1), encoding="utf-8")
    missing = run_cli("-m", "newscrawl.extract", str(page), "--template", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "cannot read template" in missing.stderr
    empty = run_cli("-m", "newscrawl.extract", "--learn-template", str(tmp_path / "nothing"))
    assert empty.returncode == 2 and "not a folder" in empty.stderr


def test_evaluate_without_shared_gives_a_clear_error(tmp_path):
    result = run_cli("-m", "newscrawl.extract.evaluate", "--data", str(tmp_path), "--shared", str(tmp_path / "none"))
    assert result.returncode == 2
    assert "no scorer at" in result.stderr


SHARED = REPO.parent / "shared"


@pytest.mark.skipif(not (SHARED / "eval" / "score.py").is_file(), reason="../shared/eval is not beside the repo")
def test_evaluate_runs_on_a_shared_dataset(tmp_path):
    pytest.importorskip("rapidfuzz", reason="the shared scorer's LCS needs rapidfuzz (benchmarks/requirements.txt)")
    out = tmp_path / "rows.json"
    result = run_cli("-m", "newscrawl.extract.evaluate", "--data", str(SHARED / "eval" / "cx_zh"), "--limit", "6",
                     "--algorithm", "all", "--json-out", str(out))
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert {r["algorithm"] for r in rows} == {"density", "lineblock", "contentblocks", "template"}
    assert all(0.0 <= r["lcs_p"] <= 1.0 and r["pages"] == 6 for r in rows)


def test_pipeline_uses_and_saves_templates(tmp_path):
    from scrapy.utils.test import get_crawler

    from newscrawl.items import PageItem
    from newscrawl.crawl.pipelines import ExtractPipeline

    crawler = get_crawler(settings_dict={"NEWSCRAWL_TEMPLATES_ENABLED": True, "NEWSCRAWL_EXTRACT_WORKERS": 0,
                                         "NEWSCRAWL_TEMPLATES_DIR": str(tmp_path)})
    crawler.stats.open_spider()
    pipeline = ExtractPipeline.from_crawler(crawler)
    pipeline.open_spider()
    fields = {f for f in PageItem.__dataclass_fields__}
    for n in range(1, 7):
        values = {"url": url_of(n), "site": "valley", "body": page_v1(n).encode(), "encoding": "utf-8",
                  "fetched_at": "2024-05-20T00:00:00+00:00", "discovered_via": "link", "url_kind": "article"}
        item = PageItem(**{k: v for k, v in values.items() if k in fields})
        article = pipeline.process_item(item)
        assert "Paragraph 1" in article.text
    pipeline.close_spider()
    stats = crawler.stats.get_stats()
    assert stats["newscrawl/templates/learned"] == 1 and stats["newscrawl/templates/hits"] == 3
    assert "Editor's note" not in article.text
    assert (tmp_path / "valley.json").is_file()


def test_lineblock_never_raises_on_control_characters():
    html = "<html><body><p>" + "Words\x01 and \x0bmore words, with\ufffe commas. " * 20 + "</p></body></html>"
    result = extract(html, algorithm="lineblock")
    assert "Words and more words" in result.text
