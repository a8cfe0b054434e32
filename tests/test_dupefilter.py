"""The duplicate filter of a job directory: kept for a resume, forgotten once the crawl finished."""
from __future__ import annotations

import pytest
from scrapy import Request
from scrapy.utils.test import get_crawler

from newscrawl.schedule.dupefilter import DiskDupeFilter


@pytest.mark.parametrize("reason, seen_again", [("finished", False), ("shutdown", True)])
def test_the_next_run_in_the_job_directory_sees_the_feed_again_only_after_a_finished_crawl(
        tmp_path, reason, seen_again):
    crawler = get_crawler(settings_dict={"JOBDIR": str(tmp_path)})
    feed = Request("http://a.example/feed.xml")
    first = DiskDupeFilter.from_crawler(crawler)
    assert not first.request_seen(feed) and first.request_seen(feed)
    first.close(reason)
    second = DiskDupeFilter.from_crawler(crawler)
    assert second.request_seen(feed) is seen_again
    second.close("shutdown")
