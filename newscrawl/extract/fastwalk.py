"""The compiled walks (``_fastwalk``), when they are built from the current source; else None.

``_fastwalk.pyx`` repeats, in C over libxml2's nodes, the walks that the package also has in
Python and that cross every element or text node (the density counts and scores, the cleaning's
attribute reads, the class/id word search and selections, the date and title text walks, the
text and HTML output, the verdict's counts): the same results, with Python strings and element
proxies made only for what is returned (extract() ~30% less CPU, README "Accuracy and speed").
The Python walks stay the reference and the fallback: a checkout that was not built (or was
built from an older ``.pyx``) runs them, as does any walk meeting a tree it leaves to Python
(namespaced elements, entity references). ``NEWSCRAWL_PURE_PYTHON=1`` in the environment turns
the compiled walks off.
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
