"""The compiled walks (``_fastwalk``), when they are built from the current source; else None.

``_fastwalk.pyx`` repeats, in C over libxml2's nodes, the walks that the package also has in
Python and that cross every element or text node (the density counts and scores, the cleaning's
attribute reads, the class/id word search and selections, the date and title text walks, the
text and HTML output, the verdict's counts): the same results, with Python strings and element
proxies made only for what is returned (extract() ~30% less CPU, README "Accuracy and speed").
The module also holds three scans of text the crawl makes for every page, each equal to the
Python code it stands in for: the text fingerprint in one pass (``text_minhash``, for
``newscrawl/crawl/fingerprint.py``), the paragraph starts of a script (``paragraph_starts``, for
``serialized.may_carry_article``) and the noise cut's runs of ordinary markup (``run_end``, for
``newscrawl/crawl/noise_cut.py``).
The Python walks stay the reference and the fallback: a checkout that was not built (or was
built from an older ``.pyx``) runs them, as does any walk meeting a tree it leaves to Python
(namespaced elements, entity references). ``NEWSCRAWL_PURE_PYTHON=1`` in the environment turns
the compiled walks off.

Loading never fails: a module that is missing, does not load (a broken or foreign ``.so``, a
setuptools loader stub in an egg, another lxml) or fails the checks below leaves ``compiled``
None, and ``report`` says which and why in one sentence. Nothing is printed or warned here: the
crawl logs ``report`` once when it opens (pipelines.py), a library user may read it.
"""
from __future__ import annotations

import hashlib
import importlib
import logging
import os
import pathlib
from dataclasses import dataclass
from types import ModuleType

from .patterns import PUNCTUATION

_MODULE = f"{__package__}._fastwalk"
_SOURCE = pathlib.Path(__file__).with_name("_fastwalk.pyx")
# What the Python side calls on the module: one built from another .pyx may lack some of them.
_FUNCTIONS = ("set_punctuation", "density_counts", "cleaning_attributes", "holds_control_characters",
              "render_text", "visible_runs", "link_free_runs", "count_nodes", "select_attributes",
              "render_plan", "empty_blocks", "attribute_values", "body_texts_starting", "link_counts",
              "tagged_elements", "attribute_rows", "collapsed_texts", "following_runs", "preceding_runs",
              "subtree_counts", "set_foreign_block_tags", "text_minhash",
              "paragraph_starts", "run_end")
_PURE_PYTHON = "using the pure-Python walks (same results, slower)"


@dataclass(frozen=True)
class LoadReport:
    """How the walks were chosen: ``kind`` is "compiled", "off" (NEWSCRAWL_PURE_PYTHON=1),
    "absent" (never built, e.g. no C compiler) or "unusable" (built, but it does not load or
    fails a check); ``message`` says so in one sentence."""

    kind: str
    message: str

    @property
    def level(self) -> int:
        """The log level of ``message``: a module that is there but unusable wants fixing."""
        return logging.WARNING if self.kind == "unusable" else logging.INFO


class WrongModule(Exception):
    """The module loaded but is not the one this source expects."""


def _verify(module: ModuleType) -> None:
    missing = [name for name in ("SOURCE_DIGEST",) + _FUNCTIONS if not hasattr(module, name)]
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise WrongModule(f"{_file_of(module)} lacks {', '.join(missing[:3])}{more}")
    if _SOURCE.exists() and hashlib.sha256(_SOURCE.read_bytes()).hexdigest() != module.SOURCE_DIGEST:
        raise WrongModule(f"{_SOURCE.name} changed since it was compiled (rebuild: python3 -m pip install -e .)")
    module.set_punctuation(PUNCTUATION)


def _load() -> tuple[ModuleType | None, LoadReport]:
    """The compiled module and its report; (None, why) on any failure to load or verify it."""
    if os.environ.get("NEWSCRAWL_PURE_PYTHON") == "1":
        return None, LoadReport("off", f"NEWSCRAWL_PURE_PYTHON=1: {_PURE_PYTHON}")
    try:
        # import_module, not ``from . import``: this runs while the package is still being
        # imported, where a missing submodule shows up as a circular-import ImportError.
        module = importlib.import_module(_MODULE)
        _verify(module)
    except Exception as error:  # noqa: BLE001 - any failure to load or verify leaves the Python walks
        if isinstance(error, ModuleNotFoundError) and error.name == _MODULE:
            return None, LoadReport("absent", f"the compiled walks are not built: {_PURE_PYTHON}")
        return None, LoadReport("unusable", f"the compiled walks cannot be used ({type(error).__name__}: "
                                            f"{error}): {_PURE_PYTHON}")
    return module, LoadReport("compiled", f"using the compiled walks ({pathlib.Path(_file_of(module)).name})")


def _file_of(module: ModuleType) -> str:
    return getattr(module, "__file__", None) or module.__name__


compiled, report = _load()
