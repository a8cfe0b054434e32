"""The process around the crawl: the clock, stats keys, stops with an exit code, GC tuning, log lines."""
