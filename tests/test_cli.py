"""``python -m newscrawl.extract FILE|URL [--format json|text|html]`` in a subprocess.

The URL test talks only to an http.server this test starts on 127.0.0.1.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
CASE = REPO_ROOT / "tests" / "pages" / "en_jsonld_date"
ZH_CASE = REPO_ROOT / "tests" / "pages" / "zh_gbk_meta_charset"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run([sys.executable, "-m", "newscrawl.extract", *args], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def expected_of(case: Path) -> dict:
    return json.loads((case / "expected.json").read_text(encoding="utf-8"))


def assert_one_line_error(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_json_format():
    done = run_cli(str(CASE / "source.html"), "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    expected = expected_of(CASE)
    assert data["title"] == expected["title"]
    assert data["published"] == expected["published"]
    assert data["reason"] is None
    for snippet in expected["must_contain"]:
        assert snippet in data["text"]


def test_default_format_prints_the_article():
    done = run_cli(str(CASE / "source.html"))
    assert done.returncode == 0, done.stderr
    assert expected_of(CASE)["must_contain"][1] in done.stdout


def test_text_format_gbk_page():
    done = run_cli(str(ZH_CASE / "source.html"), "--format", "text")
    assert done.returncode == 0, done.stderr
    for snippet in expected_of(ZH_CASE)["must_contain"]:
        assert snippet in done.stdout
    assert "{" not in done.stdout.splitlines()[0]


def test_html_format():
    done = run_cli(str(CASE / "source.html"), "--format", "html")
    assert done.returncode == 0, done.stderr
    assert "<p>" in done.stdout or "<p " in done.stdout
    assert "<script" not in done.stdout
    assert expected_of(CASE)["must_contain"][2] in done.stdout


def test_missing_file_exits_2_with_one_line(tmp_path):
    done = run_cli(str(tmp_path / "no-such-page.html"))
    assert_one_line_error(done)
    assert done.stdout == ""
    assert "no-such-page.html" in done.stderr


@pytest.mark.parametrize("address", ["http://", "ftp://example.com/page.html", "gopher://127.0.0.1/x",
                                     "http://[::1/broken"])
def test_bad_url_exits_2_with_one_line(address):
    assert_one_line_error(run_cli(address, "--format", "json"))


def test_bad_format_is_rejected():
    done = run_cli(str(CASE / "source.html"), "--format", "pdf")
    assert done.returncode == 2


@pytest.fixture()
def page_server():
    handler = functools.partial(_QuietHandler, directory=str(REPO_ROOT / "tests" / "pages"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass


def test_url_on_loopback_server(page_server):
    done = run_cli(f"{page_server}/en_jsonld_date/source.html", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["title"] == expected_of(CASE)["title"]
    assert data["url"] == f"{page_server}/en_jsonld_date/source.html"


def test_gbk_url_on_loopback_server(page_server):
    done = run_cli(f"{page_server}/zh_gbk_meta_charset/source.html", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["title"] == expected_of(ZH_CASE)["title"]


def test_missing_page_on_loopback_server(page_server):
    assert_one_line_error(run_cli(f"{page_server}/no-such-case/source.html"))



COMMENTS_CASE = REPO_ROOT / "tests" / "pages" / "en_blog_reader_comments"
COMMENT_LINE = "How many tonnes of stone did the whole stretch take, roughly?"



@pytest.mark.parametrize("flag, kept", [((), False), (("--comments",), True)])
def test_comments_flag(flag, kept):
    done = run_cli(str(COMMENTS_CASE / "source.html"), "--format", "text", *flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(COMMENT_LINE) is kept
    assert "Leave a Reply" not in done.stdout
    assert "The wall along the lower field had been slumping" in done.stdout
