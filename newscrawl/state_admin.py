"""Look at, prune or reset the incremental state: ``python -m newscrawl.state_admin info|prune|reset``.

    python -m newscrawl.state_admin info  [--state .newscrawl/state.sqlite | --redis-url URL]
    python -m newscrawl.state_admin prune --days 90 [--state PATH]
    python -m newscrawl.state_admin reset [--state PATH | --redis-url URL [--prefix newscrawl]]

``prune`` forgets articles first seen more than N days ago (they are emitted
again if a feed or sitemap still lists them); ``reset`` forgets everything.
Both take the crawl lock, so they never run while a crawl of that state runs.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .lock import EXIT_LOCKED, CrawlLocked, acquire
from .paths import resolve
from .state import DEFAULT_STATE_PATH, SqliteState


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.state_admin", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("info", "prune", "reset"))
    parser.add_argument("--state", default=DEFAULT_STATE_PATH,
                        help="SQLite state file (STATE_PATH; relative: under $NEWSCRAWL_HOME when set)")
    parser.add_argument("--redis-url", help="the REDIS_URL of a distributed crawl (state in Redis)")
    parser.add_argument("--prefix", default="newscrawl", help="NEWSCRAWL_REDIS_PREFIX")
    parser.add_argument("--days", type=float, help="prune: forget articles first seen more than this ago")
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
        state = SqliteState(path, filter_mib=0)  # no crawl look-ups here: no key filter
        if options.action == "prune":
            if options.days is None:
                print("prune needs --days N", file=sys.stderr)
                return 2
            print(f"forgot {state.prune(options.days)} article(s) first seen over {options.days:g} days ago")
        print(json.dumps(state.counts(), indent=2))
        state.close()
        return 0
    finally:
        lock.release()


if __name__ == "__main__":
    sys.exit(main())
