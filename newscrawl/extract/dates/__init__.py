"""The publish date of a page: where to look, how to read what is found, which to believe.

``patterns`` holds every date vocabulary and regex, each named (a new way of writing a
date is one entry of ``patterns.TEXT_DATE_FORMATS``, a new month-name language one
``add_month_names`` line there); ``parse`` reads text into dates; ``machine`` and ``shown``
are the sources (what a page writes for machines, what it shows readers), ``foreign``
the blocks whose dates are not the page's, ``zones`` the day of a UTC date, and
``candidates`` runs the sources in order and chooses.
"""
from .candidates import find_published
from .parse import FoundDate, iter_text_dates, parse_date

__all__ = ["FoundDate", "find_published", "iter_text_dates", "parse_date"]
