"""Scrapy settings of newscrawl: polite by default, bounded per site.

Every setting newscrawl reads is declared here with its default, once (tests/test_settings_declared.py
checks the code and the tables of docs/operations.md against this module). Every ``NEWSCRAWL_*``
setting can be overridden with ``-s NAME=value``; docs/operations.md lists them with the extra
settings for broad crawls.
"""
import os

BOT_NAME = "newscrawl"
SPIDER_MODULES = ["newscrawl.spiders"]
NEWSPIDER_MODULE = "newscrawl.spiders"
COMMANDS_MODULE = "newscrawl.commands"

# --- politeness -------------------------------------------------------------
USER_AGENT = "newscrawl/0.1 (news indexing crawler; +https://github.com/newscrawl/newscrawl)"
ROBOTSTXT_OBEY = True
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
CONCURRENT_REQUESTS = 32  # a crawl of many sites raises it (newscrawl/crawl/scale.py) unless -s sets it
# ... to sites x CONCURRENT_REQUESTS_PER_DOMAIN, at most this: Scrapy's broad-crawl guide's example
# figure; 10,000 loopback sites on 2 cores are CPU-bound well below it (benchmarks/hourly_cycle.py)
NEWSCRAWL_MAX_CONCURRENT_REQUESTS = 256
CONCURRENT_REQUESTS_PER_DOMAIN = 2
DOWNLOAD_DELAY = 0.5
COOKIES_ENABLED = False
# Scrapy's telnet console runs Python sent to it on 127.0.0.1: a scheduled crawler needs none (README)
TELNETCONSOLE_ENABLED = False

# --- robustness -------------------------------------------------------------
DOWNLOAD_TIMEOUT = 30
DNSCACHE_SIZE = 100_000  # host names remembered (Scrapy's 10,000 is the size of a large site list)
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024  # bytes; also caps gunzipped sitemaps
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
# Response head bounds (status line and headers; DOWNLOAD_MAXSIZE counts the body only), newscrawl.crawl.http_limits.
# 256 KiB is Chromium's own bound on a response head (net::HttpStreamParser, kMaxHeaderBufSize);
# 200 lines is twice Python's http.client bound (_MAXHEADERS = 100).
NEWSCRAWL_MAX_HEADER_BYTES = 262_144
NEWSCRAWL_MAX_HEADER_COUNT = 200
# Seconds a stopping crawl (SIGTERM, Ctrl-C) lets downloads in flight finish before it cancels them
# (newscrawl.crawl.shutdown); a loopback page answers in milliseconds, a slow real one in a few seconds
NEWSCRAWL_SHUTDOWN_GRACE_SECONDS = 2.0
DOWNLOAD_HANDLERS = {  # Scrapy's HTTP/1.1 handler with those bounds; rendering sites replace it (render/plan.py)
    "http": "newscrawl.crawl.http_limits.BoundedHeadersDownloadHandler",
    "https": "newscrawl.crawl.http_limits.BoundedHeadersDownloadHandler",
}
# Seconds a finished keep-alive connection waits for the site's next request before it is closed
# (newscrawl/crawl/idle_connections.py; Twisted keeps it 240 s: a socket per host visited at 10,000 sites).
# 15 s: above Apache httpd's KeepAliveTimeout (5 s), below nginx's keepalive_timeout (75 s).
NEWSCRAWL_IDLE_CONNECTION_SECONDS = 15.0
RETRY_TIMES = 2
REDIRECT_MAX_TIMES = 5
DEPTH_LIMIT = 20  # hard stop above the per-site max_depth (sitemap indexes add hops)
# Bytes of responses in the callbacks at once before Scrapy stops downloading (its default, 5 MB, is
# less than one large listing: while a 9 MB page of links was walked, no site got a request);
# four responses of DOWNLOAD_MAXSIZE
SCRAPER_SLOT_MAX_ACTIVE_SIZE = 4 * DOWNLOAD_MAXSIZE
CONCURRENT_ITEMS = 8  # items in flight per response; Scrapy starts this many tasks per callback output
DEFAULT_DROPITEM_LOG_LEVEL = "DEBUG"  # drops are counted in stats and the summary instead
# Scrapy logs a request that used up its retries as an ERROR; the spider's errback logs it as one line
RETRY_GIVE_UP_LOG_LEVEL = "DEBUG"
# Scrapy's check that a generator callback returns no value, made before every callback call: its cache
# holds the bound methods weakly, so for a generator callback (parse_robots) it re-reads and parses the
# source, 1.1 ms per response, and 7 us for the others (timed on this spider, 2026-11-27). The spider's
# callbacks get the same check once, in tests/test_callbacks.py.
WARN_ON_GENERATOR_RETURN_VALUE = False
NEWSCRAWL_RETRY_AFTER_ENABLED = True  # wait what a 429/503's Retry-After asks (retry_after.py)
NEWSCRAWL_RETRY_AFTER_MAX = 60.0  # ... at most this many seconds; longer asks are retried after this long
NEWSCRAWL_STRIP_ENABLED = True  # strip script/style/iframe from responses before the spider (middlewares.py)
NEWSCRAWL_STRIP_MAX_BYTES = 8_000_000  # ... up to this size; larger responses are passed on unstripped
NEWSCRAWL_CONDITIONAL_ENABLED = True  # conditional requests for feeds, sitemaps, start pages (conditional.py)
# Tests and the fault benchmarks: write every URL that reaches the downloader to this file (None: off),
# and refuse every request off this machine
NEWSCRAWL_REQUEST_LOG = None
NEWSCRAWL_LOOPBACK_ONLY = False

