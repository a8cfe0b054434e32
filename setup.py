"""Builds newscrawl's optional compiled walks (newscrawl/extract/_fastwalk.pyx).

``pip install -r requirements.txt`` installs this project in editable mode, which compiles the
module in place. A failed build (no C compiler, no Cython) prints one line and the install goes
on: the extractor then runs its pure-Python walks, with the same results, slower (see
newscrawl/extract/fastwalk.py). pip shows a build's output only with ``-v`` or when it fails, so
scripts/quickstart says after the install whether the walks were built.
"""
import hashlib
import pathlib
import sys

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

SOURCE = pathlib.Path("newscrawl/extract/_fastwalk.pyx")


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
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            _not_built(error)


def extensions():
    try:
        import lxml
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as error:
        _not_built(error)
        return []
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    extension = Extension("newscrawl.extract._fastwalk", [str(SOURCE)], include_dirs=lxml.get_include(),
                          define_macros=[("FASTWALK_SOURCE_DIGEST", f'"{digest}"')])
    try:
        return cythonize([extension], quiet=True)
    except Exception as error:  # noqa: BLE001 - a Cython error leaves the pure-Python walks
        _not_built(error)
        return []


setup(
    name="newscrawl",
    version="0.1.0",
    packages=find_packages(include=["newscrawl", "newscrawl.*"]),
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
    python_requires=">=3.11",
)
