"""From a site to its articles: discovery, per-site budget, page classes, download guards, the pipelines."""
