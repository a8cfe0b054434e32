"""The compiled walks (``_fastwalk``), when they are built from the current source; else None.

``_fastwalk.pyx`` repeats, in C over libxml2's nodes, walks that the package also has in
Python (density.DensityTable's counts): same results, ~10x less CPU. The Python walks stay the
reference and the fallback: a checkout that was not built (or was built from an older
``.pyx``) runs them. ``NEWSCRAWL_PURE_PYTHON=1`` in the environment turns the compiled walks off.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import warnings

from .patterns import PUNCTUATION

_SOURCE = pathlib.Path(__file__).with_name("_fastwalk.pyx")


def _load():
    if os.environ.get("NEWSCRAWL_PURE_PYTHON") == "1":
        return None
    try:
        from . import _fastwalk
    except ModuleNotFoundError:
        return None
    except ImportError as error:   # built, but not loadable here (another lxml, say)
        warnings.warn(f"the compiled walks do not load ({error}): using the pure-Python walks",
                      RuntimeWarning, stacklevel=2)
        return None
    if _SOURCE.exists() and hashlib.sha256(_SOURCE.read_bytes()).hexdigest() != _fastwalk.SOURCE_DIGEST:
        warnings.warn(f"{_SOURCE.name} changed since it was compiled: using the pure-Python walks "
                      "(rebuild with: python3 -m pip install -e .)", RuntimeWarning, stacklevel=2)
        return None
    _fastwalk.set_punctuation(PUNCTUATION)
    return _fastwalk


compiled = _load()
