"""Pages a link led to first that a feed or sitemap of their site lists too, within one run.

A page judged no article for a reason about the page itself is remembered (not fetched again for a
while) when the site lists it as content, in a feed or sitemap (``incremental.is_dead_end``). The
page's request tells how it was found first, and a start page is often read before the feed that
lists the same pages: the feed's entry then meets the frontier's "seen" and makes no request, the
page counts as found by a link, and a page of no article shape was fetched again every run
(``benchmarks/hourly_cycle.py --sites 1000``: 122 pages of the first cycle in the next hour's).

:class:`ListedLinks` joins the two, whichever comes first: the listing is noted for a later drop,
and a drop is held in case a listing of the run names the page later.
"""
from __future__ import annotations

from collections.abc import Callable


class ListedLinks:
    """The run's link requests of pages not shaped like articles, and which of them a listing names."""

    def __init__(self):
        self.linked: set[str] = set()  # requested for a link, not listed (yet)
        self.listed: set[str] = set()  # requested for a link, then listed by a feed or sitemap
        self.held: dict[str, Callable[[], None]] = {}  # dropped while only linked: URL -> remember the drop

    def link_requested(self, url: str) -> None:
        """A request for ``url`` (canonical) was made for a link."""
        self.linked.add(url)

    def listed_again(self, url: str) -> None:
        """A feed or sitemap lists ``url``, which its site's frontier has seen already."""
        if url not in self.linked:
            return
        self.linked.discard(url)
        remember = self.held.pop(url, None)
        if remember is not None:
            remember()
        else:
            self.listed.add(url)

    def dropped(self, url: str, remember: Callable[[], None]) -> None:
        """The page requested at ``url`` was dropped for a reason worth remembering: ``remember`` is
        called now if a listing named it, or later if one does in this run."""
        if url in self.listed:
            self.listed.discard(url)
            remember()
        elif url in self.linked:
            self.held[url] = remember
