"""``python -m newscrawl.demo``: serve the sample sites on 127.0.0.x and crawl them end to end."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .run import crawl, write_sites_file
from .server import DemoServer, loopback_works


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.demo", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("output/demo"), help="where to write sites.yaml and JSONL")
    parser.add_argument("--serve", action="store_true", help="only serve the sites until Ctrl-C")
    options = parser.parse_args(argv)
    if not loopback_works():
        print("this machine cannot bind 127.0.0.2; the demo needs the 127.0.0.0/8 loopback range", file=sys.stderr)
        return 1
    web = DemoServer().start()
    sites = write_sites_file([s.config for s in web.sites], options.out.resolve() / "sites.yaml")
    for site in web.sites:
        print(f"serving {site.name} at {site.base}/")
    try:
        if options.serve:
            print(f"sites file: {sites}\nrun: scrapy crawl news -a sites={sites}\nCtrl-C to stop")
            while True:
                time.sleep(3600)
        output = options.out.resolve() / "articles.jsonl"
        print("crawling ...", flush=True)
        result = crawl(sites, output, cwd=Path.cwd())
        sys.stderr.write(result.stderr[-3000:] if result.returncode else "")
        lines = output.read_text(encoding="utf-8").splitlines() if output.exists() else []
        for line in lines:
            item = json.loads(line)
            print(f"  {item['site']:18} {item['published'] or '-':26} {item['title']}")
        print(f"{len(lines)} articles written to {output}")
        print(f"per-site summary: {output.with_name('articles.summary.json')}")
        return result.returncode
    except KeyboardInterrupt:
        return 0
    finally:
        web.stop()


if __name__ == "__main__":
    sys.exit(main())
