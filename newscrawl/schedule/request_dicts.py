"""A request as the dict Scrapy's disk queues store, without a scan of the spider per request.

``Request.to_dict(spider=...)`` names the callback and errback by looking through every
method of the spider (``inspect.getmembers``) for each of them: ~3% of the crawl process's
main thread in a next-hour cycle of ``benchmarks/hourly_cycle.py``, where every queued request
is written to the queue's SQLite file. A spider method's name is its ``__name__``, so
:func:`request_dict` asks the spider for that one attribute and checks it is the same
method; anything else (a method stored under another name, a plain function) goes to
Scrapy's own look-up, which names it or raises ``ValueError`` as before. The dict is
Scrapy's own (``to_dict`` with the names in place of the methods), so queues written
before and after load alike with ``request_from_dict``.
"""
from __future__ import annotations

_NOT_FOUND = object()


def _method_name(spider, func):
    """The name under which ``spider`` has the bound method ``func``; ``func`` itself when it is no
    callable (None, or a name already); _NOT_FOUND when it is not found by its own name."""
    if not callable(func):
        return func
    name = getattr(func, "__name__", None)
    function = getattr(func, "__func__", None)
    if name is None or function is None:
        return _NOT_FOUND
    member = getattr(spider, name, None)
    return name if getattr(member, "__func__", None) is function else _NOT_FOUND


def request_dict(request, spider) -> dict:
    """``request.to_dict(spider=spider)``, with the callback and errback named in O(1)."""
    callback, errback = request.callback, request.errback
    names = (_method_name(spider, callback), _method_name(spider, errback))
    if spider is None or _NOT_FOUND in names:
        return request.to_dict(spider=spider)
    request.callback, request.errback = names  # names are what to_dict keeps as they are
    try:
        return request.to_dict()
    finally:
        request.callback, request.errback = callback, errback
