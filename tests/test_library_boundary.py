"""The extractor is a library of its own: importing and using it loads no Scrapy or Twisted."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
import newscrawl.extract
from newscrawl.extract import extract
extract("<html><body><article><h1>T</h1><p>" + "Words in a sentence, and more. " * 30 + "</p></article></body></html>",
        url="https://example.com/a")
extract(b"\\x89PNG\\r\\n\\x1a\\n")
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('scrapy', 'twisted', 'scrapy_playwright'))))
"""


def test_extract_does_not_import_scrapy_or_twisted():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