# --- event loop -------------------------------------------------------------------
# The asyncio loop under Twisted's reactor: Python's own selector loop, named so that an event-loop policy
# installed elsewhere cannot swap it. uvloop's loop saved the crawl process 1-2% of its CPU, but under
# Twisted's reactor it lost the resets of connections a server cut mid-body (15 of 120 in a crawl):
# each such request then waited for the download timeout (tests/test_crawl_resets.py; docs/MEASUREMENTS.md,
# "The hourly cycle at scale").
ASYNCIO_EVENT_LOOP = "asyncio.SelectorEventLoop"

# --- logging ------------------------------------------------------------------------
# INFO: progress, one line per failed request, and the end-of-run report (newscrawl.report.run_report);
# DEBUG adds a line per page and per item (URL, reason, size: never a page's body, logformat.py)
LOG_LEVEL = "INFO"

# --- components ---------------------------------------------------------------
DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    # Scrapy's, counting the pages robots.txt forbids per site (robots.py)
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "newscrawl.crawl.robots.SiteRobotsTxtMiddleware": 100,
    "newscrawl.crawl.safety.SiteOffsiteMiddleware": 50,  # also after redirects and retries; no private hosts
    "newscrawl.crawl.safety.ResolvedAddressMiddleware": 51,  # then host names are looked up: no private answers
    # below HttpCompressionMiddleware (590) so it sees decompressed bodies
    "newscrawl.crawl.middlewares.StripNoiseMiddleware": 580,
    # above RetryMiddleware (550): its process_response runs first and waits what Retry-After asks
    "newscrawl.crawl.retry_after.RetryAfterMiddleware": 560,
    # above stripping (580): reads script signals of render: auto pages; counts renders
    "newscrawl.render.middleware.RenderMiddleware": 583,
    # between compression (590) and stripping (580): stores raw listing bodies, replays them on 304
    "newscrawl.store.conditional.ConditionalRequestMiddleware": 585,
    # last before download: with NEWSCRAWL_REQUEST_LOG=path, every fetched URL is written there
    "newscrawl.crawl.safety.RequestLedgerMiddleware": 1000,
}
SPIDER_MIDDLEWARES = {
    # Scrapy's warning, once, when a spider copies Scrapy's internal keys from response.meta into a new
    # request: this spider builds each request's meta anew (NewsSpider._meta), and the check wraps every
    # callback's output in one more async generator, per request and item yielded
    "scrapy.spidermiddlewares.metacopy.MetaCopyDetectionMiddleware": None,
}
ITEM_PIPELINES = {
    "newscrawl.crawl.pipelines.ExtractPipeline": 300,
    "newscrawl.crawl.pipelines.DuplicatePipeline": 400,
    "newscrawl.store.incremental.IncrementalPipeline": 900,  # what passes it is written and recorded
    "newscrawl.crawl.pipelines.ArticleCountPipeline": 1000,  # last: counts what passed all the others
}
SPIDER_CONTRACTS = {"newscrawl.crawl.contracts.SiteUrlContract": 10}
EXTENSIONS = {
    "newscrawl.report.progress.ProgressLogExtension": 500,
    "newscrawl.report.progress.SiteSummaryExtension": 510,
    "newscrawl.render.extension.RenderExtension": 515,
    # incremental state, crash-safe output, resume and Redis (README "Running on a server", docs/operations.md)
    "newscrawl.store.incremental.StateExtension": -20,
    "newscrawl.store.resume.JobDirGuardExtension": -10,
    "scrapy.extensions.feedexport.FeedExporter": None,
    "newscrawl.store.jsonl.DurableFeedExporter": 0,
    "newscrawl.store.redis_support.RedisIdleCloseExtension": 520,
    "newscrawl.store.redis_guard.RedisDataLossExtension": 525,  # with REDIS_URL: stop when Redis lost the queue
    "newscrawl.run.gctune.GcTuningExtension": 530,
    "newscrawl.crawl.shutdown.ShutdownExtension": 540,  # a stopped crawl cancels its downloads after a grace
}
# Young-generation gc threshold after start-up objects are frozen (gctune.py, which says what it bought);
# 0 keeps Python's (700). Each young collection also pays a part that does not shrink with the threshold
# and grows with the sites: at 10,000 the collector's time was what grew per request. 100,000 rather than
# 10,000: the next hour of python3 benchmarks/hourly_cycle.py --sites 3000 took 76.5 s of the crawl
# process's CPU against 86.4 s (the collector's 1.9 s against 5.9 s), peak RSS 599 MB against 578 MB
# (docs/MEASUREMENTS.md, "The hourly cycle at scale")
NEWSCRAWL_GC_THRESHOLD = 100_000
ADDONS = {"newscrawl.store.redis_support.RedisAddon": 0}  # with REDIS_URL: scrapy-redis scheduler and dupefilter
DUPEFILTER_CLASS = "newscrawl.schedule.dupefilter.DiskDupeFilter"  # on disk: memory stays flat on long crawls
SCHEDULER = "newscrawl.schedule.scheduler.SpillingScheduler"  # pending requests on disk, also without JOBDIR
# Hosts and priority levels take turns at a constant cost per request, and a disk queue is one file
# (newscrawl/schedule/hostqueue.py); Scrapy's DownloaderAwarePriorityQueue scans every host per request
SCHEDULER_PRIORITY_QUEUE = "newscrawl.schedule.hostqueue.HostTurnsQueue"
NEWSCRAWL_SPILL_QUEUE = True  # False: Scrapy's in-memory queue when there is no JOBDIR

