"""Where a crawl's files are: relative paths resolve under ``NEWSCRAWL_HOME`` when it is set.

A job started by scrapyd runs in scrapyd's working directory. ``NEWSCRAWL_HOME`` (the setting,
else the environment variable of that name) gives the crawl's files one directory: the sites
file, the output and its summaries, the state and its lock, the site templates and the request
log. A path given absolute is used as it is; without ``NEWSCRAWL_HOME`` relative paths stay
relative to the working directory, as for any command.

With no ``sites`` argument the crawl reads ``sites.yaml`` from that directory; when there is
none, the ``sites.yaml`` built into the package (setup.py copies the project's into every
egg and wheel, so a deployed project carries its site list).
"""
from __future__ import annotations

import os
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .sites import SitesError

HOME_SETTING = "NEWSCRAWL_HOME"
DEFAULT_SITES = "sites.yaml"
PACKAGED_SITES = ("deployed", "sites.yaml")  # under the newscrawl package; setup.py's PACKAGED_SITES


def home_of(settings) -> Path | None:
    """The directory relative paths resolve under; None: the working directory."""
    value = settings.get(HOME_SETTING) or os.environ.get(HOME_SETTING)
    return Path(value).expanduser() if value else None


def resolve(settings, path: str | Path) -> Path:
    """``path`` under NEWSCRAWL_HOME when it is relative and a home is set, else as given."""
    path = Path(path).expanduser()
    home = home_of(settings)
    return home / path if home is not None and not path.is_absolute() else path


def packaged_sites() -> Traversable | None:
    """The sites.yaml built into the installed package, if it has one."""
    try:
        resource = resources.files("newscrawl").joinpath(*PACKAGED_SITES)
    except (ModuleNotFoundError, TypeError):
        return None
    return resource if resource.is_file() else None


def sites_source(settings, argument: str | None) -> Path | Traversable:
    """The sites file to read for the ``sites`` argument (None: not given); SitesError if missing."""
    path = resolve(settings, argument or DEFAULT_SITES)
    if path.is_file():
        return path
    if argument is None:
        packaged = packaged_sites()
        if packaged is not None:
            return packaged
    if Path(argument or DEFAULT_SITES).expanduser().is_absolute():
        return path  # load_sites names the missing file
    raise SitesError([_not_found(settings, argument)])


def _not_found(settings, argument: str | None) -> str:
    home = home_of(settings)
    if home is not None:
        searched, fix = f"{home.absolute()} ({HOME_SETTING})", "give an absolute path or one under it"
    else:
        searched, fix = f"{Path.cwd()} (the working directory)", f"give an absolute path or set {HOME_SETTING}"
    if argument:
        return f"argument 'sites': {argument} not found in {searched}; {fix}"
    return (f"argument 'sites' not given: {DEFAULT_SITES} not found in {searched}, and none is built "
            f"into the package; {fix}")
