"""Packages newscrawl and builds its optional compiled walks (newscrawl/extract/_fastwalk.pyx).

``pip install -r requirements.txt`` installs this project in editable mode, which compiles the
module in place. A failed build (no C compiler, no Cython) prints one line and the install goes
on: the extractor then runs its pure-Python walks, with the same results, slower (see
newscrawl/extract/fastwalk.py). pip shows a build's output only with ``-v`` or when it fails, so
scripts/quickstart says after the install whether the walks were built.

``scrapyd-deploy`` runs ``setup.py bdist_egg``: the egg is pure Python (no compiled walks, so no
Cython run) and carries the project's ``sites.yaml`` as ``newscrawl/deployed/sites.yaml``, the
site list a deployed crawl uses when it is given none (newscrawl/config/paths.py).
"""
import hashlib
import pathlib
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.bdist_egg import bdist_egg
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

SOURCE = pathlib.Path("newscrawl/extract/_fastwalk.pyx")
PROJECT_SITES = pathlib.Path("sites.yaml")
PACKAGED_SITES = pathlib.Path("newscrawl/deployed/sites.yaml")  # newscrawl.config.paths.PACKAGED_SITES


def _not_built(error: Exception) -> None:
    print(f"newscrawl: the compiled walks were not built ({error}); the extractor will use its "
          "pure-Python walks (same results, slower)", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing: the compiled walks are an optional speed-up."""

    def run(self):
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any build failure leaves the pure-Python walks
            _not_built(error)

    def build_extension(self, ext):
        try:
            from Cython.Build import cythonize  # only here: packaging without compiling needs no Cython

            ext.sources = cythonize([ext], quiet=True)[0].sources  # the .pyx becomes the generated .c
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001 - a Cython or compiler error leaves the pure-Python walks
            _not_built(error)


class PurePythonEgg(bdist_egg):
    """Eggs carry no compiled walks. scrapyd-deploy builds the egg on the developer's machine for a
    server whose Python and lxml may differ, and setuptools' loader stub for a module compiled into
    an egg does not import it (the extractor then failed at its first import)."""

    def finalize_options(self):
        self.distribution.ext_modules = []
        super().finalize_options()


class BuildWithSites(build_py):
    """Copies the project's sites.yaml into the built package, so a deployed egg carries it."""

    def run(self):
        super().run()
        if PROJECT_SITES.is_file() and not getattr(self, "editable_mode", False):  # editable: read in place
            target = pathlib.Path(self.build_lib) / PACKAGED_SITES
            self.mkpath(str(target.parent))
            self.copy_file(str(PROJECT_SITES), str(target))


def extensions():
    """The compiled walks, as an Extension of the .pyx: Cython runs only when build_ext builds it."""
    try:
        import lxml
    except ImportError as error:
        _not_built(error)
        return []
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    return [Extension("newscrawl.extract._fastwalk", [str(SOURCE)], include_dirs=lxml.get_include(),
                      define_macros=[("FASTWALK_SOURCE_DIGEST", f'"{digest}"')])]


setup(
    name="newscrawl",
    version="0.1.0",
    packages=find_packages(include=["newscrawl", "newscrawl.*"]),
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt, "bdist_egg": PurePythonEgg, "build_py": BuildWithSites},
    # scrapyd finds the project's settings module through this entry point (scrapyd.runner)
    entry_points={"scrapy": ["settings = newscrawl.settings"]},
    python_requires=">=3.11",
)
