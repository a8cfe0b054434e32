"""newscrawl.extract: find the article in a news page (no Scrapy needed).

>>> result = extract("<html><body><article><h1>Hi</h1><p>" + "Some words here, and more. " * 20
...                  + "</p></article></body></html>")
>>> result.is_article
True
"""
from .core import extract
from .options import ExtractOptions
from .result import ExtractResult

__all__ = ["extract", "ExtractOptions", "ExtractResult"]
