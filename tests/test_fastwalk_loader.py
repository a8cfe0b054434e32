"""The loader of the compiled walks (newscrawl/extract/fastwalk.py) never fails and never prints.

Whatever sits at ``newscrawl.extract._fastwalk`` (nothing, a file that is no shared object, a
setuptools egg stub, a module built from another .pyx, one that raises on import), loading
leaves ``compiled`` None and says why in ``report``; only a module that passes every check is
used. The fakes are written to a temporary folder searched before the package's own; these tests
run whether or not the real module is built.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import logging
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from scrapy.utils.test import get_crawler

from newscrawl.extract import fastwalk
from newscrawl.extract.patterns import PUNCTUATION
from newscrawl.crawl.pipelines import ExtractPipeline

REPO = Path(__file__).resolve().parent.parent
MODULE = "newscrawl.extract._fastwalk"
PACKAGE = importlib.import_module("newscrawl.extract")
DIGEST = hashlib.sha256(fastwalk._SOURCE.read_bytes()).hexdigest()

# A module with the whole API, as the build makes it; ``{digest}`` is the source it claims.
FAKE_MODULE = "SOURCE_DIGEST = {digest!r}\nmarks = None\n" + "".join(
    f"def {name}(*args):\n    global marks\n    marks = args[0] if args else None\n" for name in fastwalk._FUNCTIONS)


@pytest.fixture
def fake_folder(tmp_path, monkeypatch):
    """A folder searched first for newscrawl.extract's submodules, the loaded module forgotten meanwhile.

    Call the returned function with ``hide_built=True`` to search only that folder (the build absent)."""
    saved_module, saved_attribute = sys.modules.pop(MODULE, None), PACKAGE.__dict__.pop("_fastwalk", None)
    original_path = list(PACKAGE.__path__)

    def use(hide_built: bool = False) -> Path:
        PACKAGE.__path__[:] = [str(tmp_path)] + ([] if hide_built else original_path)
        importlib.invalidate_caches()
        return tmp_path

    monkeypatch.delenv("NEWSCRAWL_PURE_PYTHON", raising=False)
    yield use
    PACKAGE.__path__[:] = original_path
    sys.modules.pop(MODULE, None)
    PACKAGE.__dict__.pop("_fastwalk", None)
    if saved_module is not None:
        sys.modules[MODULE] = saved_module
    if saved_attribute is not None:
        PACKAGE._fastwalk = saved_attribute


def _load_quietly():
    """fastwalk._load(), failing the test on any warning it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fastwalk._load()


def test_a_missing_module_is_reported_absent_in_one_info_sentence(fake_folder):
    fake_folder(hide_built=True)
    module, report = _load_quietly()
    assert module is None
    assert report.kind == "absent" and report.level == logging.INFO
    assert report.message == "the compiled walks are not built: using the pure-Python walks (same results, slower)"


def test_a_module_that_passes_every_check_is_used_with_the_punctuation_set(fake_folder):
    (fake_folder() / "_fastwalk.py").write_text(FAKE_MODULE.format(digest=DIGEST))
    module, report = _load_quietly()
    assert module is sys.modules[MODULE] and report.kind == "compiled" and report.level == logging.INFO
    assert module.marks == PUNCTUATION


# Each body of a "_fastwalk.py" below stands for one way a module in the wrong state fails.
SETUPTOOLS_STUB_WITHOUT_API = '''
import importlib.util, pathlib
# setuptools' egg stub: it loads the real module into a module object of its own and keeps
# nothing of it, so the stub itself lacks the API.
spec = importlib.util.spec_from_file_location(__name__, pathlib.Path(__file__).with_name("real_walks.py"))
spec.loader.exec_module(importlib.util.module_from_spec(spec))
'''
SETUPTOOLS_STUB_NOT_A_PACKAGE = '''
import importlib.resources
# a newer setuptools' egg stub: it asks for its resources as if the module were a package.
importlib.resources.files(__name__)
'''
LXML_MISMATCH = 'raise ValueError("lxml.etree._Element size changed, may indicate binary incompatibility")\n'
MISSING_DEPENDENCY = "import pkg_resources_not_installed_anywhere\n"
OTHER_SOURCE = FAKE_MODULE.format(digest="0" * 64)
NO_DIGEST = FAKE_MODULE.format(digest=DIGEST).replace("SOURCE_DIGEST =", "OTHER_NAME =")
MISSING_FUNCTION = FAKE_MODULE.format(digest=DIGEST) + "del render_plan\n"
PUNCTUATION_REFUSED = FAKE_MODULE.format(digest=DIGEST) + (
    "def set_punctuation(marks):\n    raise SystemError('bad marks')\n")


