"""Command line: ``python -m newscrawl.extract FILE|URL [--format json|text|html] [--template T.json] [--comments]``.

``python -m newscrawl.extract --learn-template DIR [-o template.json]`` learns a
site template from the pages of a folder (printed, or written to -o); exit 1
when the pages share no markers.

Exit codes: 0 on success (also for a page that is not an article: the JSON says
why), 1 when ``--format text`` or ``html`` has no text to print (the reason is on stderr),
2 when the input cannot be read (missing file, bad URL, any fetch failure: time limit,
malformed response, redirect off http(s), private address; see fetch.py), 141 when the
reader of stdout closed the pipe (``| head``), as a shell reports a process stopped by SIGPIPE.
"""
from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone

from . import extract
from .cli_output import exit_quietly_on_closed_pipe, print_result
from .fetch import FETCH_TIMEOUT_SECONDS, FetchError, fetch_page
from .templatefiles import TemplateFileError, learn_from_folder, load_template


class InputError(Exception):
    """The page could not be read; the message names what and where."""


def read_source(source: str, timeout: float = FETCH_TIMEOUT_SECONDS) -> tuple[bytes, str | None, str | None]:
    """(page bytes, declared charset, page URL) of a file path or an http(s) URL (after redirects)."""
    if "://" in source:
        try:
            page = fetch_page(source, timeout)
        except FetchError as error:
            raise InputError(str(error)) from None
        return page.body, page.charset, page.url
    try:
        with open(source, "rb") as handle:
            return handle.read(), None, None
    except OSError as error:
        raise InputError(f"cannot read {source}: {error.strerror or error}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.extract",
                                     description="Extract the article of a news page.")
    parser.add_argument("source", nargs="?", help="an HTML file or an http(s) URL")
    parser.add_argument("--format", choices=("json", "text", "html"), default="json")
    parser.add_argument("--url", help="the page's URL, to make links absolute (files only)")
    parser.add_argument("--encoding", help="charset of the file, when the page does not declare it")
    parser.add_argument("--timeout", type=_seconds, default=FETCH_TIMEOUT_SECONDS,
                        help=f"seconds for the whole fetch of a URL, redirects included (default {FETCH_TIMEOUT_SECONDS:g})")
    parser.add_argument("--template", help="a site template (JSON) to use on the page")
    parser.add_argument("--comments", action="store_true",
                        help="append the prose of the page's reader comments after the article")
    parser.add_argument("--learn-template", metavar="DIR", help="learn a site template from a folder of pages")
    parser.add_argument("-o", "--output", help="with --learn-template: write the template to this file")
    args = parser.parse_args(argv)
    if args.learn_template:
        return learn_command(args.learn_template, args.output)
    if not args.source:
        parser.error("a FILE or URL is needed (or --learn-template DIR)")
    try:
        body, charset, url = read_source(args.source, args.timeout)
        template = load_template(args.template) if args.template else None
    except (InputError, TemplateFileError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    result = extract(body, args.url or url, encoding=args.encoding or charset,
                     fetched_at=datetime.now(timezone.utc), template=template,
                     include_comments=args.comments)
    return print_result(result, args.format, args.source)


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {value!r}")
    return seconds


def learn_command(folder: str, output: str | None) -> int:
    """Learn a template from a folder: 0 and the JSON, 1 when none, 2 on unreadable input."""
    try:
        template = learn_from_folder(folder)
    except TemplateFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if template is None:
        print(f"no template: the pages in {folder} share no markers around their text", file=sys.stderr)
        return 1
    if output:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(template.to_json() + "\n")
        except OSError as error:
            print(f"error: cannot write {output}: {error.strerror or error}", file=sys.stderr)
            return 2
        print(f"template learned from {template.pages} pages: {output}", file=sys.stderr)
    else:
        print(template.to_json())
    return 0


if __name__ == "__main__":
    sys.exit(exit_quietly_on_closed_pipe(main))