# Scrapy's "Crawled" / "Scraped from" messages skipped below LOG_LEVEL instead of built and discarded
LOG_FORMATTER = "newscrawl.run.logformat.LevelAwareLogFormatter"
# The stats logged at the end leave out the per-site counters (the site summary file has them)
STATS_CLASS = "newscrawl.report.crawl_stats.SiteSummaryStatsCollector"

# --- output ---------------------------------------------------------------------
# Directory the crawl's relative paths resolve under: the sites file, NEWSCRAWL_OUTPUT_DIR and the
# summaries, STATE_PATH and its lock, NEWSCRAWL_TEMPLATES_DIR (newscrawl/config/paths.py). None: the
# environment variable NEWSCRAWL_HOME, else the working directory. Set it under scrapyd.
NEWSCRAWL_HOME = None
FEED_EXPORT_ENCODING = "utf-8"
# With no -o/-O, NewsSpider writes JSONL to NEWSCRAWL_OUTPUT_DIR/<spider>-<UTC time>.jsonl.
NEWSCRAWL_OUTPUT_DIR = "output"
NEWSCRAWL_DURABLE_JSONL = True  # the crash-safe JSONL writer (jsonl.py); False: Scrapy's feed exporter
NEWSCRAWL_SUMMARY_ENABLED = True  # the per-site summary file at the end of a run (progress.py)
NEWSCRAWL_SUMMARY_PATH = None  # None: beside the output (progress.summary_path_for)

