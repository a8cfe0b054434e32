"""newscrawl's ``extract`` with extractor options from the environment, for
``benchmarks/accuracy.py --option NAME=VALUE`` (the scorers call ``module:function``).

``NEWSCRAWL_BENCH_OPTIONS`` holds the options as a JSON object; an unknown name raises
TypeError on the first page, as ``extract`` does.
"""
from __future__ import annotations

import json
import os

from common import OPTIONS_VARIABLE
from newscrawl.extract import extract as _extract

_OPTIONS = json.loads(os.environ.get(OPTIONS_VARIABLE) or "{}")


def extract(html, url=None):
    return _extract(html, url, **_OPTIONS)
