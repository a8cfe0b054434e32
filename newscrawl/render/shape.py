"""Does a page look script-built? Signals read from the raw HTML, before scripts are stripped."""
from __future__ import annotations

import re
from dataclasses import dataclass

# An opening <script> tag with its attributes (bytes pattern, the raw page is not decoded for this).
SCRIPT_TAG_RE = re.compile(rb"<script\b([^>]*)>", re.I)
# A script that only carries data we read (JSON-LD) is not page-building code.
DATA_SCRIPT_TYPE_RE = re.compile(rb"""type\s*=\s*["']?application/(?:ld\+)?json""", re.I)
# The mount point of a client-side app: React/CRA (#root, #app), Next.js (#__next), Nuxt (#__nuxt),
# Gatsby (#___gatsby), Angular (<app-root>).
APP_ROOT_RE = re.compile(
    rb"""<div\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte)["'\s>]|<app-root\b""", re.I)


@dataclass(frozen=True)
class ScriptBuiltOptions:
    """When a page with no article is worth rendering (render: auto). Chosen for this project, 2026-11:
    app shells (React/Next/Vue) hold under ~300 visible chars; a plain article or list page holds thousands."""

    max_text_chars: int = 1000  # visible body text, whitespace collapsed, chars; at most this is "little text"
    min_scripts: int = 5  # non-JSON <script> elements; at least this many is "many scripts"


@dataclass(frozen=True)
class PageShape:
    """The raw page's script signals (recorded by RenderMiddleware before StripNoiseMiddleware)."""

    scripts: int
    app_root: bool

    def is_script_built(self, text_chars: int, options: ScriptBuiltOptions) -> bool:
        """Little text, plus an app root element or many scripts."""
        if text_chars > options.max_text_chars:
            return False
        return self.app_root or self.scripts >= options.min_scripts


def read_page_shape(body: bytes) -> PageShape:
    scripts = sum(1 for m in SCRIPT_TAG_RE.finditer(body) if not DATA_SCRIPT_TYPE_RE.search(m.group(1)))
    return PageShape(scripts=scripts, app_root=APP_ROOT_RE.search(body) is not None)


def visible_text_chars(texts: list[str]) -> int:
    """Characters of the given text nodes with runs of whitespace counted as one space."""
    return len(" ".join(" ".join(texts).split()))