# --- newscrawl ------------------------------------------------------------------
NEWSCRAWL_MAX_PAGES = 1000  # HTML pages per site unless the site sets max_pages
NEWSCRAWL_MAX_DEPTH = 4  # link hops from a start page unless the site sets max_depth
NEWSCRAWL_MAX_QUERY_VARIANTS = 20  # distinct query strings per path (filters, session ids)
NEWSCRAWL_MAX_PER_SHAPE = 50  # distinct non-article URLs per digit-collapsed path (calendars)
NEWSCRAWL_MAX_SITEMAPS = 50  # sitemap files per site, index entries included
# Longest link or listed URL followed, in characters; longer ones are counted rejected/url_too_long.
# 2048: the sitemap protocol's bound on a URL (sitemaps.org, "less than 2,048 characters").
NEWSCRAWL_MAX_URL_LENGTH = 2048
NEWSCRAWL_EXTRACT_ENABLED = True  # extract articles; False: the crawl only fetches (no items)
NEWSCRAWL_EXTRACT_WORKERS = -1  # extraction processes; -1: CPU count - 1, 0: in the Scrapy process
# Options of newscrawl.extract for the crawl (a dict, or a JSON object with -s): names and values as
# ExtractOptions declares them; an unknown name stops the crawl before it starts (config_check.py)
NEWSCRAWL_EXTRACT_OPTIONS = {}
# A page without article markup whose text is more than this share links is a list page (0..1).
# None: the extractor's cut-off (ExtractOptions.max_article_link_density, with NEWSCRAWL_EXTRACT_OPTIONS)
NEWSCRAWL_MAX_LINK_DENSITY = None
# Main-text chars an undated page of an unknown-kind URL needs to count as an article (classify.py)
NEWSCRAWL_MIN_UNKNOWN_CHARS = 300
NEWSCRAWL_DEDUP_ENABLED = True  # drop an article whose canonical URL was already emitted in this run
NEWSCRAWL_PROGRESS_ENABLED = True  # progress log lines
NEWSCRAWL_PROGRESS_INTERVAL = 60.0  # seconds between progress log lines
# Site templates learned from similar pages during the crawl (templates.py): on/off, where they are
# kept between runs, and article pages of a URL group seen before its template is learned
NEWSCRAWL_TEMPLATES_ENABLED = False
NEWSCRAWL_TEMPLATES_DIR = ".newscrawl/templates"
NEWSCRAWL_TEMPLATES_LEARN_AFTER = 3

