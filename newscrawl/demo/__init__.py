"""Offline demo: sample news sites on 127.0.0.x and a real crawl of them (``python -m newscrawl.demo``)."""
from .run import crawl, write_sites_file
from .server import DemoServer

__all__ = ["DemoServer", "crawl", "write_sites_file"]