@pytest.mark.parametrize("source, reason", [
    (SETUPTOOLS_STUB_WITHOUT_API, "lacks SOURCE_DIGEST, set_punctuation, density_counts and "
                                  f"{len(fastwalk._FUNCTIONS) - 2} more"),   # the digest and every function
    (SETUPTOOLS_STUB_NOT_A_PACKAGE, "TypeError: 'newscrawl.extract._fastwalk' is not a package"),
    (LXML_MISMATCH, "ValueError: lxml.etree._Element size changed"),
    (MISSING_DEPENDENCY, "ModuleNotFoundError: No module named 'pkg_resources_not_installed_anywhere'"),
    (OTHER_SOURCE, "_fastwalk.pyx changed since it was compiled"),
    (NO_DIGEST, "lacks SOURCE_DIGEST"),
    (MISSING_FUNCTION, "lacks render_plan"),
    (PUNCTUATION_REFUSED, "SystemError: bad marks"),
], ids=["egg-stub-without-api", "egg-stub-not-a-package", "lxml-mismatch", "missing-dependency",
        "other-pyx", "no-digest", "missing-function", "punctuation-refused"])
def test_a_module_that_fails_to_load_or_verify_falls_back_with_a_warning_sentence(fake_folder, source, reason):
    folder = fake_folder()
    (folder / "_fastwalk.py").write_text(source)
    (folder / "real_walks.py").write_text(FAKE_MODULE.format(digest=DIGEST))
    module, report = _load_quietly()
    assert module is None
    assert report.kind == "unusable" and report.level == logging.WARNING
    assert any(part in report.message for part in reason.split("|")), report.message
    assert report.message.startswith("the compiled walks cannot be used (")
    assert report.message.endswith("using the pure-Python walks (same results, slower)")
    assert "\n" not in report.message


def test_a_file_that_is_no_shared_object_falls_back(fake_folder):
    """A truncated or foreign .so (another platform's build copied along) fails in the dynamic loader."""
    broken = fake_folder() / f"_fastwalk{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    broken.write_bytes(b"\x7fELF but not really a shared object")
    module, report = _load_quietly()
    assert module is None and report.kind == "unusable"
    assert "ImportError" in report.message and broken.name in report.message


def test_the_environment_turns_the_compiled_walks_off(fake_folder, monkeypatch):
    (fake_folder() / "_fastwalk.py").write_text(FAKE_MODULE.format(digest=DIGEST))
    monkeypatch.setenv("NEWSCRAWL_PURE_PYTHON", "1")
    module, report = _load_quietly()
    assert module is None and report.kind == "off" and report.level == logging.INFO
    assert "NEWSCRAWL_PURE_PYTHON=1" in report.message


def _package_copy_without_build(tmp_path: Path) -> Path:
    """A copy of the newscrawl package with no compiled module in it (a checkout nobody built)."""
    shutil.copytree(REPO / "newscrawl", tmp_path / "newscrawl",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "_fastwalk.c"))
    return tmp_path


def test_without_the_build_the_cli_prints_only_its_output(tmp_path):
    """No warning, no circular-import message: the missing module is found missing while the
    package is still being imported (the case a machine without a C compiler meets)."""
    root = _package_copy_without_build(tmp_path)
    page = tmp_path / "page.html"
    page.write_text("<html><body><article><p>" + "Words of a story, told plainly. " * 30 + "</p></article></body></html>")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root), "PYTHONWARNINGS": "default"}
    done = subprocess.run([sys.executable, "-m", "newscrawl.extract", str(page), "--format", "text"],
                          capture_output=True, text=True, env=env, cwd=root, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("Words of a story")
    probe = subprocess.run([sys.executable, "-c", "from newscrawl.extract import fastwalk; "
                            "print(fastwalk.report.kind, fastwalk.compiled)"],
                           capture_output=True, text=True, env=env, cwd=root, timeout=120)
    assert (probe.stdout, probe.stderr) == ("absent None\n", "")


def test_the_crawl_logs_the_walks_once_and_counts_them_in_the_stats(caplog):
    pipeline = ExtractPipeline.from_crawler(get_crawler(settings_dict={"NEWSCRAWL_EXTRACT_WORKERS": 0}))
    with caplog.at_level(logging.INFO, logger="newscrawl"):
        pipeline.open_spider()
    pipeline.close_spider()
    lines = [r for r in caplog.records if "walks" in r.getMessage()]
    assert [(r.levelno, r.getMessage()) for r in lines] == [(fastwalk.report.level,
                                                             f"extractor: {fastwalk.report.message}")]
    assert pipeline.stats.get_value("newscrawl/extract/compiled") == (0 if fastwalk.compiled is None else 1)