# --- rendering (newscrawl.render; README "Rendering JavaScript") -------------------------------------
# Used only when a site has render: always or auto. The spider then installs
# newscrawl.render.handler.RenderDownloadHandler for http/https (requests without meta["playwright"] fall
# through it to Scrapy's HTTP/1.1 handler) and scrapy-playwright's memory extension, which adds the
# browser's processes to the MEMUSAGE_* checks.
NEWSCRAWL_CHROMIUM_PATH = None  # browser binary; None: $NEWSCRAWL_CHROMIUM_PATH, else /usr/bin/chromium
NEWSCRAWL_RENDER_WAIT_UNTIL = "load"  # page.goto() waits for: commit, domcontentloaded, load or networkidle
NEWSCRAWL_RENDER_SETTLE_MS = 1000  # then up to this many ms for the network to go quiet (0: no wait)
NEWSCRAWL_RENDER_QUIET_MS = 200  # quiet: no request of the page in flight for this long (networkidle: 500)
NEWSCRAWL_RENDER_IDLE_SECONDS = 20.0  # a site's browser context is closed after this long without a page
# navigations of one browser page before it is closed and replaced. Playwright keeps every request
# and response of a page (about 20 objects per navigation when requests were routed, in the driver and in Python)
# until the page closes, so a long-lived page grows; a new page costs ~110 ms of browser CPU
# (benchmarks/render_speed.py, 8 pages per site: RSS growth after page 100 with 50 navigations +12%,
# with 25 +6% to +17% over five runs, with 12 +5% but more browser CPU for the new pages)
NEWSCRAWL_RENDER_PAGE_REUSE = 25
# renders of one site's browser context before it is closed and a fresh one opened: the site's renderer
# process, which serves all its pages, ends with it. Its heap grew from ~260 MB at page 100 to 350-400
# MB by page 300-600 of benchmarks/render_speed.py (one site), whatever the page reuse; 0: never
NEWSCRAWL_RENDER_CONTEXT_REUSE = 150
NEWSCRAWL_RENDER_AUTO_MAX_TEXT_CHARS = 1000  # render: auto renders a no-article page with at most this text
NEWSCRAWL_RENDER_AUTO_MIN_SCRIPTS = 5  # ... and an app root element or at least this many scripts
# DevTools resource types a rendered page may fetch from public hosts outside its site's allowed_domains
# (scripts from a CDN build many pages); everything else (documents, frames, XHR, fetch) stays on the site
NEWSCRAWL_RENDER_OFFSITE_TYPES = ["Script"]
PLAYWRIGHT_BROWSER_TYPE = "chromium"
# no display, no sandbox (root in containers), no traffic of the browser's own (updates, sync, QUIC);
# renderer processes shared by the pages of all sites, at most one per CPU: Chromium otherwise starts
# one per page and site (15 for 4 sites on 2 CPUs), which costs memory (peak RSS of the tree 4.3 GB ->
# 2.7 GB) and CPU (309 -> 240-270 ms per page; benchmarks/render_speed.py). Site isolation protects a
# user's data from other sites' pages; a crawler's browser holds none, and every site still gets its
# own context (cookies, storage, cache). V8's young generation in the renderers is kept at 1 MB
# semi-spaces: left to grow (to 16 MB and more), the renderer processes grew ~110 MB between
# page 100 and 300 of benchmarks/render_speed.py, with this ~20 MB, at no cost in pages/s.
PLAYWRIGHT_LAUNCH_OPTIONS = {"headless": True, "args": [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-site-isolation-trials", f"--renderer-process-limit={max(2, os.cpu_count() or 2)}",
    "--js-flags=--max-semi-space-size=1"]}
PLAYWRIGHT_MAX_CONTEXTS = 8  # browser contexts at once, one per rendering site; more sites take turns
# pages open at once in one context; a render waits ~0.3 s for the network to go quiet, so with 4 a
# site rendered at most ~8 pages/s on 2 CPUs; at polite per-domain concurrency (2) this is not reached
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT = 8
NEWSCRAWL_RENDER_MAX_PAGES = 0  # renders at once over all sites; 0: 4 per CPU (render/handler.py)
PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT = 20_000  # ms for page.goto(); a slower page counts as errors/timeout
# No PLAYWRIGHT_ABORT_REQUEST / PLAYWRIGHT_PROCESS_REQUEST_HEADERS: newscrawl.render.request_filter blocks
# images, media, fonts, CSS and private addresses, and gives navigations Scrapy's headers, without routing.
MEMUSAGE_WARNING_MB = 3072  # warn once when the crawl's memory (browser included) passes this

