"""Article sinks: where each article goes besides the JSONL output, with the JSONL guarantees.

- ``base``: the interface of a sink, the row it stores and its errors;
- ``fanout``: the crawl's set of sinks (``sinks_for``), fed by the durable JSONL writer and committed
  at each of its syncs, before the state records anything;
- ``sqlite_store``: the embedded article store with full-text search (on by default);
- ``postgres``: PostgreSQL with ``POSTGRES_URL``;
- ``schema``: versioned schemas and their migrations;
- ``tokens``: the words a full-text index sees (CJK text as overlapping character pairs).
"""
