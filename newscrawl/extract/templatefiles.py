"""Site templates on disk: learn one from a folder of pages, read one from JSON."""
from __future__ import annotations

from pathlib import Path

from .dom import decode_html
from .options import ExtractOptions
from .template import SiteTemplate, learn_template

PAGE_SUFFIXES = (".html", ".htm")


class TemplateFileError(Exception):
    """A template or its pages cannot be read; the message names what and where."""


def read_pages(folder: str | Path) -> list[tuple[str | None, str]]:
    """(None, decoded html) of every .html/.htm file of a folder, by file name."""
    path = Path(folder)
    if not path.is_dir():
        raise TemplateFileError(f"cannot learn a template from {folder}: not a folder")
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in PAGE_SUFFIXES and p.is_file())
    if len(files) < 2:
        raise TemplateFileError(f"cannot learn a template from {folder}: need at least 2 .html pages, "
                                f"found {len(files)}")
    return [(None, decode_html(p.read_bytes())) for p in files]


def learn_from_folder(folder: str | Path, options: ExtractOptions | None = None) -> SiteTemplate | None:
    return learn_template(read_pages(folder), options)


def load_template(path: str | Path) -> SiteTemplate:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise TemplateFileError(f"cannot read template {path}: {error.strerror or error}") from None
    try:
        return SiteTemplate.from_json(text)
    except ValueError as error:
        raise TemplateFileError(f"bad template {path}: {error}") from None
