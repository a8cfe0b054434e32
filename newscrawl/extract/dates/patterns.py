"""Vocabularies of the publish-date search: meta keys, labels, month names, regexes.

Every one has a name and is compiled once at import; the other modules of ``dates`` only
use them. Lists are ordered from specific to generic: the first source that yields a
valid date wins. The ways of writing a date in text are the entries of
``TEXT_DATE_FORMATS``, tried in their order; a month name is read from ``MONTH_NAMES``.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..named_attributes import AttributeTest

# JSON-LD keys holding the publish date, best first.
JSONLD_PUBLISHED_KEYS = ("datePublished", "dateCreated", "uploadDate", "pubDate")
# JSON-LD keys of a later edit: used only when nothing names the publish date.
JSONLD_MODIFIED_KEYS = ("dateModified",)

# Meta tag keys (lowercased name/property/itemprop/http-equiv) naming the publish date, best first.
META_PUBLISHED_KEYS = (
    "article:published_time",        # Open Graph article (most news CMSs)
    "og:published_time",             # Open Graph variant
    "article:published",             # WordPress plugins
    "datepublished",                 # schema.org microdata in <meta itemprop>
    "publishdate",                   # many CMSs
    "publish-date",                  # variant
    "publish_date",                  # variant
    "pubdate",                       # NYT, Chinese portals ("PubDate")
    "firstpublishedtime",            # qq.com / 163
    "apub:time",                     # sina
    "article.published",             # variant
    "article_date_original",         # older CMSs
    "original-publish-date",         # variant
    "cxenseparse:recs:publishtime",  # cXense
    "parsely-pub-date",              # Parse.ly
    "sailthru.date",                 # Sailthru
    "dc.date.issued",                # Dublin Core
    "dcterms.issued",                # Dublin Core terms
    "dc.date.created",               # Dublin Core
    "dcterms.created",               # Dublin Core terms
    "dc.date",                       # Dublin Core, generic
    "date",                          # generic <meta name="date">
    "created",                       # generic
    "pub_date",                      # variant
    "publication_date",              # variant
    "release_date",                  # variant
    "datecreated",                   # microdata
    "og:article:published_time",     # rare prefix form
    "citation_publication_date",     # scholarly pages
    "citation_date",                 # scholarly pages
    "weibo: article:create_at",      # weibo share meta
    "bt:pubdate",                    # variant
)
# Meta keys of a later edit, used after every publish source (and the URL) failed.
META_MODIFIED_KEYS = (
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dateupdate",
    "lastmod",
    "last-modified",
    "dc.date.modified",
    "dcterms.modified",
)

# Element attributes holding a machine-readable publish date.
MACHINE_DATE_KEYS = ("datetime", "content", "data-publishtime", "data-ptime", "data-time",
                     "data-date", "data-published")
# The tooltip, read last: a date written for people ("11:25 PM - 10 Jul 2020"), or an ISO
# one on a microformat <abbr class="published">.
TOOLTIP_DATE_KEY = "title"
ATTRIBUTE_DATE_KEYS = MACHINE_DATE_KEYS + (TOOLTIP_DATE_KEY,)

# Attributes marking the publish date explicitly (163 "data-ptime", HTML5 <time pubdate>);
# their elements hold the date (selected with named_attributes.select_attributes).
MARKED_DATE_ATTRIBUTES = tuple(AttributeTest(None, name)
                               for name in ("data-ptime", "data-publishtime", "data-pubtime"))
# The <time pubdate> test, added to the selection only on pages with such a <time>: the page's
# <time> elements are known without a walk (metadata.tagged_elements), and each XPath branch
# is a walk of the whole tree (~0.05 ms a page of ../shared/eval, 2026-11-22).
PUBDATE_TIME_ATTRIBUTES = (AttributeTest("time", "pubdate"),)
# The names of MARKED_DATE_ATTRIBUTES's attributes from their "-p", in any case (as libxml2 reads
# names): a page whose text holds no match after "data" has none of them, and the XPath
# (three walks of the tree, 0.12 ms a page of ../shared/eval, 2026-11-23) is not run. Its
# literal "-" lets the regex skip to each hyphen (0.05 ms a page).
MARKED_DATE_NAME_END_RE = re.compile(r"-p(?:time|ublishtime|ubtime)", re.I)
MARKED_DATE_NAME_START = "data"
# schema.org itemprop values marking the publish date, beside MARKED_DATE_ATTRIBUTES.
MARKED_DATE_ITEMPROPS = ("datePublished", "dateCreated")
# The class token marking the publish date (hAtom "published"), beside MARKED_DATE_ATTRIBUTES.
PUBLISHED_CLASS_TOKEN = "published"
# Words (case-sensitive) of class and id values naming a date or byline box; the values
# holding one are checked again with DATE_CLASS_RE.
DATE_CLASS_WORDS = ("date", "Date", "time", "Time", "byline", "info", "meta", "source", "pub")
DATE_ID_WORDS = ("date", "Date", "time", "Time", "pub", "info")
# The class/id tokens of those elements that really name a date or byline box. Searched in
# the lowercased value: a case-insensitive pattern is ~3x slower on every class name.
DATE_CLASS_RE = re.compile(
    r"date|time(?!line)|pub|byline|dateline|(?:art|article|post|news|entry|info|detail)[-_]?(?:info|meta|source|attr)"
    r"|^info$|^meta$|^source$"
)
# Tags of blocks whose dates are not the page's, whatever their names (page furniture). The
# compiled text walks ask the date search about these and about elements with a class or id
# only (``_fastwalk.set_foreign_block_tags`` takes this set).
FOREIGN_BLOCK_TAGS = frozenset({"footer", "aside", "nav"})
# Class/id tokens of blocks whose dates are not the page's (comments, related lists),
# searched in the lowercased "class id" of an element.
_NOT_ARTICLE_NAMES = (
    r"comment|reply|related|recommend|(?:news|article|post|item|link)[-_]?list|sidebar|tie-|cmt"
)
# Bare "list", "hot" and "rank" tokens, and "footer": also styling names ("clean-list",
# "inline-list" on a byline row) and component footers ("card-footer" under a headline
# holding the byline), so a block named only by them counts as foreign only when it is
# link navigation (the anchor rule of blocks.py), as page footers and link lists are.
_LIST_NAMES = r"(?:^|[\s_-])(?:hot|rank|list)(?:$|[\s_-])|footer"
NOT_ARTICLE_CLASS_RE = re.compile(_NOT_ARTICLE_NAMES + "|" + _LIST_NAMES)
NOT_ARTICLE_STRONG_CLASS_RE = re.compile(_NOT_ARTICLE_NAMES)
# "datePublished" written in a JSON-LD block that is not valid JSON (trailing commas, raw newlines).
RAW_JSONLD_PUBLISHED_RE = re.compile(r'"(?:datePublished|dateCreated)"\s*:\s*"(?P<value>[^"]{6,40})"')

# Labels of a later edit just before a date.
# Whole words with their inflections (a word's letters may follow: "actualizado", "aktualisiert").
# European languages beside English, Chinese and Russian: de aktualisiert/geändert, nl bijgewerkt,
# is uppfært, no oppdatert, da opdateret, sv uppdaterad, it aggiornato, pl zaktualizowano, cs
# aktualizováno, tr güncellendi, fi päivitetty, hu frissítve, ko 수정/업데이트. fundus-dev date
# accuracy +1 page (an Icelandic dateline "11.2.2025 | Uppfært 12.2.2025"), the other date sets
# unchanged (the metadata sets of benchmarks/accuracy.py).
_UPDATE_LABEL_WORDS = (
    r"(?:updated?|modified|last\s+edit|更新|修改|修订|actualiza|atualiza|mis\s+à\s+jour|обновлен|"
    r"изменен|aktualisiert|zuletzt\s+geändert|geändert|bijgewerkt|gewijzigd|uppfært|oppdatert|"
    r"opdateret|uppdater|aggiornat|zaktualizowan|aktualizován|güncellen|päivitetty|frissítve|"
    r"수정|업데이트)\w{0,4}"
)
# Text of the elements whose date is not the publish date (copyright, updates, comments).
# A label may be followed by one short word ("updated on", "aktualisiert am", "mis à jour le")
# and by the clock time written before the day ("Updated 20:49, 5 Aug 2024": fundus-dev date
# accuracy +1 page, a live page whose byline box holds that stamp; the other date sets unchanged).
_LABEL_TAIL = r"(?:\s+\w{1,3})?\W{0,3}(?:\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?\W{0,3})?\Z"
NOT_PUBLISH_CONTEXT_RE = re.compile(
    r"(?:©|copyright|\(c\)|版权|備案|备案|ICP|" + _UPDATE_LABEL_WORDS + r"|"
    r"joined|registered|member\s+since|注册|註冊|加入)" + _LABEL_TAIL,
    re.I,
)
# An update label in a date's match or right after it, on Japanese and Korean pages (they write
# it there: "2025年1月9日 更新", which the weekday group of the CJK pattern may take in): such a
# date is a later edit whatever label stands before it. Searched up to UPDATE_AFTER_DATE_CHARS
# past the match. Chinese portals write "2005-04-05 06:40更新" for the publish time (4 pages of
# zh-cwced), so the languages are named.
UPDATE_AFTER_DATE_LANGS = ("ja", "ko")
UPDATE_AFTER_DATE_RE = re.compile(r"更新|修正|改訂|수정|업데이트")
UPDATE_AFTER_DATE_CHARS = 6
# The update labels alone: such a date is the page's last edit, a fallback like dateModified.
UPDATE_CONTEXT_RE = re.compile(r"(?:" + _UPDATE_LABEL_WORDS + r")" + _LABEL_TAIL, re.I)
# Arabic-Indic digits (Arabic pages: "١ / ١٢ / ٢٠٢٠") and Persian digits (۰-۹) -> ASCII digits:
# dates written with them are searched as ASCII ones (one character for one, positions kept).
EASTERN_DIGITS_TO_ASCII = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "0123456789" * 2)
EASTERN_DIGIT_RE = re.compile("[٠-٩۰-۹]")
# Every date pattern holds a year like this: texts without one are not searched.
HAS_YEAR_RE = re.compile(r"(?:19|20)\d{2}|\d{2}\s*年")
# Labels just before a date that name it the publish date.
_PUBLISH_LABEL_WORDS = (
    r"发布|發布|发表|發表|发稿|出版|刊发|刊登|上传|录入|添加|更新于|时间|時間|日期|"
    r"published|posted|publicado|publicada|publié|publiée|опубликовано|дата|公開|掲載|配信|نشر|"
    # de, nl, it, sv, no, da, pl, cs, tr, fi, ko (입력: "entered", the publish time of Korean news)
    r"veröffentlicht|erschienen|publiziert|gepubliceerd|pubblicato|publicerad|publisert|udgivet|"
    r"opublikowano|publikováno|yayınlan|julkaistu|입력|등록"
)
PUBLISH_LABEL_RE = re.compile(r"(?:" + _PUBLISH_LABEL_WORDS + r")[^\n\d]{0,8}\Z", re.I)
# The label words alone, in lowercased text: a window of page text without one holds no
# labelled date.
PUBLISH_LABEL_WORD_LOWER_RE = re.compile(_PUBLISH_LABEL_WORDS)

# Month names of many languages -> month number (lowercase, accents kept). A language is
# one add_month_names line below; a later line's name wins over an earlier one's.
MONTH_NAMES: dict[str, int] = {}


def add_month_names(*names_by_month: str) -> None:
    """Add a language's month names to ``MONTH_NAMES``: twelve strings, January first, each
    the names of that month separated by spaces ("_" joins the words of a two-word name;
    "" for a month left out)."""
    for month, names in enumerate(names_by_month, start=1):
        for name in names.split():
            MONTH_NAMES[name.replace("_", " ")] = month


# English
add_month_names("january jan", "february feb", "march mar", "april apr", "may", "june jun",
                "july jul", "august aug", "september sep sept", "october oct", "november nov",
                "december dec")
# Spanish
add_month_names("enero ene", "febrero", "marzo", "abril abr", "mayo", "junio", "julio",
                "agosto ago", "septiembre setiembre", "octubre", "noviembre", "diciembre dic")
# Portuguese
add_month_names("janeiro", "fevereiro fev", "março marco", "abril", "maio mai", "junho",
                "julho", "agosto", "setembro set", "outubro out", "novembro", "dezembro dez")
# French
add_month_names("janvier janv", "février fevrier févr fevr", "mars", "avril avr", "mai", "juin",
                "juillet juil", "août aout", "septembre", "octobre", "novembre", "décembre decembre déc")
# German
add_month_names("januar jänner", "februar", "märz maerz", "april", "mai", "juni", "juli", "august",
                "september", "oktober okt", "november", "dezember dez")
# Italian
add_month_names("gennaio gen", "febbraio", "marzo", "aprile", "maggio mag", "giugno giu", "luglio lug",
                "agosto", "settembre", "ottobre ott", "novembre", "dicembre")
# Dutch
add_month_names("januari", "februari", "maart mrt", "april", "mei", "juni", "juli", "augustus",
                "september", "oktober", "november", "december")
# Russian (nominative and genitive)
add_month_names("январь января янв", "февраль февраля фев", "март марта мар", "апрель апреля апр",
                "май мая", "июнь июня июн", "июль июля июл", "август августа авг",
                "сентябрь сентября сен сент", "октябрь октября окт", "ноябрь ноября ноя",
                "декабрь декабря дек")
# Ukrainian (nominative and genitive)
add_month_names("січень січня", "лютий лютого", "березень березня", "квітень квітня", "травень травня",
                "червень червня", "липень липня", "серпень серпня", "вересень вересня",
                "жовтень жовтня", "листопад листопада", "грудень грудня")
# Turkish
add_month_names("ocak", "şubat subat", "mart", "nisan", "mayıs mayis", "haziran", "temmuz",
                "ağustos agustos", "eylül eylul", "ekim", "kasım kasim", "aralık aralik")
# Indonesian / Malay
add_month_names("januari", "februari", "maret", "april", "mei", "juni", "juli", "agustus",
                "september", "oktober", "november", "desember")
# Arabic (Gregorian names of the Levant and of Egypt/Maghreb)
add_month_names("يناير كانون_الثاني", "فبراير شباط", "مارس آذار", "أبريل ابريل إبريل نيسان",
                "مايو أيار", "يونيو يونيه حزيران", "يوليو يوليه تموز", "أغسطس اغسطس آب",
                "سبتمبر أيلول", "أكتوبر اكتوبر تشرين_الأول", "نوفمبر تشرين_الثاني",
                "ديسمبر كانون_الأول")
# Romanian
add_month_names("ianuarie ian", "februarie", "martie", "aprilie", "mai", "iunie", "iulie", "august",
                "septembrie", "octombrie", "noiembrie", "decembrie")
# Polish (nominative and genitive)
add_month_names("styczeń stycznia sty", "luty lutego lut", "marzec marca", "kwiecień kwietnia kwi",
                "maj maja", "czerwiec czerwca cze", "lipiec lipca lip", "sierpień sierpnia sie",
                "wrzesień września wrz", "październik października paź", "listopad listopada lis",
                "grudzień grudnia gru")
# Czech (genitive)
add_month_names("ledna leden", "února únor", "března březen", "dubna duben", "května květen",
                "června červen", "července červenec", "srpna srpen", "září", "října říjen",
                "listopadu", "prosince prosinec")
# Croatian (genitive; "listopad" is October here but November in Polish/Czech: left out)
add_month_names("siječnja", "veljače", "ožujka", "travnja", "svibnja", "lipnja", "srpnja",
                "kolovoza", "rujna", "", "studenoga studenog", "prosinca")
# Bosnian / Serbian (Latin)
add_month_names("januar", "februar", "mart", "april", "maj", "jun juni", "jul juli", "avgust august",
                "septembar", "oktobar", "novembar", "decembar")
# Hungarian (written year first: "2020. március 4.")
add_month_names("január", "február", "március", "április", "május", "június", "július", "augusztus",
                "szeptember", "október", "november", "december")
# Swedish, Danish, Norwegian
add_month_names("januari januar", "februari februar", "mars marts", "april", "maj mai", "juni",
                "juli", "augusti august", "september", "oktober", "november", "december")
# Catalan
add_month_names("gener", "febrer", "març", "abril", "maig", "juny", "juliol", "agost", "setembre",
                "octubre", "novembre", "desembre")
# Greek (genitive, as in dates)
add_month_names("ιανουαρίου", "φεβρουαρίου", "μαρτίου", "απριλίου", "μαΐου μαιου", "ιουνίου",
                "ιουλίου", "αυγούστου", "σεπτεμβρίου", "οκτωβρίου", "νοεμβρίου", "δεκεμβρίου")
# Hebrew (also with the prefix ב "in": "17 באוגוסט 2020")
add_month_names("ינואר בינואר", "פברואר בפברואר", "מרץ במרץ", "אפריל באפריל", "מאי במאי",
                "יוני ביוני", "יולי ביולי", "אוגוסט באוגוסט", "ספטמבר בספטמבר", "אוקטובר באוקטובר",
                "נובמבר בנובמבר", "דצמבר בדצמבר")

# A month name is matched as any word of letters and checked against MONTH_NAMES after the
# match: a 360-way alternation made every text search ~10x slower.
MONTH_NAME = r"[^\W\d_]{3,12}"
# Optional clock time after a date: "10:40", "10:40:22", "10时40分", "10h40", with AM/PM and zone.
CLOCK_TIME = (
    r"(?:\s*(?:T|,|at|à|às|a\s+las|um|в|،|\||-|—)?\s*"
    r"(?P<hour>[01]?\d|2[0-3])\s*(?:[:：時时hH]\s*)(?P<minute>[0-5]\d)(?:\s*[:：分]\s*(?P<second>[0-5]?\d))?"
    r"(?:[.,]\d+)?(?:\s*(?P<ampm>[AaPp]\.?[Mm]\.?))?"
    r"(?:\s*(?P<zone>Z|[+-](?:0\d|1[0-4]):?[0-5]\d|UTC|GMT)(?![\w]))?)?"
)

class TextDateFormat(NamedTuple):
    """One way of writing a date in text.

    ``regex`` names its groups as ``parse.build_date`` reads them: ``year`` (four digits) or
    ``year2`` (two, read as 20xx); ``month`` (a number), ``monthname`` (a key of
    ``MONTH_NAMES``, matched as ``MONTH_NAME``) or ``num1``/``num2`` with ``sep`` (day and
    month in an order the page language decides); ``day``; and the optional clock time of
    ``CLOCK_TIME`` (``hour``, ``minute``, ``second``, ``ampm``, ``zone``). Its year is written
    as ``HAS_YEAR_RE`` finds years (texts are searched only around those), and the whole
    date lies within ``parse``'s reach of it (120 chars before, 160 after).
    """
    regex: re.Pattern[str]
    # Characters one of which the text must hold for the regex to be tried ("" for any
    # text): a cheap skip for the CJK forms, which need "年" or "년".
    needs_one_of: str = ""


# The ways of writing a date in text, most specific first: a date found by an earlier one
# is not read again by a later one (the overlapping match is dropped). Adding an entry is
# all a new way needs.
TEXT_DATE_FORMATS: dict[str, TextDateFormat] = {
    # ISO 8601 and "2018-09-02 10:40:22", "2018/9/2", "2018.09.02"
    "year_month_day": TextDateFormat(re.compile(
        r"(?<![\d.])(?P<year>(?:19|20)\d{2})\s*(?P<sep>[-/.])\s*(?P<month>1[0-2]|0?[1-9])"
        r"\s*(?P=sep)\s*(?P<day>3[01]|[12]\d|0?[1-9])(?![\d])" + CLOCK_TIME)),
    # Chinese / Japanese / Korean: "2018年09月02日 10:40", "2018年9月2日", "2018년 9월 2일"
    "cjk_year_month_day": TextDateFormat(re.compile(
        r"(?P<year>(?:19|20)\d{2})\s*[年년]\s*(?P<month>1[0-2]|0?[1-9])\s*[月월]\s*"
        r"(?P<day>3[01]|[12]\d|0?[1-9])\s*[日号號일]?(?:\s*[（(]?[^\d\s)）]{1,4}[)）]?)?" + CLOCK_TIME),
        needs_one_of="年년"),
    # Day first, month name: "2 September 2018", "2 de setembro de 2018", "2 сентября 2018 г."
    "day_monthname_year": TextDateFormat(re.compile(
        r"(?<![\w])(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th|er|º|\.)?\s*(?:de\s+|of\s+)?"
        r"(?P<monthname>" + MONTH_NAME + r")\.?(?:\s*/\s*(?:" + MONTH_NAME + r"))?,?\s*(?:de\s+|del\s+)?"
        r"(?P<year>(?:19|20)\d{2})(?!\d)(?:\s*(?:г\.|года|г|م))?" + CLOCK_TIME, re.I)),
    # Month name first: "Sep 2, 2018", "September 2nd 2018"
    "monthname_day_year": TextDateFormat(re.compile(
        r"(?<![\w])(?P<monthname>" + MONTH_NAME + r")\.?\s+(?P<day>3[01]|[12]\d|0?[1-9])"
        r"(?:st|nd|rd|th)?,?\s+(?P<year>(?:19|20)\d{2})(?!\d)" + CLOCK_TIME, re.I)),
    # Year first, month name: "2020. március 4.", "2018 Sep 02"
    "year_monthname_day": TextDateFormat(re.compile(
        r"(?<![\w.])(?P<year>(?:19|20)\d{2})\.?\s+(?P<monthname>" + MONTH_NAME + r")\.?\s+"
        r"(?P<day>3[01]|[12]\d|0?[1-9])(?![\d])\.?" + CLOCK_TIME, re.I)),
    # Day first, numeric: "02.09.2018", "2/9/2018" (order resolved with the page language)
    "numeric_day_month_year": TextDateFormat(re.compile(
        r"(?<![\d.])(?P<num1>3[01]|[12]\d|0?[1-9])\s*(?P<sep>[./-])\s*(?P<num2>3[01]|[12]\d|0?[1-9])"
        r"\s*(?P=sep)\s*(?P<year>(?:19|20)\d{2})(?!\d)" + CLOCK_TIME)),
    # Two-digit year, CJK year-first only: "18年3月8日" (unambiguous; maps to 20xx)
    "cjk_two_digit_year": TextDateFormat(re.compile(
        r"(?<!\d)(?P<year2>\d{2})\s*年\s*(?P<month>1[0-2]|0?[1-9])\s*月\s*"
        r"(?P<day>3[01]|[12]\d|0?[1-9])\s*[日号]" + CLOCK_TIME),
        needs_one_of="年"),
}

# Day first with a two-digit year, then a clock time: "Do 25.04.24 | 14:07 Uhr" (German and
# Nordic bylines). Without the time "25.04.24" is too often a version or a score, so the time is
# required, and the pattern is tried only on the short byline runs near the headline. In
# fundus-dev, htmldate-mediacloud and realworld-trafilatura it occurs on 4 pages of 4 sites, each
# time the publish day of the gold; fundus-dev date accuracy +1 page (the metadata sets of benchmarks/accuracy.py).
SHORT_YEAR_DATE_RE = re.compile(
    r"(?<![\d.])(?P<num1>3[01]|[12]\d|0?[1-9])(?P<sep>\.)(?P<num2>1[0-2]|0?[1-9])\.(?P<year2>\d{2})(?![\d.])"
    r"\s*(?:,|\||um|-|—)?\s*(?P<hour>[01]?\d|2[0-3]):(?P<minute>[0-5]\d)(?!\d)"
)

# Machine-readable dates (meta, JSON-LD, datetime attributes) accept the ISO pattern,
# compact "20180902", the CJK form and RFC 2822 ("Sun, 02 Sep 2018 10:40:00 +0800").
COMPACT_DATE_RE = re.compile(r"^(?P<year>(?:19|20)\d{2})(?P<month>1[0-2]|0[1-9])(?P<day>3[01]|[12]\d|0[1-9])"
                             r"(?:T?(?P<hour>[01]\d|2[0-3])(?P<minute>[0-5]\d)(?P<second>[0-5]\d)?)?$")
# Unix timestamps in seconds or milliseconds (WeChat "var ct", JSON APIs).
EPOCH_RE = re.compile(r"^(?P<epoch>1\d{9})(?P<millis>\d{3})?$")
# The zone a timestamp is read in, by the page's declared language: where the language is
# spoken on one offset all year (Chinese: mainland China, Hong Kong, Macau, Taiwan, Singapore;
# Japanese; Korean), that offset; elsewhere UTC, the zone a timestamp counts in.
EPOCH_ZONE_BY_LANG = {"zh": "+08:00", "ja": "+09:00", "ko": "+09:00"}
EPOCH_ZONE_OTHER_LANG = "+00:00"
# Pages that declare no language: mostly Chinese portals (79 of the 113 pages of zh-gne and
# zh-cwced declare none, WeChat articles among them, dated only by "var ct"), so UTC+8.
EPOCH_ZONE_NO_LANG = "+08:00"

# Dates in URLs: /2018/09/02/, /2018-09-02/, /20180902/, /2018/0902/, _20180902, /18/0902/ is skipped.
URL_DATE_PATTERNS = {
    "separated": re.compile(r"(?<!\d)(?P<year>(?:19|20)\d{2})[/_-](?P<month>1[0-2]|0?[1-9])[/_-](?P<day>3[01]|[12]\d|0?[1-9])(?!\d)"),
    "compact": re.compile(r"(?<!\d)(?P<year>(?:19|20)\d{2})[/_-]?(?P<month>1[0-2]|0[1-9])[/_-]?(?P<day>3[01]|[12]\d|0[1-9])(?!\d)"),
}
# A URL date with only year and month ("/2018/09/"): not a day, never used.

# Times a page writes with a zone offset (script data, meta values, <time datetime>): ISO 8601
# "2020-05-01T23:00:00-04:00" and RFC 2822 "Fri, 01 May 2020 23:00:00 -0400". Their offset
# is the site's clock when a machine date is given in UTC only (``zones.in_page_zone``).
ZONED_TIME_RE = re.compile(
    r"(?<![\d-])(?:19|20)\d{2}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d(?::[0-5]\d)?(?:\.\d+)?[+-](?:0\d|1[0-4]):?[0-5]\d(?!\d)"
    r"|\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3]?\d [A-Z][a-z]{2} (?:19|20)\d{2} [0-2]\d:[0-5]\d(?::[0-5]\d)? "
    r"[+-](?:0\d|1[0-4])[0-5]\d(?!\d)"
)
# Generators (lowercased <meta name="generator"> prefix) of wikis: the text shown is the
# latest revision, so its date is the page's and datePublished is the page's creation
# (htmldate-mediacloud dates its MediaWiki pages by the revision shown, 2026-11-22).
WIKI_GENERATORS = ("mediawiki",)
# The id of MediaWiki's "This page was last edited on ..." footer line.
WIKI_LASTMOD_ID = "footer-info-lastmod"

# Page-script values that may be a publish time: a 10/13-digit epoch or a numeric date after
# ":", "=" or "(" (searched first: one simple scan of long scripts)...
SCRIPT_VALUE_RE = re.compile(
    r"""[:=(]\s*["']?(?P<value>1\d{9}(?:\d{3})?(?!\d)|(?:19|20)\d{2}[-/.]\d{1,2}[-/.]\d{1,2}"""
    r"""(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)"""
)
# ... kept when the variable or function just before names a publish time
# (WeChat "var ct", portal "pubtime", "showDate(").
SCRIPT_KEY_BEFORE_RE = re.compile(
    r"""(?:\bct|publish_?time|pub_?time|pub_?date|publishdate|ptime|first_?publish_?time|"""
    r"""date_?published|create_?time|release_?time|publicationdate|publication_date|date_?creation|"""
    r"""\b(?:show|write|format)_?(?:date|time))["']?\s*\Z""",
    re.I,
)
# Markers of the page footer / copyright zone (lowercase): dates after them are ignored.
# Lowercased text is searched for each with str.find, the first found wins: the search
# of their alternation in the date search's texts took 3x as long (0.033 -> 0.012 ms a page
# of ../shared/eval, 2026-11-22), a case-insensitive one is ~10x slower per character.
FOOTER_MARKERS = ("©", "copyright", "版权所有", "版權所有", "all rights reserved", "icp备", "icp證", "icp证")
# The markers in text whose lowercasing moved positions.
FOOTER_TEXT_RE = re.compile("|".join(re.escape(marker) for marker in FOOTER_MARKERS), re.I)
