"""Site templates learned during a crawl (the extractor side is extract/template.py).

Per site, pages are grouped by URL similarity (extract.template.url_similarity).
A group without a template keeps its last pages; after ``learn_after`` of them a
template is learned and used on the group's later pages (``extract(...,
template=)``). Each use is a hit (the markers were found and the template cut or
replaced the density output) or a miss. When more than ``max_miss_share`` of the
last ``window`` uses missed (a site redesign), the template is dropped and a new
one learned from the pages that missed. Counters under ``newscrawl/templates/``:
hits, misses, learned, relearns, dropped.

Templates persist between runs in one JSON file per site under a folder
(``.newscrawl/templates/`` by default) through :class:`TemplateFileStore`, a
two-method interface (load/save) meant to move into the incremental state
(state.py) later.
"""
from __future__ import annotations

import json
import logging
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from ..run.counters import count
from ..extract.dom import decode_html
from ..extract.options import ExtractOptions
from ..extract.template import SiteTemplate, learn_template, url_similarity
from ..config.paths import resolve

logger = logging.getLogger(__name__)

DEFAULT_TEMPLATES_DIR = ".newscrawl/templates"
HIT_METHODS = frozenset({"template-cut", "template"})
_UNSAFE_NAME_RE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class TemplateSettings:
    learn_after: int = 3        # pages of a URL group before a template is learned
    window: int = 6             # recent uses looked at for a redesign
    max_miss_share: float = 0.5  # more misses than this share of the window: drop and relearn
    max_groups: int = 20        # URL groups per site (later URLs join the most alike group)


@dataclass
class UrlGroup:
    """Pages of one site with alike URLs, and their template."""

    url: str
    template: SiteTemplate | None = None
    pending: deque = field(default_factory=deque)    # (url, html) kept for learning
    outcomes: deque = field(default_factory=deque)   # recent uses: True hit, False miss

    def to_dict(self) -> dict:
        return {"url": self.url, "template": self.template.to_dict() if self.template else None}

    @classmethod
    def from_dict(cls, data: dict) -> "UrlGroup":
        template = SiteTemplate.from_dict(data["template"]) if data.get("template") else None
        return cls(str(data["url"]), template)


class TemplateFileStore:
    """One JSON file per site: ``<folder>/<site>.json`` holding its URL groups."""

    def __init__(self, folder: str | Path = DEFAULT_TEMPLATES_DIR):
        self.folder = Path(folder)

    def _path(self, site: str) -> Path:
        return self.folder / f"{_UNSAFE_NAME_RE.sub('_', site) or '_'}.json"

    def load(self, site: str) -> list[dict]:
        path = self._path(site)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as error:
            logger.warning("ignoring unreadable site templates %s: %s", path, error)
            return []
        return data.get("groups", []) if isinstance(data, dict) else []

    def save(self, site: str, groups: list[dict]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(site)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"site": site, "groups": groups}, ensure_ascii=False), encoding="utf-8")
        temporary.replace(path)


class SiteTemplates:
    """Templates of every site of a crawl: which to use on a page, and learning from outcomes."""

    def __init__(self, store: TemplateFileStore, stats=None, settings: TemplateSettings | None = None,
                 options: ExtractOptions | None = None):
        self.store = store
        self.stats = stats
        self.settings = settings or TemplateSettings()
        self.options = options or ExtractOptions()
        self.sites: dict[str, list[UrlGroup]] = {}

    def _count(self, key: str, site: str) -> None:
        if self.stats is not None:
            count(self.stats, f"templates/{key}", site)

    def groups(self, site: str) -> list[UrlGroup]:
        if site not in self.sites:
            loaded = []
            for data in self.store.load(site):
                try:
                    loaded.append(UrlGroup.from_dict(data))
                except (KeyError, ValueError, TypeError) as error:
                    logger.warning("ignoring a bad stored template of %s: %s", site, error)
            self.sites[site] = loaded
        return self.sites[site]

    def group_for(self, site: str, url: str) -> UrlGroup:
        groups = self.groups(site)
        best = max(groups, key=lambda g: url_similarity(url, g.url), default=None)
        if best is not None and (url_similarity(url, best.url) >= self.options.template_url_similarity
                                 or len(groups) >= self.settings.max_groups):
            return best
        group = UrlGroup(url)
        groups.append(group)
        return group

    def template_for(self, site: str, url: str) -> SiteTemplate | None:
        return self.group_for(site, url).template

    def observe(self, site: str, url: str, body: bytes | str, encoding: str | None, method: str) -> None:
        """Record how the extraction of one page went; learn or relearn when due."""
        group = self.group_for(site, url)
        if group.template is None:
            self._keep(group, url, body, encoding)
            if len(group.pending) >= self.settings.learn_after:
                self._learn(site, group, "learned")
            return
        hit = method in HIT_METHODS
        self._count("hits" if hit else "misses", site)
        group.outcomes.append(hit)
        if len(group.outcomes) > self.settings.window:
            group.outcomes.popleft()
        if not hit:
            self._keep(group, url, body, encoding)
        misses = group.outcomes.count(False)
        if len(group.outcomes) >= self.settings.learn_after and misses > self.settings.max_miss_share * len(group.outcomes):
            self._count("dropped", site)
            logger.info("site template of %s (%s) stopped matching: %d of %d pages missed",
                        site, group.url, misses, len(group.outcomes))
            group.template = None
            group.outcomes.clear()
            self._learn(site, group, "relearns")

    def _keep(self, group: UrlGroup, url: str, body: bytes | str, encoding: str | None) -> None:
        html = body if isinstance(body, str) else decode_html(body, encoding)
        group.pending.append((url, html))
        while len(group.pending) > self.settings.learn_after:
            group.pending.popleft()

    def _learn(self, site: str, group: UrlGroup, counter: str) -> None:
        if len(group.pending) < 2:
            return
        template = learn_template(list(group.pending), self.options)
        if template is not None:
            group.template = template
            group.pending.clear()
            self._count(counter, site)

    def save(self) -> None:
        for site, groups in self.sites.items():
            self.store.save(site, [g.to_dict() for g in groups if g.template is not None])


def site_templates_from_settings(settings, stats) -> SiteTemplates | None:
    """The crawl's templates when ``NEWSCRAWL_TEMPLATES_ENABLED`` (off by default), else None.

    ``NEWSCRAWL_TEMPLATES_DIR`` (default .newscrawl/templates) holds them between runs;
    ``NEWSCRAWL_TEMPLATES_LEARN_AFTER`` pages of a URL group are seen before learning.
    """
    if not settings.getbool("NEWSCRAWL_TEMPLATES_ENABLED", False):
        return None
    store = TemplateFileStore(resolve(settings, settings.get("NEWSCRAWL_TEMPLATES_DIR") or DEFAULT_TEMPLATES_DIR))
    learn_after = settings.getint("NEWSCRAWL_TEMPLATES_LEARN_AFTER", TemplateSettings.learn_after)
    return SiteTemplates(store, stats, TemplateSettings(learn_after=learn_after))
