"""JavaScript rendering through scrapy-playwright, only for the sites and pages that need it.

``render: always`` sites fetch their pages through Chromium; ``render: auto``
sites fetch plainly and render a page again only when it yields no article
but looks script-built. Plain requests keep Scrapy's HTTP/1.1 download path.
"""
from .plan import RenderPlan, browser_path

__all__ = ["RenderPlan", "browser_path"]