# --- incremental state and crash safety (newscrawl.store.incremental, newscrawl.store.jsonl) ---------
NEWSCRAWL_STATE_ENABLED = True  # remember emitted articles; emit only new ones each run
STATE_PATH = ".newscrawl/state.sqlite"  # SQLite state file (ignored with REDIS_URL); lock: <STATE_PATH>.lock
NEWSCRAWL_LOCK_PATH = None  # the run's lock file; None: <STATE_PATH>.lock (none with REDIS_URL or no state)
# Bit filter of the state's URL and band keys, in MiB (fixed: it fills, it does not grow): it answers
# most look-ups of keys the state does not hold without a query (keyfilter.py); 0 turns it off.
NEWSCRAWL_STATE_FILTER_MIB = 16
# Feeds, sitemaps and start pages kept for conditional requests (conditional.py): a body up to this many
# bytes (uncompressed) is kept, and all kept bodies together up to this many MiB compressed, the ones
# stored longest ago evicted first (state.DEFAULT_LISTING_CACHE_MIB says where the bound comes from)
NEWSCRAWL_MAX_CACHED_LISTING_BYTES = 4 * 1024 * 1024
NEWSCRAWL_LISTING_CACHE_MIB = 32
# Days a page judged no article for a reason about the page (crawl_patterns.REMEMBERED_DROP_REASONS:
# too short, no body...) is not fetched again; 0: every page is fetched every run. At most
# NEWSCRAWL_MAX_REMEMBERED_DROPS URL keys are kept, the oldest forgotten first (state.py says where
# both come from); `state_admin prune` forgets the expired ones.
NEWSCRAWL_REMEMBER_DROPS_DAYS = 7.0
NEWSCRAWL_MAX_REMEMBERED_DROPS = 500_000
NEWSCRAWL_NEAR_DUPLICATE_JACCARD = 0.8  # estimated shingle Jaccard marking a near-duplicate (fingerprint.py)
NEWSCRAWL_JSONL_SYNC_SECONDS = 1.0  # fsync the JSONL output this often
NEWSCRAWL_JSONL_SYNC_ITEMS = 200  # ... or after this many lines
# Record the synced articles in the state this often, or once this many wait (batches: jsonl._records_due)
NEWSCRAWL_STATE_RECORD_SECONDS = 10.0
NEWSCRAWL_STATE_RECORD_ITEMS = 2000
# Write those batches from a child process (recorder.py), off the event loop's core; 0: from a thread
NEWSCRAWL_STATE_RECORDER_PROCESS = True
REDIS_URL = None  # redis://host:port/db: share the queue, dupefilter and state through Redis (redis_support.py)
# --- article sinks (newscrawl.store.sinks; README "Feeding an index") ------------------------------
# Each gets every article written to the JSONL output, committed before the state records it.
NEWSCRAWL_ARTICLES_DB_ENABLED = True  # the SQLite article store with full-text search (newscrawl.store.search)
ARTICLES_DB = None  # its file; None: articles.sqlite in the directory of STATE_PATH
POSTGRES_URL = None  # postgresql://user@host/db: also upsert every article into PostgreSQL
# Keep only the sinks: with no -o/-O the JSONL goes to a journal beside the state, deleted at the end
NEWSCRAWL_ONLY_SINKS = False
NEWSCRAWL_REDIS_PREFIX = "newscrawl"  # Redis keys of the shared queue, dupefilter and state
NEWSCRAWL_REDIS_IDLE_SECONDS = 30.0  # a Redis crawler closes after the shared queue stayed empty this long
