"""What ``python -m newscrawl.extract`` prints: quiet on a closed pipe, a reason when there is no
text, laid-out HTML (newscrawl/extract/cli_output.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest

from newscrawl.extract import extract
from newscrawl.extract.cli_output import EXIT_NOTHING_TO_PRINT, EXIT_READER_GONE, indented_html

REPO_ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((REPO_ROOT / "tests" / "pages").glob("*/source.html"))
# A long article: its JSON, text and HTML are each far beyond a pipe's buffer (64 KiB on Linux).
LONG_PAGE = ("<html><head><title>A long report</title></head><body><article><h1>A long report</h1>"
             + "<p>The council met again on Tuesday evening, and the budget was read out line by line. </p>\n" * 2000
             + "</article></body></html>")


def _cli(*args: str, **popen) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    return subprocess.Popen([sys.executable, "-m", "newscrawl.extract", *args], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


@pytest.mark.parametrize("output_format", ["json", "text", "html"])
def test_a_reader_that_closes_the_pipe_gets_no_traceback(tmp_path, output_format):
    """``… | head``: the reader leaves after a few bytes; the command stops quietly with 141."""
    page = tmp_path / "long.html"
    page.write_text(LONG_PAGE, encoding="utf-8")
    process = _cli(str(page), "--format", output_format)
    assert len(process.stdout.read(100)) == 100
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == EXIT_READER_GONE == 141
    assert stderr == ""


@pytest.mark.parametrize("content, why", [(bytes(range(256)) * 40, "the input is not HTML (binary or plain data)"),
                                          (b"", "the input is empty")])
@pytest.mark.parametrize("output_format", ["text", "html"])
def test_no_text_to_print_gives_the_reason_on_stderr_and_exit_1(tmp_path, output_format, content, why):
    data = tmp_path / "picture.bin"
    data.write_bytes(content)
    process = _cli(str(data), "--format", output_format)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == EXIT_NOTHING_TO_PRINT == 1
    assert stdout == b""
    assert stderr.decode() == f"no text in {data}: {why}\n"


def test_json_of_a_page_without_text_still_exits_0_and_says_why(tmp_path):
    data = tmp_path / "picture.bin"
    data.write_bytes(bytes(range(256)) * 40)
    process = _cli(str(data))
    stdout, stderr = process.communicate(timeout=120)
    assert (process.returncode, stderr) == (0, b"")
    assert b'"reason": "not_html"' in stdout


def test_html_is_laid_out_one_block_a_line_indented_by_depth():
    messy = ("<div>\n\n   \n      <p>First   paragraph,\n   wrapped\tby the page.</p>\n\n\n"
             "   <ul>\n\n <li>one</li>   <li>two <b>bold</b></li></ul>  loose text <a href='/x'>link</a>\n\n"
             "<pre>  kept\n\n  as is </pre><p>line<br>break</p>\n  \n</div>")
    assert indented_html(messy) == (
        "<div>\n"
        "  <p>First paragraph, wrapped by the page.</p>\n"
        "  <ul>\n"
        "    <li>one</li>\n"
        "    <li>two <b>bold</b></li>\n"
        "  </ul>\n"
        "  loose text <a href=\"/x\">link</a>\n"
        "  <pre>  kept\n\n  as is </pre>\n"
        "  <p>line<br>break</p>\n"
        "</div>")


@pytest.mark.parametrize("page", PAGES, ids=[p.parent.name for p in PAGES])
def test_laid_out_html_shows_the_same_content_without_blank_lines(page):
    html = extract(page.read_bytes()).html
    laid_out = indented_html(html)
    if not html:   # a page that is no article (a list page): nothing to lay out
        assert laid_out == ""
        return
    lines = laid_out.splitlines()
    assert all(line.strip() for line in lines), laid_out          # no blank lines
    assert all((len(line) - len(line.lstrip(" "))) % 2 == 0 for line in lines if "<pre" not in html)
    before, after = lxml.html.fragment_fromstring(html), lxml.html.fragment_fromstring(laid_out)
    assert [e.tag for e in before.iter()] == [e.tag for e in after.iter()]
    assert "".join(before.text_content().split()) == "".join(after.text_content().split())


def test_the_cli_prints_laid_out_html():
    page = REPO_ROOT / "tests" / "pages" / "en_split_ads" / "source.html"
    process = _cli(str(page), "--format", "html")
    stdout, stderr = process.communicate(timeout=120)
    assert (process.returncode, stderr) == (0, b"")
    assert stdout.decode() == indented_html(extract(page.read_bytes()).html) + "\n"
    assert "\n\n" not in stdout.decode() and stdout.startswith(b"<div>\n  <p>")
