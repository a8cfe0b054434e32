"""Look at, check, prune or reset the incremental state: ``python -m newscrawl.store.state_admin ACTION``.

    python -m newscrawl.store.state_admin info  [--state .newscrawl/state.sqlite | --redis-url URL]
    python -m newscrawl.store.state_admin check [--state PATH]
    python -m newscrawl.store.state_admin prune --days 90 [--listing-cache-mib 32] [--drop-days 7] [--max-drops N]
                                         [--state PATH]
    python -m newscrawl.store.state_admin reset [--state PATH | --redis-url URL [--prefix newscrawl]]

``check`` reads the whole SQLite file (SQLite's integrity check) and says
whether it is usable; exit 0 when it is, 2 when not (an empty, truncated or
damaged file: ``reset`` it). ``prune`` forgets articles first seen more than N
days ago (they are emitted again if a feed or sitemap still lists them) and
listing bodies stored longer ago, then trims the listing cache to its bound,
forgets the remembered drops (pages judged no article, not fetched again for a
while) older than ``--drop-days`` or beyond ``--max-drops``, and compacts the
file; ``reset`` forgets everything. ``info`` and ``check`` show what the state
holds, remembered drops included. All take the crawl lock, so
they never run while a crawl of that state runs.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .lock import EXIT_LOCKED, CrawlLocked, acquire
from ..config.paths import resolve
from ..run.clock import unix_now
from .state import (DEFAULT_LISTING_CACHE_MIB, DEFAULT_MAX_REMEMBERED_DROPS, DEFAULT_REMEMBER_DROPS_DAYS,
                    DEFAULT_STATE_PATH, SqliteState, StateCorrupt, integrity_problems)

EXIT_UNUSABLE = 2  # the state file is empty, truncated or damaged (the crawl refuses it with the same code)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.store.state_admin", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("info", "check", "prune", "reset"))
    parser.add_argument("--state", default=DEFAULT_STATE_PATH,
                        help="SQLite state file (STATE_PATH; relative: under $NEWSCRAWL_HOME when set)")
    parser.add_argument("--redis-url", help="the REDIS_URL of a distributed crawl (state in Redis)")
    parser.add_argument("--prefix", default="newscrawl", help="NEWSCRAWL_REDIS_PREFIX")
    parser.add_argument("--days", type=float, help="prune: forget articles first seen more than this ago")
    parser.add_argument("--listing-cache-mib", type=float, default=DEFAULT_LISTING_CACHE_MIB,
                        help="prune: keep at most this many MiB of listing bodies (NEWSCRAWL_LISTING_CACHE_MIB)")
    parser.add_argument("--drop-days", type=float, default=DEFAULT_REMEMBER_DROPS_DAYS,
                        help="prune: forget pages dropped as no article more than this ago "
                             "(NEWSCRAWL_REMEMBER_DROPS_DAYS)")
    parser.add_argument("--max-drops", type=int, default=DEFAULT_MAX_REMEMBERED_DROPS,
                        help="prune: keep at most this many remembered drops (NEWSCRAWL_MAX_REMEMBERED_DROPS)")
    return parser


def _redis(options) -> int:
    from .redis_support import RedisState, _redis_from_url

    state = RedisState(_redis_from_url(options.redis_url), options.prefix)
    if options.action == "reset":
        print(f"deleted {state.reset()} key(s) under {options.prefix}:*")
    elif options.action == "info":
        print(json.dumps(state.counts(), indent=2))
    else:
        print("prune is for the SQLite state; with Redis, reset it or expire keys yourself", file=sys.stderr)
        return 2
    return 0


def remove_state_files(path: Path) -> None:
    """Delete a SQLite state and its journal files (the caller holds the crawl lock)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def reset_state(path: Path) -> None:
    """Forget everything in the SQLite state at ``path``; CrawlLocked while a run holds its lock."""
    lock = acquire(Path(f"{path}.lock"))
    try:
        remove_state_files(path)
    finally:
        lock.release()


def main(argv: list[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    if options.redis_url:
        return _redis(options)
    path = resolve({}, options.state)  # under $NEWSCRAWL_HOME when it is set, as for the crawl
    try:
        lock = acquire(Path(f"{path}.lock"))
    except CrawlLocked as exc:
        print(f"newscrawl: {exc}", file=sys.stderr)
        return EXIT_LOCKED
    try:
        if options.action == "reset":
            remove_state_files(path)
            print(f"removed {path}: the next run emits every article again")
            return 0
        if not path.exists():
            print(f"no state at {path}", file=sys.stderr)
            return 1
        if options.action == "prune" and options.days is None:
            print("prune needs --days N", file=sys.stderr)
            return 2
        try:
            state = SqliteState(path, filter_mib=0, listing_cache_mib=options.listing_cache_mib)  # no key filter
        except StateCorrupt as exc:
            print(exc, file=sys.stderr)
            return EXIT_UNUSABLE
        try:
            return _sqlite_action(state, options)
        finally:
            state.close()
    finally:
        lock.release()


def _sqlite_action(state: SqliteState, options) -> int:
    if options.action == "check":
        problems = integrity_problems(state.db)
        for line in problems:
            print(f"{state.path}: {line}", file=sys.stderr)
        if problems:
            print(f"{state.path} is damaged: `python -m newscrawl.store.state_admin reset --state {state.path}` starts "
                  "afresh (every article is emitted again)", file=sys.stderr)
            return EXIT_UNUSABLE
        print(f"{state.path}: ok")
    if options.action == "prune":
        forgot = state.prune(options.days, int(unix_now() - options.drop_days * 86400), options.max_drops)
        print(f"forgot {forgot.articles} article(s) first seen over {options.days:g} days ago, "
              f"{forgot.listings} listing body(ies) stored over {options.days:g} days ago or beyond the "
              f"{options.listing_cache_mib:g} MiB cache, and {forgot.drops} remembered drop(s) over "
              f"{options.drop_days:g} days old or beyond {options.max_drops}")
    print(json.dumps(state.counts(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
