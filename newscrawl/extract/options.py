"""Every threshold of the extractor, in one frozen dataclass.

Values marked "tuned" were calibrated together on the development sets in
../shared/eval (cx_zh, cx_bbc, dragnet, cleaneval, cleanportaleval) with
``python3 benchmarks/accuracy.py`` on 2026-11-22; re-tune them as a set.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class ExtractOptions:
    # --- input guards -------------------------------------------------------
    # Pages larger than this are not parsed (reason "too_large"), in bytes/chars.
    # 10 MB covers the largest real article pages we have seen (~3 MB) with margin.
    max_input_chars: int = 12_000_000
    # Elements above this count are not scored (reason "too_large"); bounded time.
    max_elements: int = 300_000
    # A start tag with more attributes than this is refused before parsing (reason "too_large"):
    # libxml2 checks attribute names pairwise, 20,000 on one element took 3.5 s and 50,000 took 32 s
    # (lxml 6.1.3, 2 cores, tests/test_extract_limits.py, 2026-11-22); real pages stay under 100.
    max_attributes_per_element: int = 2_000
    # Wall-clock budget of one extract call, in seconds, read between steps (parse, metadata,
    # cleaning, scoring); past it the page gets reason "too_large". 30 s is ~1000x the median page
    # (benchmarks/speed.py) and keeps one hostile page from stalling a crawl worker.
    max_seconds: float = 30.0

    # --- pre-cleaning -------------------------------------------------------
    # Remove blocks whose class/id names boilerplate (Readability's unlikely-candidate rule).
    remove_unlikely: bool = True
    # A block named like boilerplate is removed before the density pass only when its counts agree
    # (names.judge_named_blocks): it is kept as a suspect when at most this share of its text is
    # in links,
    name_keep_max_link_density: float = 0.3
    # and it (or all blocks of its name together, names.name_key) holds at least this share of the
    # page's non-link text and this many paragraphs, for a name that is a whole token ("sidebar",
    # "paywall"): without it (share 2.0) fundus-dev token F1 -0.0042 (TheNewYorker's paragraphs
    # named "paywall"), cleaneval -0.0008 (one site), dragnet -0.0001 (3 pages), the others unchanged,
    name_keep_whole_min_share: float = 0.5
    name_keep_whole_min_paragraphs: int = 3
    # or these, for a name met only inside a compound (a BEM modifier, a page builder's box, a
    # layout): without it (share 2.0) realworld-trafilatura snippet F1 -0.031 and pages passing
    # -0.035 (5 sites: Elementor widgets, "c-fixed-sidebar-layout", "o-section--has-ads",
    # "TestReport__Section--Ads", "share-zone"), fundus-dev -0.0032 (PoliticoEu's
    # "sidebar-grid__container"), the seven older sets unchanged.
    name_keep_part_min_share: float = 0.1
    name_keep_part_min_paragraphs: int = 2
    # A density candidate inside a suspect scores this share of its score (the name's evidence): at
    # 1.0 fundus-dev -0.0074 (Reuters' cookie-consent text, longer than its brief story, won),
    # cleaneval -0.0008 (one site), realworld-trafilatura snippet F1 +0.0027 (one page).
    named_suspect_score_factor: float = 0.2
    # Inside the chosen article, a suspect (with the others of its name) is dropped unless it
    # styles the text (content._names_text_style) and holds at least this share of the article's
    # non-link text: at 0.5 realworld-trafilatura snippet F1 -0.0028 (an Elementor page's widgets),
    # the other sets unchanged.
    named_box_min_share: float = 0.3
    # Figures above: ``benchmarks/accuracy.py --option name_keep_whole_min_share=2.0`` and so on,
    # against the defaults (2026-11-27). All of this rule against removing every named block:
    # fundus-dev 0.9037 -> 0.9160 (empty pages 2 -> 1), realworld-trafilatura snippet F1 0.827 ->
    # 0.858 and pages passing 0.453 -> 0.488 (8 sites up, none down), dragnet +0.0002, cleaneval
    # +0.0008, readability +0.0008, cx_zh, cx_bbc, cleanportaleval and htmltotext unchanged.
    # A <noscript> holding at least this many chars of text is kept (unwrapped): a page that
    # renders its article by script puts it there for readers without scripts. Token F1
    # htmltotext 0.849 -> 0.884, cleaneval +0.0005, dragnet +0.0002, others unchanged; 500 lost a
    # dragnet page, 200 cost readability 0.004 (JavaScript notices), 3000 lost a dragnet page
    # (score.py on the 7 sets of ../shared/eval, 2026-11-22).
    noscript_keep_min_chars: int = 1500
    # An element with the HTML ``hidden`` attribute is kept as the article (revealed.py: React
    # streaming's <div hidden id="S:1">, a paywall's <div hidden> served in full) when its <p> of
    # at least revealed_paragraph_chars chars hold at least revealed_min_chars chars, and
    # revealed_min_ratio times those of the page outside its hidden elements. Over the 9 sets of
    # ../shared/eval, the two pages where a `hidden` element holds more such prose than the
    # visible page are both of that kind (fundus-dev: 4851 chars against 0, 4731 against 1492);
    # the pages whose hidden-by-class or by-style blocks hold more (a header copy, a comment
    # thread, badge notices: readability, dragnet, cleanportaleval) are left out by the attribute.
    revealed_paragraph_chars: int = 80
    revealed_min_chars: int = 1000
    revealed_min_ratio: float = 2.0
    # When the page's markup gives no content (or less than min_article_chars of prose), a string
    # of its scripts with at least serialized_min_paragraphs <p> whose prose passes the same
    # revealed_* bounds is read as the page (serialized.py: Next.js flight data, a dehydrated
    # query cache). fundus-dev: the one page left empty (HankookIlbo, 3,950 chars of markup in a
    # script string) 0 -> 0.97 token F1; no page of the other sets of ../shared/eval changes
    # (their markup holds their content).
    serialized_min_paragraphs: int = 3
    # A block of at most read_also_max_chars chars opening with a "read also" label (patterns.py's
    # READ_ALSO_LABEL_RE) whose links hold at least read_also_link_share of the text after the label
    # points at another article and is dropped (pointers.py). fundus-dev: 11 such lines of 4
    # publishers (Nettavisen, DailyMaverick, DailyStar, EyethuNews), none in its gold texts, the
    # longest 122 chars: token F1 fundus-dev 0.93851 -> 0.93958, dragnet +0.00001, readability
    # -0.00006 (its gold, Readability.js output, keeps one "Lire aussi :" line), the other sets
    # unchanged (score.py on the sets of ../shared/eval, 2026-11-27).
    # The innermost block of at most this many chars holding a consent notice or a promotion
    # (patterns.CONSENT_NOTICE_RE, PROMO_NOTICE_RE) is furniture, dropped (notices.py); the longest
    # consent notice in fundus-dev is 763 chars. Consent notices: token F1 fundus-dev 0.93958 ->
    # 0.94024 (DieWelt, Tagesspiegel, ZDF up, none down), the other sets of ../shared/eval
    # unchanged; promotions: fundus-dev 0.94024 -> 0.94234 (14 pages of 10 publishers up, none
    # down), dragnet +0.00017, cleaneval +0.00007, the others unchanged (score.py, 2026-11-27).
    notice_max_chars: int = 1000
    read_also_max_chars: int = 300
    read_also_link_share: float = 0.5
    # A <form> holding at least this many <p> wraps the page (ASP.NET) and is kept.
    form_keep_min_paragraphs: int = 3
    # ... and so is a <form> holding at least this many chars of text (forum threads inside a
    # moderation form write posts without <p>; search, login and comment forms hold labels).
    # Token F1 htmltotext 0.831 -> 0.849, cleaneval 0.900 -> 0.904, other sets unchanged; the
    # same at 400 and 3000 (score.py --extractor newscrawl.extract:extract on the 7 sets of
    # ../shared/eval, 2026-11-22).
    form_keep_min_chars: int = 1000

    # --- density score (DEVELOPERS.md: text + symbol density) ---------------
    # Candidates with fewer non-link characters than this are not scored (chars).
    min_candidate_chars: int = 20
    # The paper's TD is a per-tag average, so a single long paragraph outscores the
    # article that holds it. Each candidate's score is multiplied by
    # log(T - LT) ** mass_weight to prefer the node holding more prose. Tuned: token F1
    # rose on every development set from 0 to 8 and fell on cx_zh/htmltotext at 12
    # (benchmarks/accuracy.py, 2026-11-22).
    mass_weight: float = 8.0
    # An element inside an <a> of at most this many chars is never the content node (its
    # text is a teaser's link text); a longer <a> is an unclosed tag stretched over the page.
    # Token F1 dragnet 0.9013 -> 0.9015, other sets unchanged; with no length limit cleaneval
    # fell 0.0012 on such unclosed tags (score.py on the 7 sets of ../shared/eval, 2026-11-22).
    link_max_chars: int = 1000
    # An element named like an article body (class in ARTICLE_BODY_CLASS_TOKENS, or
    # itemprop="articleBody") replaces the best-scoring node when neither holds the other (the
    # density score chose a sidebar's "about me" box or blog description over a short post) and it
    # holds at least this share of the best node's non-link chars (a feed of tweets marked up as
    # entries, 0.15 of the article's chars, does not win). Token F1 dragnet 0.9085 -> 0.9200 (23
    # pages up, none down), the other six sets unchanged; 0.15 gave 0.9212 (3 more pages) but lies
    # next to the tweet feed's 0.148, 0.1 lost that page, 0.25-0.45 gave 0.9195
    # (``benchmarks/accuracy.py --data dragnet --option body_name_min_share=0.15``, 2026-11-22).
    body_name_min_share: float = 0.2
    # The JSON-LD articleBody as a check on the choice (declared.py): a declared body of at least
    # declared_body_min_chars chars is read; text runs of the page of at least
    # declared_run_min_chars chars found in it locate the element covering it; when the chosen
    # content holds less than declared_min_coverage of the body's word trigrams and that element
    # holds more, the element is the content node. Token F1 fundus-dev 0.9167 -> 0.9214 (4 sites up,
    # none down; 37 of its 129 pages declare a body), readability +0.0003 (one page), the other sets
    # unchanged, their pages declaring none (score.py on the 9 sets of ../shared/eval, 2026-11-27).
    # Narrowing a content node that holds the element to the element lost leads left out of the
    # declared body (fundus-dev up 0.0007 but htmltotext down, realworld-trafilatura one page down).
    declared_body_min_chars: int = 200
    declared_run_min_chars: int = 30
    declared_min_coverage: float = 0.5
    # What follows that element inside the content is cut when the element holds at least this
    # share of the body's word trigrams (content.cut_after_declared).
    declared_complete_coverage: float = 0.9
    # Drop <figcaption> from the body. Tuned: token F1 +0.02 on cx_bbc, +0.002 on
    # readability, neutral elsewhere; dropping every class="*caption*" block instead
    # cost 0.014 on cleanportaleval (benchmarks/accuracy.py, 2026-11-22).
    drop_captions: bool = True
    # A gallery's caption repeated by its markup (captions.py): the text of a picture's unit, its
    # nearest ancestor with text at most this many levels up (a slide wraps its picture and its
    # caption in a box each), of at most this many chars (two sentences). The rule (off with
    # repeated_caption_max_chars=0): token F1 fundus-dev +0.0003 (FreiePresse, ZDF, The Sun), dragnet
    # +0.0002 (ten sites' photo credits and captions), cx_bbc -0.0002 ("Media playback is
    # unsupported" under each video, in its gold), cleanportaleval, htmltotext and readability
    # -0.0001, cleaneval and realworld-trafilatura unchanged: every set the same at the 3 decimals of
    # benchmarks/accuracy.py; the 4th from score.py's token F1 over the same extractions (2026-11-27).
    caption_unit_max_levels: int = 3
    repeated_caption_max_chars: int = 300
    # A block named as a caption or credit beside one picture (named_captions.py): at most this many
    # chars (two sentences, as repeated_caption_max_chars), in a unit of the picture holding at most
    # this many chars beside it; 0 turns the rule off. The rule, with and without
    # (`python3 benchmarks/accuracy.py --per-site --option named_caption_max_chars=0`): token F1
    # fundus-dev +0.0037 (13 pages of 11 publishers up, none down), cx_bbc +0.0007, htmltotext
    # +0.0002, readability -0.0001 (one page: its gold keeps a lead photo's caption), dragnet and
    # cleaneval -0.00002, the others unchanged (score.py's token F1 over the same extractions,
    # 2026-11-27). A caption-named <p>, or one set in a table or a definition list (Blogger's
    # "tr-caption", classic WordPress's "wp-caption-dd"), is left: cleanportaleval -0.0043,
    # readability -0.0004 and htmltotext -0.0024 with them (the older golds keep those captions).
    # The same bound holds for the text of a picture's unit named as a picture's box (any words:
    # "mediaSubtitleText", "lightbox__description"), when no <p> holds it: fundus-dev +0.0008 more
    # (10 pages of 10 publishers up, none down), readability -0.0002 (one page's lead caption),
    # cx_bbc +0.0001, dragnet +0.00002, the others unchanged; with the unit's <p> too,
    # cleanportaleval -0.0023 (WordPress captions its gold keeps).
    named_caption_max_chars: int = 300
    # Fact boxes (fact_boxes.py) leave the text when all the boxes so named hold less than this share
    # of the content's chars together (a job board's offers, each an "infobox", are the content).
    # The rule: token F1 fundus-dev +0.0021 (4 pages of 4 publishers up: Nettavisen, Hessenschau,
    # BerlinerMorgenpost, APNews; none down), cleaneval -0.00002 (one page: a
    # newspaper's "Volunteers needed" box its gold keeps), htmltotext +0.0006, the others unchanged
    # (score.py's token F1 over the same extractions, 2026-11-27).
    fact_box_max_share: float = 0.5
    # A block named as a kicker (kickers.py) leaves the text when it holds at most this many chars
    # (a label, not a lead); 0 turns the rule off. Token F1 fundus-dev +0.0005 (14 pages of 11
    # publishers up, none down), dragnet +0.00002, htmltotext +0.00002, readability +0.00001, the
    # others unchanged (score.py's token F1 with and without, 2026-11-27).
    kicker_max_chars: int = 80

    # --- anchor/form block rules (DEVELOPERS.md, numbers from the source paper) --
    # A block with more than this many links and non-anchor/anchor text ratio below
    # nav_text_ratio is link navigation.
    nav_min_links: int = 1
    nav_text_ratio: float = 1.0
    # ... unless it has a run of more than this many non-anchor chars,
    nav_keep_run_chars: int = 40
    # ... or more than this many non-anchor chars with fewer than nav_keep_max_links links,
    nav_keep_long_chars: int = 300
    nav_keep_max_links: int = 20
    # ... or more than this many non-anchor chars exceeding the anchor chars.
    # (The paper's fourth exception, 3+ consecutive non-anchor texts, is not implemented.)
    nav_keep_dominant_chars: int = 200
    # A block that is one link with at most this many non-link chars ("Read more:") is a
    # link teaser, pruned like navigation (our extension of the anchor rule).
    teaser_max_plain_chars: int = 20
    # ... except a <p> that is one link between paragraphs of the story: a prose paragraph before
    # it (more than nav_keep_run_chars chars outside links), a <p> after it (link_paragraphs.py).
    # Off/on: realworld-trafilatura snippet F1 0.8945 -> 0.9000, pages passing 53 -> 55 of 86 (two
    # sites), token F1 cx_bbc +0.0005 (12 pages up, none down), dragnet +0.0004 (31 up, 6 down),
    # readability +0.0002 (4 up), cleaneval -0.0001 (7 up, 24 down: "Back to top", "Read the rest"
    # lines its gold leaves out), fundus-dev, cx_zh, cleanportaleval, htmltotext unchanged
    # (``benchmarks/accuracy.py --option keep_story_link_paragraphs=false``, 2026-11-27).
    keep_story_link_paragraphs: bool = True

    # --- related-stories list after the article ---------------------------------
    # A following sibling of the content that is a short list of story links, each with its date
    # (a date per headline), and at most related_max_label_chars chars of other text (its heading,
    # "More on this story") is kept with the article, unpruned: cx_bbc's gold ends with BBC's list on
    # 64 of the 111 pages showing one (cx_zh's with NetEase's, which cleaning removes). It holds
    # related_min_links to related_max_links links of at least related_min_headline_chars chars
    # (longer dated lists are archives and "most read" boxes). Token F1 cx_bbc 0.9490 -> 0.9664 (LCS 0.9600 -> 0.9765: 78 pages changed),
    # readability 0.9476 -> 0.9475 (one page: its "similar articles" box is not in Readability.js's
    # output), the other five sets unchanged. 2 links: cx_bbc 0.9638 (its gold leaves out BBC's
    # two-link boxes); 20 links: readability -0.0005 (a blog's "recent articles"); a date for 60% of
    # the headlines: readability -0.0002 more (a BBC box with "4 hours ago", not in Readability.js's
    # output) (``benchmarks/accuracy.py --option related_min_links=2``, ``--option related_max_links=20``,
    # 2026-11-22).
    related_min_links: int = 3
    related_max_links: int = 9
    related_min_headline_chars: int = 8
    related_max_label_chars: int = 40

    # A block inside the content with at least teaser_list_min_units headline links in headings
    # (blocks.is_teaser_list) and fewer than teaser_list_max_unit_chars chars of text for each is a
    # list of teasers (related or latest posts) and is pruned, when the content holds more text
    # outside such lists than in them (content._teaser_lists). Token F1 dragnet 0.9235 -> 0.9246
    # (19 pages up, none down), fundus-dev 0.9214 -> 0.9234 (4 sites up, none down), cleaneval
    # unchanged (2 pages of one site up, one of another down), snippet F1 realworld-trafilatura
    # 0.8267 -> 0.8350 (2 sites up), the other sets unchanged. Without the outside-text condition,
    # list pages were emptied: cleaneval -0.0035, cleanportaleval -0.0068 (score.py on the 9 sets
    # of ../shared/eval, 2026-11-27). Two units are a list too (a "Mehr zum Thema" box of two
    # teasers after the story): fundus-dev +0.0005 (MDR, NDR), dragnet +0.00006, readability
    # +0.00004, no page down (``benchmarks/accuracy.py --per-site --option teaser_list_min_units=3``
    # gives the figures without it, 2026-11-27).
    teaser_list_min_units: int = 2
    teaser_list_max_unit_chars: int = 400
    # A teaser's heading is a headline link when links hold this share of its text: a kicker before
    # the link ("Risikofaktor Nahost: <a>Iran-Israel-Eskalation verunsichert Ölmarkt</a>") leaves the
    # link ~60% of it. 0.8 (the section-page share, index_heading_link_share): fundus-dev -0.00015
    # (ZDF), dragnet -0.00002 (``--option teaser_heading_link_share=0.8``, 2026-11-27).
    teaser_heading_link_share: float = 0.5
    # A heading whose unit (an ancestor up to teaser_unit_link_levels above it, holding no other
    # heading and fewer than teaser_list_max_unit_chars chars) ends with a link of at most
    # teaser_more_link_max_chars chars standing alone in its block ("weiterlesen", "Read more")
    # counts as a teaser headline too (blocks.teaser_headings). 4 levels: a headline in a grid
    # column of a header in a box. fundus-dev +0.00036 (Correctiv, its related box of three),
    # the other sets unchanged (``--option teaser_unit_link_levels=0`` turns it off, 2026-11-27).
    # A link with no text (an icon, a picture laid over a card) does not count: share bars' icons
    # made a blog's post and its "Share" box a list of two and emptied it (dragnet -0.0007).
    # No teaser list holds the content's longest paragraph (content._teaser_lists): without that
    # check, a short post under a linked title, beside a "next post" link, was taken for a list of
    # two (cleaneval -0.0001 and dragnet -0.00006, a page emptied in each).
    teaser_unit_link_levels: int = 4
    # An <article> nested in the content of fewer than teaser_card_max_chars chars (as a teaser
    # list's unit) that a link without text covers, or whose heading is a headline link, is a
    # teaser card of another story set in or after the story (a kicker and headline over an
    # excerpt and a picture), and is pruned (content._teaser_cards). Token F1 fundus-dev 0.95267
    # -> 0.95380 (SZ, ZDF two pages, MotorSportMagazin's "Auch interessant" cards up; ABC down: its
    # gold keeps one "Noticia relacionada" excerpt); the heading alone gave 0.95331; dragnet,
    # readability, cleaneval, cleanportaleval, cx_bbc, cx_zh, htmltotext and realworld-trafilatura
    # unchanged. Without the condition that the content holds more text outside the cards than in
    # them, a front page of cards was emptied (readability -0.0032). Figures: score.py's token F1
    # over the sets of ../shared/eval with ``--option teaser_card_max_chars=0`` (off) and without
    # (2026-11-28).
    teaser_card_max_chars: int = 400
    teaser_more_link_max_chars: int = 20

    # The author's bio after the story (bios.drop_author_bio): the outermost box of at most
    # author_bio_max_chars chars holding the last mention of an author's name (authors.py; names of
    # at least author_bio_min_name_chars chars), that mention within the text's last
    # author_bio_max_chars chars, the name within the box's first author_bio_name_lead_chars, the
    # box author_bio_min_extra_chars chars longer than the name, and the text
    # author_bio_story_share times the box's length. Token F1 fundus-dev 0.94425 -> 0.94516
    # (IsraelNachrichten, OccupyDemocrats, Reuters two, TagesAnzeiger up, none down), dragnet
    # 0.92581 -> 0.92622 (15 pages up: Ars Technica, Wired, blogs' author boxes; none down),
    # readability +0.00013, cleaneval +0.00002, the other sets and realworld-trafilatura unchanged
    # (``benchmarks/accuracy.py --per-site --option author_bio_max_chars=0`` turns it off,
    # 2026-11-27). Paragraphs and lists allowed as boxes too: cx_bbc -0.0003, htmltotext -0.0004
    # (their golds keep "You can follow ... on Twitter", "Mit Informationen von ..."); without the
    # lead, a story's last paragraph signed "..., Die Redaktion" went (realworld snippet F1 -0.003).
    author_bio_max_chars: int = 400
    # A box whose class or id names an author's (patterns.AUTHOR_BOX_NAME_RE: "authorbox",
    # "author-box" beside a "main-box" class) may be this long, the author's last mention as far from
    # the text's end: a bio of two or three paragraphs (900 and 1,000 chars on realworld-trafilatura's
    # two such pages). realworld-trafilatura snippet F1 0.9000 -> 0.9045, pages passing 55 -> 56 of
    # 86 (two sites' bio boxes gone), fundus-dev and the seven older sets unchanged, no page of them
    # changed. Such a named box that ends the content, of author_bio_min_extra_chars to this many
    # chars and with the text author_bio_story_share times its length, goes also when no author's
    # name is known (bios.drop_named_author_box): realworld-trafilatura 56 -> 57 pages passing
    # (snippet F1 0.9045 -> 0.9068), dragnet 0.92664 -> 0.92674 (7 pages up: blogs' author boxes,
    # none down), fundus-dev +0.00003 (LaVanguardia), the other sets unchanged.
    # ``benchmarks/accuracy.py --option author_bio_named_max_chars=0`` turns both off (2026-11-27).
    author_bio_named_max_chars: int = 1500
    author_bio_min_extra_chars: int = 30
    author_bio_story_share: float = 4.0
    author_bio_min_name_chars: int = 5
    author_bio_name_lead_chars: int = 80

    # A block inside the content with at least panel_min_elements elements and fewer than
    # panel_max_chars_per_element chars of text per element, none in a run longer than
    # nav_keep_run_chars, is a control panel (a video player's menus) and is pruned (tables
    # excepted: tabular data has short cells). Token F1 with 20 and 3.0: cx_zh +0.0016, htmltotext
    # +0.0023, dragnet +0.0004, readability +0.0003, others within 0.0001; 2.5 and 4.0 both gave
    # htmltotext 0.002 less (one page), 12 elements the same, 30 lost that page (score.py on the
    # 7 sets of ../shared/eval, 2026-11-22).
    panel_min_elements: int = 20
    panel_max_chars_per_element: float = 3.0

    # --- sibling gathering and pruning (tuned) ------------------------------
    # A block inside the chosen node is link-dense when link chars / chars exceeds this.
    prune_link_density: float = 0.5
    # Climb from the best node to its parent while the node holds less than this
    # share of the parent's non-link text and the parent is not link-dense.
    climb_min_share: float = 0.6
    # Link density above which a parent is not climbed to; a best node this link-dense that holds
    # an element named like an article body gives way to it (see body_name_min_share): token F1
    # dragnet 0.9210 -> 0.9222 (6 pages up, none down), the other sets unchanged; 0.25 the same,
    # 0.5 0.9218, 0.15 0.9227 with 4 pages down (``benchmarks/accuracy.py --data dragnet --option
    # climb_max_link_density=0.25``, 2026-11-22).
    climb_max_link_density: float = 0.35
    # An article body split over alike body-named elements in separate wrappers (a story's
    # "story-body-1" and "story-body-2", each followed by its aside: the climb stops at the aside's
    # links) is taken whole: the parts up to body_parts_max_levels levels above the content node
    # with at least body_parts_min_chars chars of non-link text each (content.body_parts). Token F1
    # readability 0.9494 -> 0.9502 (one page), the other six sets unchanged; 4 levels or 100 chars
    # the same; with parts beside the content node too (siblings) and 80 chars: a blog's welcome box
    # named "entry" joined a dragnet post (-0.05 on the page) and a related box a readability page
    # (``benchmarks/accuracy.py --option body_parts_max_levels=4``, ``--option body_parts_min_chars=100``,
    # 2026-11-22).
    body_parts_max_levels: int = 2
    body_parts_min_chars: int = 300
    # The content node, or one of its ancestors up to posts_max_levels up, that has at least
    # posts_min_count - 1 alike siblings (same tag and first class name) carrying prose is one
    # post of a thread: their parent is the content, when the alike siblings hold at least as
    # much non-link text as the node. Token F1 htmltotext 0.884 -> 0.899, cleaneval +0.0012,
    # dragnet +0.0002, others unchanged; 2 levels lost a dragnet page, a minimum of 4 posts gave
    # the same, and without the text condition dragnet fell 0.0006 (score.py on the 7 sets of
    # ../shared/eval, 2026-11-22).
    posts_max_levels: int = 3
    posts_min_count: int = 3
    # A sibling of the best node joins the article when its density score is at least
    # this share of the best score (Readability gathers siblings scoring >= 0.2 of the top),
    sibling_min_score_share: float = 0.2
    # or when it has at least this many non-link chars with punctuation (a paragraph),
    sibling_min_chars: int = 80
    # and never when more than this share of its text is in links. 0.2 (was 0.3): token F1
    # dragnet +0.0009, the other six sets unchanged. 0.1 gave +0.0019 over the sets (dragnet
    # +0.0011, readability and cleanportaleval +0.0003) but put cx_bbc's LCS F1 0.00007 under its
    # floor; 0.25 +0.0007, 0.4 -0.0011 (score.py on the 7 sets of ../shared/eval, 2026-11-22).
    sibling_max_link_density: float = 0.2

    # --- title and publish date ---------------------------------------------
    # A headline element shorter than this is never the title (chars); shorter
    # h1s are logos and section names (zh-gne, en pages checked by hand).
    title_min_chars: int = 4
    # An on-page headline must cover at least this share of the <title> left after
    # removing the site name, so that a section label inside <title> is not taken.
    title_min_share: float = 0.4
    # An element may show this many chars of labels besides the headline ("原创",
    # "独家", "Exclusive:") and still be the headline element (chars).
    title_max_label_chars: int = 12
    # Elements looked at as headline candidates (h1, h2, class/id title/headline), count.
    title_max_candidates: int = 40
    # A <title> part no longer than this share of the longest part is a site/channel
    # suffix ("_频道_新浪网", "| Site") and is dropped.
    title_suffix_max_share: float = 0.5
    # Dates before this year are not publish dates of a web page (the web's news
    # archives start ~1995; older dates are historical mentions), year.
    date_min_year: int = 1995
    # A date may lie this far after the fetch time and still count (page clocks in
    # UTC+14 versus a fetch time in UTC), hours.
    date_future_slack_hours: int = 26
    # Characters of visible text after the headline searched for the byline date.
    date_after_headline_chars: int = 500
    # Characters of visible text before the headline searched (dates shown above it).
    date_before_headline_chars: int = 120
    # Near the headline, a date inside a text run longer than this is prose or a photo
    # caption, not the byline, unless a publish label precedes it (chars).
    date_byline_max_run_chars: int = 100
    # Elements with a date-like class/id examined for a byline date, count.
    date_max_class_elements: int = 30
    # Characters of page text searched for a labelled date ("发布时间：...") when the
    # byline near the headline has none.
    date_text_scan_chars: int = 30_000
    # A page whose body is not read (too large, too many elements or attributes, no body) still
    # has its <head> read for the title and publish date: the text up to the first </head>
    # within this many chars (an ordinary head is 5-60 KB; its JSON-LD can reach ~200 KB).
    unread_head_max_chars: int = 400_000

    # Blocks of at most this many chars are checked against BOILERPLATE_LINE_START_RE and _ANYWHERE_RE (patterns.py).
    boilerplate_line_max_chars: int = 80
    # Blocks of at most this many chars are checked against FURNITURE_LINE_RE (patterns.py): a
    # trackback notice carries its URL and a "Listed below are links..." line. 200 (was 80, as
    # boilerplate lines): token F1 dragnet 0.9074 -> 0.9085, the other six sets unchanged; 300 gave
    # dragnet 0.9087 (one more site), left at 200 as a margin against prose opening like a notice
    # (``benchmarks/accuracy.py --data dragnet --option furniture_line_max_chars=300``, 2026-11-22).
    furniture_line_max_chars: int = 200

    # Blocks that are a date or time alone (TIMESTAMP_LINE_RE) are cut when the content holds at
    # most this many of them (a byline's); more are a thread's post dates, kept. With
    # FURNITURE_WHOLE_LINE_RE: token F1 fundus-dev 0.9234 -> 0.9260 (56 pages of 43 sites up, none
    # down), htmltotext +0.0009, cleaneval +0.0001, cx_bbc +0.0001, the others unchanged; snippet
    # F1 realworld-trafilatura 0.8350 -> 0.8413, pages passing 39 -> 42 (3 sites). Cutting every
    # bare date cost htmltotext 0.0027 (two forum threads) (score.py on the 9 sets of
    # ../shared/eval, 2026-11-27).
    timestamp_lines_max: int = 3
    # A block of at most this many chars of text that ends with a "read more" link is a teaser
    # (furniture.drop_read_more_teasers): an excerpt of another story. With "Lade weitere Inhalte"
    # as a furniture line: token F1 dragnet +0.0008 (21 pages up, none down), readability +0.0003,
    # fundus-dev +0.0003, realworld-trafilatura pages passing 55 -> 56 of 86 (jolie.de), the other
    # sets unchanged (score.py and score_cases.py on the 9 sets of ../shared/eval, 2026-11-27).
    teaser_max_chars: int = 400

    # --- result -------------------------------------------------------------
    # Fewer weighted chars of prose than this: no article (reason "too_short"). Prose is
    # the lines of at least prose_line_min_chars weighted chars (a sentence, not a label).
    min_article_chars: int = 150
    prose_line_min_chars: int = 60
    # A CJK character counts as this many characters when measuring length (it carries
    # about a word: English averages ~5 chars a word with its space, Chinese ~1.5 chars).
    cjk_char_weight: int = 3
    # Body length (weighted chars) and paragraph count at which the article score saturates.
    confident_article_chars: int = 1000
    confident_article_paragraphs: int = 4
    # The chosen content is a link list, not an article, above this link density (link chars / text
    # chars; link lists of the mock and demo sites are > 0.7, article pages < 0.3 with their
    # navigation). Also the crawl's list-page cut-off (newscrawl.crawl.classify.ClassifyOptions),
    max_article_link_density: float = 0.5
    # or with at least list_min_links links and a link density above list_link_density
    # (a section page of headline + teaser items).
    list_min_links: int = 8
    list_link_density: float = 0.25
    # A section front page (reason "section_page", no text): among the content's h2-h6 at least
    # index_min_linked_headings, and index_min_linked_share of them, are headline links (links
    # hold index_heading_link_share of the heading's text), with fewer than
    # index_max_chars_per_teaser chars of text per such heading (a teaser of a sentence or two). Its
    # teasers are no article: cleanportaleval's gold is empty on BBC News's section pages.
    # Token F1 cleanportaleval 0.9432 -> 0.9567 (2 pages), the other six sets unchanged. The next
    # pages, at 247-290 chars a heading, are a cleaneval "what's new" page whose teasers CleanEval's
    # gold keeps (300: cleaneval -0.0011, 3 pages), and pages where emptying gained only by the
    # scorer leaving empty outputs out of precision (dragnet 267, readability nytimes-5); share 0.7
    # missed a section page whose section labels ("Film", "Music") are headings too
    # (``benchmarks/accuracy.py --option index_max_chars_per_teaser=300``, 2026-11-22).
    index_min_linked_headings: int = 10
    index_min_linked_share: float = 0.6
    index_heading_link_share: float = 0.8
    index_max_chars_per_teaser: int = 200

    # --- line blocks (DEVELOPERS.md: line-block distribution, the cx-extractor method) --
    # Block thickness K: a block is this many consecutive text lines (cx-extractor's default).
    lineblock_lines: int = 3
    # A block must hold more than this many non-space chars to start the article, by script:
    # 186 for English pages (the value reported for English in the cx-extractor work) and
    # 86 for Chinese/Japanese/Korean pages (cx-extractor's default threshold, made for Chinese).
    lineblock_threshold: int = 186
    lineblock_threshold_cjk: int = 86
    # Page text with more than this share of CJK characters uses the CJK threshold.
    lineblock_cjk_share: float = 0.2
    # Text lines shorter than this (non-space chars) are dropped from the result ("|", "»").
    lineblock_min_line_chars: int = 5
    # Run line blocks when the density result is too thin (shorter than min_article_chars)
    # and keep theirs when it is longer. Off: it changed 1 page of 320 on cx_zh, cx_bbc and
    # cleanportaleval, and it turns list pages into "articles" (line blocks lose the links
    # that tell a list from a story): tests/pages/zh_list_page.
    lineblock_fallback: bool = False

    # --- source lines (shared by line blocks and site templates) ------------------------
    # A page whose source lines average more than this many chars is minified: it is split
    # into one element per block-level tag instead of one per line (chars; hand-written and
    # CMS pages of the development sets average 40-130).
    minified_line_chars: int = 400

    # --- site templates (DEVELOPERS.md: site templates from similar pages) ---------------
    # Templates are learned from c+1 similar pages; this is c.
    template_similar_pages: int = 2
    # URLs are alike when their longest common substring covers this share of the longer URL.
    template_url_similarity: float = 0.5
    # The article region grows from the longest-text element over page-specific text
    # elements separated by at most this many shared or textless elements (elements).
    template_region_gap: int = 8
    # ... counting only elements with at least this many chars of text (a headline or a
    # link list item does not extend the region; chars).
    template_region_min_chars: int = 40
    # Markers kept on each side (nearest first): a later one stands in when a nearer one is
    # missing or repeated on a page.
    template_max_markers: int = 3
    # The density output is cut to the template region when at least this share of its
    # weighted chars lies between the markers; below it they disagree badly and the
    # extraction inside the region replaces the density output.
    template_agree_share: float = 0.5
    # A cut before the region removes page furniture, never the story's opening: a block before
    # the first marker is kept when it has at least this many weighted chars and ends like a
    # sentence. Measured on cx_bbc: the first marker learned from other pages sometimes falls
    # inside a story's first paragraphs (bylines, fact boxes and intros vary per page), while
    # every line a cut rightly removed there was short (bylines, captions, "Media playback is
    # unsupported"). After the region, prose is cut as before (newsletter and editor's notes).
    template_keep_paragraph_chars: int = 100

    # --- content blocks (DEVELOPERS.md: anchor/form rules applied to VIPS-like blocks) ---
    # Remove navigation and form blocks before density scoring. Off: it did not raise
    # token F1 on the development sets (python -m newscrawl.extract.evaluate, README "methods").
    content_blocks: bool = False

    # --- reader comments (comments.py) -----------------------------------------
    # Append the prose of the page's reader comments after the article (text and html). Off: the
    # golds disagree on comments (realworld-trafilatura keeps them; dragnet, cleanportaleval,
    # readability, htmltotext, fundus-dev and this project's own page cases drop them), and no
    # form tried kept every older set near its floor with headroom left. Token F1 (snippet F1 /
    # pages passing on realworld-trafilatura), off -> on: realworld 0.9068 / 57 of 86 -> 0.9415 /
    # 67, dragnet 0.92677 -> 0.87203, cleanportaleval 0.95714 -> 0.92111, fundus-dev 0.95380 ->
    # 0.95209 (docs/MEASUREMENTS.md, 2026-11-28, "Reader comments": every form, per set).
    include_comments: bool = False
    # With it on, comments holding more than this many chars per char of the article are left out
    # (none by default). At 0.1: realworld 0.9177 / 61, dragnet 0.92543, fundus-dev 0.95303.
    comments_max_share: float = float("inf")
    # With it on, only comment areas inside the page's <main> or an <article>, whose comments are
    # list items or <article>s. With comments_max_share=1.0: realworld 0.9231 / 61 (4 pages of 4
    # sites), htmltotext 0.90668 -> 0.90207 (one page), dragnet 0.92667, readability 0.95665,
    # fundus-dev and the others unchanged; it also takes the comments of a news page's <main>.
    comments_in_main_only: bool = False
    # A block of a comment area with at least this share of its non-space chars in links is a link
    # line ("Reply", "Load more", a recent-comments widget's "Ann on <post title>"), not prose;
    comments_line_max_link_share: float = 0.5
    # an area with more than this share in links once those lines are gone is a list of links.
    # Readers' prose rarely holds links. Both from the recent-comments widgets that a first form
    # (all-link lines only) appended on 2 fundus-dev and 40 dragnet pages with every comment area
    # taken (docs/MEASUREMENTS.md, 2026-11-28, "Reader comments").
    comments_area_max_link_share: float = 0.3

DEFAULT_OPTIONS = ExtractOptions()
# The option names, read once (every extract call checks its keywords against them).
_OPTION_NAMES = frozenset(f.name for f in fields(ExtractOptions))


def make_options(base: ExtractOptions | None = None, /, **overrides) -> ExtractOptions:
    """``base`` (default: the defaults) with keyword overrides; an unknown name raises TypeError naming it.

    >>> make_options(min_article_chars=80).min_article_chars
    80
    >>> make_options(min_article_char=80)
    Traceback (most recent call last):
    TypeError: unknown extract option(s): min_article_char
    """
    if base is None:
        base = DEFAULT_OPTIONS
    elif not isinstance(base, ExtractOptions):
        raise TypeError(f"extract options must be an ExtractOptions, not {type(base).__name__}")
    unknown = sorted(set(overrides) - _OPTION_NAMES)
    if unknown:
        raise TypeError(f"unknown extract option(s): {', '.join(unknown)}")
    return replace(base, **overrides) if overrides else base
