"""What the crawl remembers and writes: state (SQLite or Redis), durable JSONL, sinks, lock, resume, search."""
