# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled walks over libxml2's tree (optional; see fastwalk.py).

Each function here computes exactly what a pure-Python function of the package computes,
reading libxml2's nodes directly instead of building a Python str for every tag, text
and tail. tests/test_fastwalk.py checks that the two agree; fastwalk.py uses this module
only when it was built from the current source.

Text rules copied from lxml, so the results are those of ``element.text`` / ``.tail``:
an element's text is the run of text (and CDATA) nodes at the start of its children, its
tail the run right after it; runs are joined (stripping a comment leaves two text nodes
side by side). ``str.strip()`` is Python's: the Unicode whitespace of ``_is_space``.
"""
from cpython.ref cimport PyObject
from libc.stdlib cimport bsearch, calloc, free, malloc, qsort, realloc
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.math cimport M_E, log, log10, pow, sqrt
from libc.string cimport memcpy, strcmp, strlen, strncmp, strstr

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport const_xmlChar

cetree.import_lxml__etree()

cdef extern from *:
    """
    #ifndef FASTWALK_SOURCE_DIGEST
    #define FASTWALK_SOURCE_DIGEST ""
    #endif
    """
    const char* FASTWALK_SOURCE_DIGEST

# SHA-256 of the .pyx this module was built from (set by setup.py): fastwalk.py uses the
# module only when it matches the source beside it.
SOURCE_DIGEST = FASTWALK_SOURCE_DIGEST.decode("ascii")

# Python's str.isspace() code points (Py_UNICODE_ISSPACE), for str.strip().
cdef inline bint _is_space(unsigned int c) noexcept nogil:
    if c < 128:
        return c == 32 or (9 <= c <= 13) or (28 <= c <= 31)
    return (c == 0x85 or c == 0xa0 or c == 0x1680 or (0x2000 <= c <= 0x200a) or c == 0x2028
            or c == 0x2029 or c == 0x202f or c == 0x205f or c == 0x3000)


cdef inline bint _is_text(tree.xmlNode* node) noexcept nogil:
    return node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE


cdef inline unsigned int _decode(const unsigned char* s, int* length) noexcept nogil:
    """The code point at ``s`` (valid UTF-8, as libxml2 stores it) and its byte count."""
    cdef unsigned int c = s[0]
    if c < 0x80:
        length[0] = 1
        return c
    if c < 0xE0:
        length[0] = 2
        return ((c & 0x1F) << 6) | (s[1] & 0x3F)
    if c < 0xF0:
        length[0] = 3
        return ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F)
    length[0] = 4
    return ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F)


# The punctuation marks (patterns.PUNCTUATION), set by set_punctuation: ASCII ones in a table,
# the others in a sorted array searched by bisection.
cdef bint _ascii_mark[128]
cdef unsigned int* _wide_marks = NULL
cdef int _wide_count = 0


def set_punctuation(marks):
    """Take the marks counted as punctuation (one-character strings)."""
    global _wide_marks, _wide_count
    cdef int i
    for i in range(128):
        _ascii_mark[i] = False
    wide = sorted(ord(mark) for mark in marks if ord(mark) >= 128)
    for mark in marks:
        if ord(mark) < 128:
            _ascii_mark[ord(mark)] = True
    free(_wide_marks)
    _wide_marks = <unsigned int*> malloc(max(len(wide), 1) * sizeof(unsigned int))
    for i in range(len(wide)):
        _wide_marks[i] = wide[i]
    _wide_count = len(wide)


cdef inline bint _is_mark(unsigned int c) noexcept nogil:
    if c < 128:
        return _ascii_mark[c]
    cdef int low = 0, high = _wide_count - 1, middle
    while low <= high:
        middle = (low + high) >> 1
        if _wide_marks[middle] == c:
            return True
        if _wide_marks[middle] < c:
            low = middle + 1
        else:
            high = middle - 1
    return False


cdef struct _Stripped:
    # A stream of text read as one string, to count its characters once stripped (``str.strip``).
    long total       # characters read
    long leading     # whitespace before the first other character
    long trailing    # whitespace after the last other character
    long marks       # punctuation marks (set_punctuation's)
    bint seen_other


cdef void _read_stripped(_Stripped* counts, const unsigned char* s) noexcept nogil:
    cdef unsigned int c
    cdef int length
    while s[0]:
        c = _decode(s, &length)
        s += length
        counts.total += 1
        if _is_space(c):
            if counts.seen_other:
                counts.trailing += 1
            else:
                counts.leading += 1
        else:
            counts.seen_other = True
            counts.trailing = 0
            if _is_mark(c):
                counts.marks += 1


cdef struct _RunCounts:
    long chars        # characters of the stripped run
    long marks        # punctuation marks among them


cdef _RunCounts _count_run(tree.xmlNode* node) noexcept nogil:
    """Counts of the text run starting at ``node`` (text nodes joined, then stripped)."""
    cdef _Stripped stripped
    cdef _RunCounts counts
    stripped.total = stripped.leading = stripped.trailing = stripped.marks = 0
    stripped.seen_other = False
    while node != NULL and _is_text(node):
        if node.content != NULL:
            _read_stripped(&stripped, <const unsigned char*> node.content)
        node = node.next
    counts.chars = stripped.total - stripped.leading - stripped.trailing if stripped.seen_other else 0
    counts.marks = stripped.marks
    return counts


cdef inline tree.xmlNode* _first_child_element(tree.xmlNode* node) noexcept nogil:
    node = node.children
    while node != NULL and node.type != tree.XML_ELEMENT_NODE:
        node = node.next
    return node


cdef inline tree.xmlNode* _next_element(tree.xmlNode* node) noexcept nogil:
    node = node.next
    while node != NULL and node.type != tree.XML_ELEMENT_NODE:
        node = node.next
    return node


cdef inline tree.xmlNode* _first_element_like(tree.xmlNode* node) noexcept nogil:
    """The first child lxml counts as an element (element, comment, PI, entity reference)."""
    node = node.children
    while node != NULL and not cetree._isElement(node):
        node = node.next
    return node


cdef list _int_list(long* values, Py_ssize_t size):
    return [values[i] for i in range(size)]


cdef class _Walk:
    """The elements under a node in document order (lxml's ``iter()`` order), with their parents."""
    cdef tree.xmlNode** nodes
    cdef Py_ssize_t* parents   # index of each element's parent, -1 for the top one
    cdef Py_ssize_t size

    def __dealloc__(self):
        free(self.nodes)
        free(self.parents)


cdef class _Pending:
    """A stack of nodes, each with a flag (opened or not): the walks that keep their own stack."""
    cdef tree.xmlNode** nodes
    cdef char* opened
    cdef Py_ssize_t depth, capacity

    def __dealloc__(self):
        free(self.nodes)
        free(self.opened)

    cdef int push(self, tree.xmlNode* node, bint opened) except -1:
        cdef tree.xmlNode** nodes
        cdef char* flags
        if self.depth == self.capacity:
            self.capacity = 2 * self.capacity + 32
            nodes = <tree.xmlNode**> realloc(self.nodes, self.capacity * sizeof(tree.xmlNode*))
            if nodes == NULL:
                raise MemoryError()
            self.nodes = nodes
            flags = <char*> realloc(self.opened, self.capacity)
            if flags == NULL:
                raise MemoryError()
            self.opened = flags
        self.nodes[self.depth] = node
        self.opened[self.depth] = opened
        self.depth += 1
        return 0


cdef _Walk _walk(tree.xmlNode* top):
    """The walk from ``top``, or None when an element has a namespace (its tag would need lxml's
    "{uri}name" form) or a parent link that is not the element it is a child of (a rare libxml2
    slip after mis-nested tags: lxml's walks and ``getparent()`` follow that link). The Python
    walks handle both. No recursion: the open elements are kept on a stack.
    """
    cdef _Walk walk = _Walk()
    cdef Py_ssize_t capacity = 1024, depth = 0, size = 0
    cdef tree.xmlNode* node = top
    cdef tree.xmlNode* following
    cdef Py_ssize_t* open_stack = <Py_ssize_t*> malloc(capacity * sizeof(Py_ssize_t))
    walk.nodes = <tree.xmlNode**> malloc(capacity * sizeof(tree.xmlNode*))
    walk.parents = <Py_ssize_t*> malloc(capacity * sizeof(Py_ssize_t))
    try:
        while True:
            if node.ns != NULL:
                return None
            if size == capacity:
                capacity *= 2
                walk.nodes = <tree.xmlNode**> realloc(walk.nodes, capacity * sizeof(tree.xmlNode*))
                walk.parents = <Py_ssize_t*> realloc(walk.parents, capacity * sizeof(Py_ssize_t))
                open_stack = <Py_ssize_t*> realloc(open_stack, capacity * sizeof(Py_ssize_t))
                if walk.nodes == NULL or walk.parents == NULL or open_stack == NULL:
                    raise MemoryError()
            walk.nodes[size] = node
            walk.parents[size] = open_stack[depth - 1] if depth else -1
            if depth and node.parent != walk.nodes[walk.parents[size]]:
                return None
            size += 1
            walk.size = size
            following = _first_child_element(node)
            if following != NULL:
                open_stack[depth] = size - 1
                depth += 1
                node = following
                continue
            if node == top:
                break
            following = _next_element(node)
            while following == NULL:
                depth -= 1
                node = walk.nodes[open_stack[depth]]
                if node == top:
                    break
                following = _next_element(node)
            if following == NULL:
                break
            node = following
        return walk
    finally:
        free(open_stack)


cdef class _Counts:
    """The counts of density_counts kept in C, for the score pass (find_best_node)."""
    cdef long* columns        # T, LT, TG, LTG, Sb, PNum, longest: seven columns of ``size``
    cdef char* kinds          # per element: bit 1 a container tag, bit 2 <a>
    cdef Py_ssize_t size

    def __dealloc__(self):
        free(self.columns)
        free(self.kinds)

    def standard_deviation(self):
        """density.DensityTable.standard_deviation: the same float operations in the same order
        (TD of each element as a true division, the sums in document order), so the same bits."""
        cdef long* text = self.columns
        cdef long* link_text = self.columns + self.size
        cdef long* tags = self.columns + 2 * self.size
        cdef long* link_tags = self.columns + 3 * self.size
        cdef double total = 0.0, squares = 0.0, value, mean
        cdef long denominator
        cdef Py_ssize_t i
        if self.size < 2:
            return 0.0
        for i in range(self.size):
            denominator = tags[i] - link_tags[i]
            value = <double> (text[i] - link_text[i]) / <double> (denominator if denominator > 1 else 1)
            total += value
            squares += value * value
        mean = total / <double> self.size
        return sqrt(max(squares / <double> self.size - mean * mean, 0.0))

    def candidate_scores(self, Py_ssize_t minimum, Py_ssize_t link_max, double log_sd, double mass_weight):
        """content._candidates and the score of each (density.DensityTable.score, times
        log(T - LT) ** mass_weight when that is not 0): (indexes, scores), in document order."""
        cdef long* text = self.columns
        cdef long* link_text = self.columns + self.size
        cdef long* tags = self.columns + 2 * self.size
        cdef long* link_tags = self.columns + 3 * self.size
        cdef long* marks = self.columns + 4 * self.size
        cdef long* paragraphs = self.columns + 5 * self.size
        cdef Py_ssize_t i, link_end = -1
        cdef long plain, denominator
        cdef double score, symbol_density
        indexes, scores = [], []
        for i in range(self.size):
            if self.kinds[i] & 2 and text[i] <= link_max and i + tags[i] > link_end:
                link_end = i + tags[i]   # a short <a>: the elements up to here lie inside one
            if not self.kinds[i] & 1 or text[i] - link_text[i] < minimum or i <= link_end:
                continue
            plain = text[i] - link_text[i]
            if plain <= 0:
                score = 0.0
            else:
                denominator = tags[i] - link_tags[i]
                symbol_density = <double> plain / <double> (marks[i] + 1)
                score = log_sd * (<double> plain / <double> (denominator if denominator > 1 else 1)) \
                    * log10(<double> (paragraphs[i] + 2)) \
                    * (log(symbol_density) if symbol_density > M_E else 1.0)
            if mass_weight != 0.0:
                score *= pow(log(<double> plain), mass_weight)
            indexes.append(i)
            scores.append(score)
        return indexes, scores


cdef long* _count_columns(_Walk walk) except NULL:
    """The counts of density.DensityTable for every element of the walk: T, LT, TG, LTG, Sb,
    PNum and longest plain run, seven columns of ``walk.size`` (the caller frees them)."""
    cdef tree.xmlNode** nodes = walk.nodes
    cdef Py_ssize_t* parents = walk.parents
    cdef Py_ssize_t size = walk.size, i, p
    cdef tree.xmlNode* node
    cdef _RunCounts run
    cdef bint is_link
    cdef long* counts = <long*> calloc(max(7 * size, 1), sizeof(long))
    if counts == NULL:
        raise MemoryError()
    cdef long* text = counts
    cdef long* link_text = counts + size
    cdef long* tags = counts + 2 * size
    cdef long* link_tags = counts + 3 * size
    cdef long* marks = counts + 4 * size
    cdef long* paragraphs = counts + 5 * size
    cdef long* longest = counts + 6 * size
    for i in range(size - 1, -1, -1):
        node = nodes[i]
        is_link = node.name[0] == 97 and node.name[1] == 0  # <a>
        run = _count_run(node.children)
        if run.chars:
            text[i] += run.chars
            if not is_link:
                marks[i] += run.marks
                if run.chars > longest[i]:
                    longest[i] = run.chars
        if is_link:
            link_text[i] = text[i]
            marks[i] = 0
            longest[i] = 0
        p = parents[i]
        if p < 0:
            continue
        text[p] += text[i]
        link_text[p] += link_text[i]
        tags[p] += tags[i] + 1
        link_tags[p] += link_tags[i] + is_link
        marks[p] += marks[i]
        paragraphs[p] += paragraphs[i] + (node.name[0] == 112 and node.name[1] == 0)  # <p>
        if longest[i] > longest[p]:
            longest[p] = longest[i]
        run = _count_run(node.next)
        if run.chars:
            text[p] += run.chars
            marks[p] += run.marks
            if run.chars > longest[p]:
                longest[p] = run.chars
    return counts


def density_counts(cetree._Element root, container_tags):
    """The counts of density.DensityTable for every element under ``root`` (document order).

    Returns (elements, tag names, T, LT, TG, LTG, Sb, PNum, longest plain run) as lists, and a
    _Counts with the same numbers for the score pass (``container_tags``: the candidates' tags),
    or None where ``_walk`` gives none (the Python walk then counts).
    """
    cdef _Walk walk = _walk(root._c_node)
    if walk is None:
        return None
    cdef tree.xmlNode** nodes = walk.nodes
    cdef Py_ssize_t size = walk.size, i
    cdef long* counts = NULL
    cdef _TagNames tag_cache = _TagNames()
    cdef _Counts kept
    try:
        counts = _count_columns(walk)
        document = root._doc
        elements = [cetree.elementFactory(document, nodes[i]) for i in range(size)]
        names = [tag_cache.of(nodes[i]) for i in range(size)]
        kept = _Counts()
        kept.size = size
        kept.kinds = <char*> malloc(max(size, 1))
        if kept.kinds == NULL:
            raise MemoryError()
        for i in range(size):
            kept.kinds[i] = (2 if names[i] == "a" else 0) | (1 if names[i] in container_tags else 0)
        result = (elements, names, _int_list(counts, size), _int_list(counts + size, size),
                  _int_list(counts + 2 * size, size), _int_list(counts + 3 * size, size),
                  _int_list(counts + 4 * size, size), _int_list(counts + 5 * size, size),
                  _int_list(counts + 6 * size, size), kept)
        kept.columns, counts = counts, NULL   # the _Counts frees them
        return result
    finally:
        free(counts)


cdef struct _Placed:
    # An element of a walk: its node and its place in document order (subtree_counts).
    tree.xmlNode* node
    Py_ssize_t index


cdef int _by_node(const void* left, const void* right) noexcept nogil:
    cdef size_t a = <size_t> (<_Placed*> left).node, b = <size_t> (<_Placed*> right).node
    return (a > b) - (a < b)


def subtree_counts(cetree._Element root, elements):
    """density.subtree_counts in C: for each of ``elements``, (index in document order, T, LT, TG,
    PNum) as density.DensityTable counts them on ``root``'s tree, or None for an element not in it.
    The counts of the other elements are never made into Python objects (no proxies, no lists).
    None where ``_walk`` gives none.
    """
    cdef _Walk walk = _walk(root._c_node)
    if walk is None:
        return None
    cdef Py_ssize_t size = walk.size, i
    cdef long* counts = NULL
    cdef _Placed* placed = NULL
    cdef _Placed wanted
    cdef _Placed* found
    cdef cetree._Element element
    try:
        counts = _count_columns(walk)
        placed = <_Placed*> malloc(max(size, 1) * sizeof(_Placed))
        if placed == NULL:
            raise MemoryError()
        for i in range(size):
            placed[i].node = walk.nodes[i]
            placed[i].index = i
        qsort(placed, size, sizeof(_Placed), _by_node)
        result = []
        for element in elements:
            wanted.node = element._c_node
            found = <_Placed*> bsearch(&wanted, placed, size, sizeof(_Placed), _by_node)
            if found == NULL:
                result.append(None)
                continue
            i = found.index
            result.append((i, counts[i], counts[size + i], counts[2 * size + i], counts[5 * size + i]))
        return result
    finally:
        free(counts)
        free(placed)



# The attributes of cleaning_attributes' rows, by their place in a row's values.
cdef enum:
    _CLASS, _ID, _STYLE, _ARIA_HIDDEN, _ITEMPROP, _JUDGED


cdef inline int _judged_attribute(const char* name) noexcept nogil:
    """The place of a judged attribute among a row's values, -1 for another one, _JUDGED for "hidden"."""
    if strcmp(name, "class") == 0:
        return _CLASS
    if strcmp(name, "id") == 0:
        return _ID
    if strcmp(name, "style") == 0:
        return _STYLE
    if strcmp(name, "hidden") == 0:
        return _JUDGED
    if strcmp(name, "aria-hidden") == 0:
        return _ARIA_HIDDEN
    if strcmp(name, "itemprop") == 0:
        return _ITEMPROP
    return -1


cdef class _Rows:
    """The elements of cleaning_attributes' rows, each with the index of its distinct values.

    Holds node pointers: use it before the tree changes (dom._classify_named_elements does).
    """
    cdef _Walk walk
    cdef Py_ssize_t* indexes      # per row: the walk index of its element
    cdef Py_ssize_t* kinds        # per row: the index of its values among the distinct ones
    cdef Py_ssize_t count
    cdef object document

    def __dealloc__(self):
        free(self.indexes)
        free(self.kinds)

    def sort(self, verdicts, Py_ssize_t hidden_bit, Py_ssize_t named_bit, Py_ssize_t reviewed_bit,
             Py_ssize_t marker_bit):
        """(hidden, named, reviewed, marked) elements in document order, by the verdict of each
        row's values (``verdicts[k]``, bits: hidden wins over named, named over reviewed; marked
        goes with any)."""
        cdef Py_ssize_t row, verdict
        hidden, named, reviewed, marked = [], [], [], []
        for row in range(self.count):
            verdict = verdicts[self.kinds[row]]
            if not verdict:
                continue
            element = cetree.elementFactory(self.document, self.walk.nodes[self.indexes[row]])
            if verdict & marker_bit:
                marked.append(element)
            if verdict & hidden_bit:
                hidden.append(element)
            elif verdict & named_bit:
                named.append(element)
            elif verdict & reviewed_bit:
                reviewed.append(element)
        return hidden, named, reviewed, marked


def cleaning_attributes(cetree._Element root):
    """The attributes dom.clean_tree judges elements by, for the elements that have one.

    Returns (values, rows): ``values`` the distinct (tag, class, id, style, hidden?, aria-hidden,
    itemprop) of the elements with a class, id, style, hidden, aria-hidden or itemprop attribute
    (no namespace, as ``keys()`` names them), in the order first met; a value is None when
    absent (the first attribute of a name counts, as for ``get``), ``hidden?`` a bool.
    ``rows.sort(verdicts, ...)`` sorts those elements by the verdicts of their values. One pass
    over each element's attributes; tag names are made once per page (libxml2 keeps one copy
    of each name). None where ``_walk`` gives none (the Python walk then reads them).
    """
    cdef _Walk walk = _walk(root._c_node)
    if walk is None:
        return None
    cdef Py_ssize_t i, count = 0
    cdef int place
    cdef tree.xmlNode* node
    cdef tree.xmlAttr* attribute
    cdef tree.xmlAttr* found[_JUDGED]
    cdef bint wanted, hidden
    cdef _TagNames tags = _TagNames()
    cdef dict seen = {}
    cdef _Rows rows = _Rows()
    rows.walk = walk
    rows.document = root._doc
    rows.indexes = <Py_ssize_t*> malloc(max(walk.size, 1) * sizeof(Py_ssize_t))
    rows.kinds = <Py_ssize_t*> malloc(max(walk.size, 1) * sizeof(Py_ssize_t))
    if rows.indexes == NULL or rows.kinds == NULL:
        raise MemoryError()
    values = []
    for i in range(walk.size):
        node = walk.nodes[i]
        attribute = node.properties
        wanted = hidden = False
        for place in range(_JUDGED):
            found[place] = NULL
        while attribute != NULL:
            if attribute.ns == NULL:
                place = _judged_attribute(<const char*> attribute.name)
                if place == _JUDGED:
                    wanted = hidden = True
                elif place >= 0 and found[place] == NULL:
                    wanted = True
                    found[place] = attribute
            attribute = attribute.next
        if not wanted:
            continue
        row = (tags.of(node), _value(node, found[_CLASS]), _value(node, found[_ID]),
               _value(node, found[_STYLE]), hidden, _value(node, found[_ARIA_HIDDEN]),
               _value(node, found[_ITEMPROP]))
        kind = seen.get(row)
        if kind is None:
            kind = seen[row] = len(values)
            values.append(row)
        rows.indexes[count] = i
        rows.kinds[count] = kind
        count += 1
    rows.count = count
    return values, rows


cdef inline object _value(tree.xmlNode* node, tree.xmlAttr* attribute):
    """The attribute's value as ``get`` gives it (None for no attribute).

    Most values are one text node, decoded here; others (entity references, no text) are
    left to lxml's reading, which copies the value through libxml2 first.
    """
    cdef tree.xmlNode* text
    if attribute == NULL:
        return None
    text = attribute.children
    if text != NULL and text.type == tree.XML_TEXT_NODE and text.next == NULL and text.content != NULL:
        return PyUnicode_DecodeUTF8(<const char*> text.content, strlen(<const char*> text.content), NULL)
    return cetree.attributeValue(node, attribute)


# Bytes holds_control_characters tests between its looks at the result: the loop over one
# chunk has no branch, so the C compiler turns it into vector instructions (the byte-by-byte
# loop with early exits took 1.5% of extract()'s time over ../shared/eval, 2026-11-26).
cdef enum:
    _CONTROL_SCAN_CHUNK = 4096


cdef inline unsigned char _is_c0_control(unsigned char byte) noexcept nogil:
    """A C0 control other than tab, newline and carriage return; branch-free (see below)."""
    return (byte < 0x20) & (byte != 0x09) & (byte != 0x0a) & (byte != 0x0d)


def holds_control_characters(const unsigned char[::1] data):
    """Does this UTF-8 text hold a character of dom._CONTROL_CHARS_RE?

    That is a C0 control other than tab, newline and carriage return (one byte each in UTF-8),
    or U+FFFE / U+FFFF (EF BF BE, EF BF BF: no other character's bytes hold these three in a row).
    """
    cdef Py_ssize_t start, end, i, size = data.shape[0]
    cdef const unsigned char* s
    cdef unsigned char found = 0   # one byte, as the tested bytes: 16 of them per vector instruction
    if size == 0:
        return False
    s = &data[0]
    for start in range(0, size, _CONTROL_SCAN_CHUNK):
        end = min(start + _CONTROL_SCAN_CHUNK, size - 2)
        for i in range(start, end):
            found |= _is_c0_control(s[i]) | <unsigned char> ((s[i] == 0xEF) & (s[i + 1] == 0xBF) & (s[i + 2] >= 0xBE))
        if found:
            return True
    for i in range(max(size - 2, 0), size):   # the last two bytes: too few for U+FFFE/U+FFFF
        if _is_c0_control(s[i]):
            return True
    return False


# Text written line by line as ``render_text`` normalizes it: each line's whitespace runs
# collapsed to one space and trimmed, blank lines left out, lines joined by newlines.
cdef struct _Lines:
    char* data
    Py_ssize_t size
    Py_ssize_t capacity
    bint line_open       # the current line has text
    bint pending_space   # whitespace was met after the current line's text
    bint any_line        # a line was written before


cdef inline void _start_lines(_Lines* lines) noexcept nogil:
    """An empty _Lines (its buffer is grown on the first write)."""
    lines.data = NULL
    lines.size = lines.capacity = 0
    lines.line_open = lines.pending_space = lines.any_line = False


cdef int _grow(_Lines* lines, Py_ssize_t extra) except -1:
    cdef char* data
    if lines.size + extra <= lines.capacity:
        return 0
    lines.capacity = max(2 * lines.capacity, lines.size + extra + 256)
    data = <char*> realloc(lines.data, lines.capacity)
    if data == NULL:
        raise MemoryError()
    lines.data = data
    return 0


cdef inline void _end_line(_Lines* lines) noexcept nogil:
    lines.line_open = False
    lines.pending_space = False


cdef int _write_text(_Lines* lines, const unsigned char* s) except -1:
    cdef unsigned int c
    cdef int length, k
    while s[0]:
        c = _decode(s, &length)
        if c == 10:
            _end_line(lines)
        elif _is_space(c):
            if lines.line_open:
                lines.pending_space = True
        else:
            _grow(lines, length + 1)
            if not lines.line_open:
                if lines.any_line:
                    lines.data[lines.size] = 10
                    lines.size += 1
                lines.line_open = lines.any_line = True
            elif lines.pending_space:
                lines.data[lines.size] = 32
                lines.size += 1
            lines.pending_space = False
            for k in range(length):
                lines.data[lines.size + k] = s[k]
            lines.size += length
        s += length
    return 0


cdef int _write_run(_Lines* lines, tree.xmlNode* node) except -1:
    """The text run starting at ``node`` (``.text`` of its parent, or ``.tail`` of its previous sibling)."""
    while node != NULL and _is_text(node):
        if node.content != NULL:
            _write_text(lines, <const unsigned char*> node.content)
        node = node.next
    return 0


cdef inline tree.xmlNode* _after(tree.xmlNode* top, tree.xmlNode* node, bint enter) noexcept nogil:
    """The node after ``node`` in document order inside ``top``'s subtree, NULL past its end;
    ``node``'s children first when ``enter``. No recursion: parent links lead back up."""
    if enter and node.children != NULL:
        return node.children
    while node != top and node.next == NULL:
        node = node.parent
    return NULL if node == top else node.next


cdef bint _plain(tree.xmlNode* top, bint comments) noexcept nogil:
    """Only elements without a namespace and text nodes below ``top`` (no entity or other node;
    comments and processing instructions only with ``comments``)."""
    cdef tree.xmlNode* node = top
    while node != NULL:
        if node.type == tree.XML_ELEMENT_NODE:
            if node.ns != NULL:
                return False
        elif node.type != tree.XML_TEXT_NODE and not (
                comments and (node.type == tree.XML_COMMENT_NODE or node.type == tree.XML_PI_NODE)):
            return False
        node = _after(top, node, node.type == tree.XML_ELEMENT_NODE)
    return True


cdef bint _is_block(dict blocks, block_tags, tree.xmlNode* node) except -1:
    """Is the element's name one of ``block_tags`` (remembered per name: libxml2 keeps one copy each)."""
    key = <size_t> node.name
    block = blocks.get(key)
    if block is None:
        block = blocks[key] = (<bytes> node.name).decode("utf-8") in block_tags
    return block


def render_text(nodes, block_tags):
    """output.render_text of these elements (None when one holds more than elements and text).

    ``block_tags``: the names that put their content on lines of its own (BLOCK_LEVEL_TAGS).
    The same walk as lxml's ``iterwalk``: the open elements on a stack, each element's text
    written at its start, a child's tail after the child's end.
    """
    cdef cetree._Element element
    cdef tree.xmlNode* top
    cdef tree.xmlNode* node
    cdef tree.xmlNode* following
    cdef _Lines lines
    cdef dict blocks = {}
    cdef _Pending open_nodes = _Pending()
    cdef bint starting
    _start_lines(&lines)
    for element in nodes:
        if not _plain(element._c_node, False):
            return None
    try:
        for element in nodes:
            top = element._c_node
            _end_line(&lines)
            node = top
            starting = True
            open_nodes.depth = 0
            while True:
                if starting:
                    if _is_block(blocks, block_tags, node):
                        _end_line(&lines)
                    _write_run(&lines, node.children)
                    following = _first_child_element(node)
                    if following != NULL:
                        open_nodes.push(node, False)
                        node = following
                        continue
                # the end of ``node``
                if _is_block(blocks, block_tags, node):
                    _end_line(&lines)
                if node == top:
                    break
                _write_run(&lines, node.next)
                following = _next_element(node)
                if following != NULL:
                    node = following
                    starting = True
                else:
                    open_nodes.depth -= 1
                    node = open_nodes.nodes[open_nodes.depth]
                    starting = False
        return lines.data[:lines.size].decode("utf-8") if lines.size else ""
    finally:
        free(lines.data)


cdef inline bint _is_xml_space(unsigned char byte) noexcept nogil:
    return byte == 32 or byte == 9 or byte == 13 or byte == 10


cdef tuple _words_of(tree.xmlNode* node, bint whole_run):
    """(``" ".join(text.split())``, its length in characters) of the text node ``node``, or with
    ``whole_run`` of the run of text nodes from it (as lxml's ``.text``/``.tail`` join them)."""
    cdef _Lines lines
    cdef Py_ssize_t characters = 0, i
    _start_lines(&lines)
    try:
        while node != NULL and _is_text(node):
            if node.content != NULL:
                _write_words(&lines, <const unsigned char*> node.content)
            node = node.next if whole_run else NULL
        for i in range(lines.size):
            if (<unsigned char> lines.data[i] & 0xC0) != 0x80:
                characters += 1
        return (lines.data[:lines.size].decode("utf-8") if lines.size else ""), characters
    finally:
        free(lines.data)


cdef object _collapsed(tree.xmlNode* node, bint whole_run):
    """``_words_of(node, whole_run)``, or None when the text is only XML whitespace
    (``not text.strip(" \t\r\n")``: page_texts' test; other whitespace gives an empty run)."""
    cdef tree.xmlNode* first = node
    cdef const unsigned char* s
    while node != NULL and _is_text(node):
        s = <const unsigned char*> node.content
        if s != NULL:
            while s[0]:
                if not _is_xml_space(s[0]):
                    return _words_of(first, whole_run)
                s += 1
        node = node.next if whole_run else NULL
    return None


cdef int _write_words(_Lines* lines, const unsigned char* s) except -1:
    """Write a text's words separated by one space (``" ".join(text.split())``, newlines included)."""
    cdef unsigned int c
    cdef int length, k
    while s[0]:
        c = _decode(s, &length)
        if _is_space(c):
            if lines.line_open:
                lines.pending_space = True
        else:
            _grow(lines, length + 1)
            if lines.line_open and lines.pending_space:
                lines.data[lines.size] = 32
                lines.size += 1
            lines.line_open = True
            lines.pending_space = False
            for k in range(length):
                lines.data[lines.size + k] = s[k]
            lines.size += length
        s += length
    return 0


cdef inline bint _named(tree.xmlNode* node, const char* name) noexcept nogil:
    return node.type == tree.XML_ELEMENT_NODE and node.ns == NULL and strcmp(<const char*> node.name, name) == 0


cdef inline bint _hides_text(tree.xmlNode* node) noexcept nogil:
    """Is this a script, style or noscript element (page_texts._HIDDEN_PARENTS)?"""
    return _named(node, "script") or _named(node, "style") or _named(node, "noscript")


# A walk over the text nodes below a <body> (``descendant::body/descendant::text()``, each once).
cdef struct _BodyTexts:
    tree.xmlNode* top
    tree.xmlNode* node      # the node last returned (NULL before the first)
    Py_ssize_t in_body      # the <body> elements open around ``node``
    bint odd                # stopped at a node other than an element, text, comment or PI


cdef inline tree.xmlNode* _leave_body_node(_BodyTexts* walk, tree.xmlNode* node) noexcept nogil:
    """The node after ``node`` and its subtree, leaving every ancestor it ends (NULL at the end)."""
    while True:
        if node != walk.top and _named(node, "body"):
            walk.in_body -= 1
        if node == walk.top:
            return NULL
        if node.next != NULL:
            return node.next
        node = node.parent


cdef tree.xmlNode* _next_body_text(_BodyTexts* walk) noexcept nogil:
    """The next text (or CDATA) node below a <body>, NULL at the end (or when ``walk.odd``)."""
    cdef tree.xmlNode* node = walk.top if walk.node == NULL else _leave_body_node(walk, walk.node)
    while node != NULL:
        if node.type == tree.XML_ELEMENT_NODE:
            if node != walk.top and _named(node, "body"):
                walk.in_body += 1
            if node.children != NULL:
                node = node.children
                continue
        elif node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE:
            if walk.in_body:
                walk.node = node
                return node
        elif node.type != tree.XML_COMMENT_NODE and node.type != tree.XML_PI_NODE:
            walk.odd = True
            return NULL
        node = _leave_body_node(walk, node)
    return NULL


cdef inline void _start_body_texts(_BodyTexts* walk, tree.xmlNode* top) noexcept nogil:
    walk.top = top
    walk.node = NULL
    walk.in_body = 0
    walk.odd = False


def visible_runs(cetree._Element root, Py_ssize_t max_chars):
    """page_texts.visible_runs: the text nodes below a <body> of ``root`` whose parent is not a
    script, style or noscript, each whitespace-collapsed, until their size passes ``max_chars``.

    None when the walk meets a node other than an element, text, comment or processing
    instruction first (the XPath then reads the texts).
    """
    cdef _BodyTexts walk
    cdef tree.xmlNode* node
    cdef Py_ssize_t size = 0
    runs = []
    _start_body_texts(&walk, root._c_node)
    while True:
        node = _next_body_text(&walk)
        if node == NULL:
            return None if walk.odd else runs
        if not _hides_text(node.parent):
            found = _collapsed(node, False)
            if found is not None:
                runs.append(found[0])
                size += <Py_ssize_t> found[1] + 1
                if size > max_chars:
                    return runs


def link_free_runs(cetree._Element body, Py_ssize_t max_chars, is_foreign):
    """page_texts.link_free_runs from ``body``: the same events as its lxml ``iterwalk``
    (start, end, comment, pi), the same size checks, the same runs.

    ``is_foreign`` is asked about the elements it could say yes to: a block of ``_foreign_tags``,
    or one with a class or id attribute (for any other it reads no name and says no).
    None when the subtree holds a node other than an element, text, comment or processing
    instruction, or a namespaced element, and before set_foreign_block_tags (the Python walk
    then runs).
    """
    cdef tree.xmlNode* top = body._c_node
    cdef tree.xmlNode* node
    cdef tree.xmlNode* opened = NULL
    cdef tree.xmlNode** open_nodes = NULL      # the elements started and not ended
    cdef char* shows = NULL                     # per open element: are its text nodes shown
    cdef Py_ssize_t depth = 0, capacity = 0, size = 0
    cdef object document = body._doc
    cdef bint skip
    runs = []
    if _foreign_tag_count < 0 or not _plain(top, True):
        return None
    found = _collapsed(top.children, True)
    if found is not None:
        runs.append(found[0])
        size = <Py_ssize_t> found[1] + 1
    try:
        capacity = 64
        open_nodes = <tree.xmlNode**> malloc(capacity * sizeof(tree.xmlNode*))
        shows = <char*> malloc(capacity)
        if open_nodes == NULL or shows == NULL:
            raise MemoryError()
        open_nodes[0] = top
        shows[0] = True
        depth = 1
        node = _first_element_like(top)
        while True:
            if node == NULL:
                # the end of the innermost open element
                depth -= 1
                node = open_nodes[depth]
                if depth == 0 or (size > max_chars and node != opened):
                    return runs
                if shows[depth - 1]:
                    size = _add_tail(runs, node, size)
                node = _next_element_like(node)
                continue
            if node.type == tree.XML_ELEMENT_NODE:
                if size > max_chars:
                    return runs
                opened = node
                skip = _named(node, "a")
                if not skip and _may_be_foreign(node):
                    skip = is_foreign(cetree.elementFactory(document, node))
                if skip:
                    # its end: nothing (a skipped block's tail is skipped too)
                    node = _next_element_like(node)
                    continue
                if depth == capacity:
                    capacity *= 2
                    open_nodes = <tree.xmlNode**> realloc(open_nodes, capacity * sizeof(tree.xmlNode*))
                    shows = <char*> realloc(shows, capacity)
                    if open_nodes == NULL or shows == NULL:
                        raise MemoryError()
                shows[depth] = not (_named(node, "script") or _named(node, "style") or _named(node, "noscript"))
                if shows[depth]:
                    found = _collapsed(node.children, True)
                    if found is not None:
                        runs.append(found[0])
                        size += <Py_ssize_t> found[1] + 1
                open_nodes[depth] = node
                depth += 1
                node = _first_element_like(node)
                continue
            # a comment or processing instruction: only its tail is text
            if size > max_chars:
                return runs
            opened = NULL
            if shows[depth - 1]:
                size = _add_tail(runs, node, size)
            node = _next_element_like(node)
    finally:
        free(open_nodes)
        free(shows)


cdef Py_ssize_t _add_tail(list runs, tree.xmlNode* node, Py_ssize_t size) except -1:
    found = _collapsed(node.next, True)
    if found is None:
        return size
    runs.append(found[0])
    return size + <Py_ssize_t> found[1] + 1


# The tags of the blocks the date search's is_foreign calls foreign whatever their names
# (dates.patterns.FOREIGN_BLOCK_TAGS), set by set_foreign_block_tags. Until they are set, the
# walks that ask is_foreign return None (the Python walks run).
cdef list _foreign_tag_names = []           # the bytes that _foreign_tags point into
cdef const char** _foreign_tags = NULL
cdef Py_ssize_t _foreign_tag_count = -1


def set_foreign_block_tags(tags):
    """Take the tags of the blocks the date search's is_foreign calls foreign by their tag alone."""
    global _foreign_tag_names, _foreign_tags, _foreign_tag_count
    cdef Py_ssize_t i
    names = sorted(tag.encode("utf-8") for tag in tags)
    table = <const char**> malloc(max(len(names), 1) * sizeof(const char*))
    if table == NULL:
        raise MemoryError()
    for i in range(len(names)):
        table[i] = <const char*> names[i]
    free(_foreign_tags)
    _foreign_tags, _foreign_tag_names, _foreign_tag_count = table, names, len(names)


cdef bint _may_be_foreign(tree.xmlNode* node) noexcept nogil:
    """Could the date search's is_foreign (dates.foreign.foreign_test) say yes: a block of
    ``_foreign_tags``, or an element with a class or id?"""
    cdef tree.xmlAttr* attribute
    cdef Py_ssize_t i
    for i in range(_foreign_tag_count):
        if _named(node, _foreign_tags[i]):
            return True
    attribute = node.properties
    while attribute != NULL:
        if attribute.ns == NULL and (strcmp(<const char*> attribute.name, "class") == 0
                                     or strcmp(<const char*> attribute.name, "id") == 0):
            return True
        attribute = attribute.next
    return False


def count_nodes(cetree._Element root, Py_ssize_t limit):
    """How many nodes ``root.iter()`` yields (elements, comments, PIs, entity references), counting
    no further than ``limit + 1``. Makes no proxies. No recursion: parent links lead back up."""
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    cdef Py_ssize_t count = 0
    while node != NULL:
        if cetree._isElement(node):
            count += 1
            if count > limit:
                return count
        node = _after(top, node, node.type == tree.XML_ELEMENT_NODE)
    return count


def select_attributes(cetree._Element root, dict chosen, tuple tests):
    """The elements of named_attributes.select_attributes: one per attribute (no namespace) of
    ``root``'s descendants whose value is one of ``chosen[name]``, or that passes one of
    ``tests`` ((tag or None, name, token or None): present; with a token, holding it between
    spaces), in document order, an element's attributes in their order.

    None where ``_walk`` gives none (the XPath then selects).
    """
    cdef _Walk walk = _walk(root._c_node)
    if walk is None:
        return None
    cdef Py_ssize_t i, k, chosen_count = len(chosen), test_count = len(tests)
    cdef tree.xmlNode* node
    cdef tree.xmlAttr* attribute
    cdef bint matched
    cdef object document = root._doc
    chosen_names = [name.encode("utf-8") for name in chosen]
    chosen_values = list(chosen.values())
    # The chosen values as UTF-8, compared with each value's bytes: no string made per attribute.
    chosen_bytes = [[value.encode("utf-8") for value in values] for values in chosen_values]
    cdef const char* text
    test_tags = [None if tag is None else tag.encode("utf-8") for tag, _name, _token in tests]
    test_names = [name.encode("utf-8") for _tag, name, _token in tests]
    test_tokens = [None if token is None else f" {token} " for _tag, _name, token in tests]
    selected = []
    for i in range(1, walk.size):
        node = walk.nodes[i]
        attribute = node.properties
        while attribute != NULL:
            if attribute.ns == NULL:
                matched = False
                for k in range(chosen_count):
                    if strcmp(<const char*> attribute.name, <const char*> (<bytes> chosen_names[k])) == 0:
                        text = _one_text(attribute)
                        if text == NULL:
                            matched = _value(node, attribute) in chosen_values[k]
                        else:
                            matched = any(strcmp(text, <const char*> value) == 0
                                          for value in <list> chosen_bytes[k])
                        break
                if not matched:
                    for k in range(test_count):
                        if strcmp(<const char*> attribute.name, <const char*> (<bytes> test_names[k])) != 0:
                            continue
                        if test_tags[k] is not None and \
                                strcmp(<const char*> node.name, <const char*> (<bytes> test_tags[k])) != 0:
                            continue
                        matched = test_tokens[k] is None or test_tokens[k] in f" {_value(node, attribute)} "
                        if matched:
                            break
                if matched:
                    selected.append(cetree.elementFactory(document, node))
            attribute = attribute.next
    return selected


cdef bint _blank_run(tree.xmlNode* node, bint whole_run) noexcept nogil:
    """Is the text from ``node`` empty or only whitespace (Python's ``str.strip``)? The run of
    text nodes from ``node`` (``.text``/``.tail``) with ``whole_run``, else ``node`` alone."""
    cdef const unsigned char* s
    cdef unsigned int c
    cdef int length
    while node != NULL and _is_text(node):
        s = <const unsigned char*> node.content
        if s != NULL:
            while s[0]:
                c = _decode(s, &length)
                if not _is_space(c):
                    return False
                s += length
        node = node.next if whole_run else NULL
    return True


# Slots of _TagNames' table (a power of two): a page has some 30 to 60 distinct tags.
cdef enum:
    _TAG_SLOTS = 128


cdef class _TagNames:
    """Elements' tag names as str, each made once per walk: libxml2 keeps one copy of each
    name per document, so its address is the key. A table of _TAG_SLOTS addresses answers
    without making a Python int per element (a dict keyed by the address took 2% of
    extract()'s time over ../shared/eval, 2026-11-26); the dict keeps every name made, and
    answers when two names share a slot."""
    cdef const_xmlChar* keys[_TAG_SLOTS]
    cdef PyObject* values[_TAG_SLOTS]   # borrowed: ``made`` holds them
    cdef dict made

    def __cinit__(self):
        self.made = {}

    cdef str of(self, tree.xmlNode* node):
        cdef size_t address = <size_t> node.name
        cdef Py_ssize_t slot = (address ^ (address >> 7)) & (_TAG_SLOTS - 1)
        if self.keys[slot] == node.name and node.name != NULL:
            return <str> self.values[slot]
        tag = self.made.get(address)
        if tag is None:
            tag = self.made[address] = (<bytes> node.name).decode("utf-8")
        self.keys[slot] = node.name
        self.values[slot] = <PyObject*> tag
        return tag


cdef bint _holds_only_inline(tree.xmlNode* node, _TagNames tags, block_tags) except -1:
    """output._holds_only_inline: some text or a child, and no block-level child but <br>."""
    cdef tree.xmlNode* child = node.children
    cdef bint has_child = False
    while child != NULL:
        if cetree._isElement(child):
            has_child = True
            if child.type == tree.XML_ELEMENT_NODE:
                tag = tags.of(child)
                if tag in block_tags and tag != "br":
                    return False
        child = child.next
    return has_child or not _blank_run(node.children, True)


def render_plan(cetree._Element wrapper, block_tags, kept_tags):
    """The elements output.render_html's tag and attribute pass changes, in document order.

    (element, tag, new tag or None) for each element of ``wrapper``'s tree that has attributes,
    is renamed (<h1> to <h2>; a block-level tag not kept, holding only inline content, to <p>)
    or is not kept; ``wrapper`` itself is never renamed or dropped. Decided on the tags as they
    are, as the Python pass does (it renames an element after its ancestors, before its
    children). None where ``_walk`` gives none.
    """
    cdef _Walk walk = _walk(wrapper._c_node)
    if walk is None:
        return None
    cdef Py_ssize_t i
    cdef tree.xmlNode* node
    cdef tree.xmlNode* top = wrapper._c_node
    cdef _TagNames tags = _TagNames()
    cdef object document = wrapper._doc
    plan = []
    for i in range(walk.size):
        node = walk.nodes[i]
        tag = tags.of(node)
        renamed = None
        if tag == "h1":
            renamed = "h2"
        elif node != top and tag in block_tags and tag not in kept_tags and \
                _holds_only_inline(node, tags, block_tags):
            renamed = "p"
        if renamed is not None or node.properties != NULL or (node != top and tag not in kept_tags):
            plan.append((cetree.elementFactory(document, node), tag, renamed))
    return plan


cdef bint _is_empty_block(tree.xmlNode* top) noexcept nogil:
    """output._is_empty_block: no text but whitespace, and no <img>, inside."""
    cdef tree.xmlNode* node = top.children
    cdef bint has_child = False
    if not _blank_run(node, True):
        return False
    while node != NULL:
        if cetree._isElement(node):
            has_child = True
            break
        node = node.next
    if not has_child:
        return True
    node = top
    while node != NULL:
        if node.type == tree.XML_ELEMENT_NODE and node != top and _named(node, "img"):
            return False
        if (node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE) and \
                not _blank_run(node, False):
            return False
        node = _after(top, node, node.type == tree.XML_ELEMENT_NODE)
    return True


def empty_blocks(cetree._Element wrapper):
    """The <p>, <li>, <figure> and <figcaption> elements of ``wrapper``'s tree that hold no text
    but whitespace and no image (output._is_empty_block), in document order. None where
    ``_walk`` gives none."""
    cdef _Walk walk = _walk(wrapper._c_node)
    if walk is None:
        return None
    cdef Py_ssize_t i
    cdef tree.xmlNode* node
    cdef object document = wrapper._doc
    empty = []
    for i in range(walk.size):
        node = walk.nodes[i]
        if (_named(node, "p") or _named(node, "li") or _named(node, "figure") or _named(node, "figcaption")) \
                and _is_empty_block(node):
            empty.append(cetree.elementFactory(document, node))
    return empty


cdef inline const char* _one_text(tree.xmlAttr* attribute) noexcept nogil:
    """The attribute's value as UTF-8 when it is one text node (most are), else NULL."""
    cdef tree.xmlNode* text = attribute.children
    if text != NULL and text.type == tree.XML_TEXT_NODE and text.next == NULL and text.content != NULL:
        return <const char*> text.content
    return NULL


cdef extern from "string.h":
    void* memmem(const void* haystack, size_t haystack_length, const void* needle, size_t needle_length) nogil


cdef class _Values:
    """The values of one attribute name in a tree, copied end to end with a NUL after each (no
    pointer into the tree: it answers the same after the tree changes, as the XPath table did)."""
    cdef bytes joined
    cdef size_t* starts
    cdef Py_ssize_t count
    cdef list others              # the values that are not one text node, read through lxml

    def __dealloc__(self):
        free(self.starts)

    def with_words(self, tuple words):
        """The distinct values holding one of ``words`` (case-sensitive), None for a word with a NUL.

        Each word is found with ``memmem`` from one hit's value to the next value: one pass over
        the values per word. In UTF-8 a character string is inside another exactly when its bytes
        are inside the other's, and no value or word holds a NUL, so a hit lies in one value.
        """
        if any("\0" in word for word in words):
            return None
        cdef const char* data = self.joined
        cdef size_t size = len(self.joined), position, word_length
        cdef const char* hit
        cdef Py_ssize_t low, high, middle, index
        cdef char* matched = <char*> calloc(max(self.count, 1), 1)
        if matched == NULL:
            raise MemoryError()
        found = set()
        try:
            for word in words:
                encoded = (<str> word).encode("utf-8")
                word_length = len(encoded)
                position = 0
                while self.count and position < size:
                    hit = <const char*> memmem(data + position, size - position, <const char*> encoded, word_length)
                    if hit == NULL:
                        break
                    low, high = 0, self.count - 1      # the value the hit lies in: the last start before it
                    while low < high:
                        middle = (low + high + 1) >> 1
                        if self.starts[middle] <= <size_t> (hit - data):
                            low = middle
                        else:
                            high = middle - 1
                    matched[low] = True
                    position = self.starts[low + 1] if low + 1 < self.count else size
            for index in range(self.count):
                if matched[index]:
                    found.add(PyUnicode_DecodeUTF8(data + self.starts[index], strlen(data + self.starts[index]), NULL))
        finally:
            free(matched)
        for value in self.others:
            if any(word in value for word in words):
                found.add(value)
        return found


def attribute_values(cetree._Element root, tuple names):
    """For named_attributes.words_in_values: a _Values of each name's values (no namespace) over
    ``root``'s descendants (``descendant::*/@name``), read in one walk. None where ``_walk``
    gives none."""
    cdef _Walk walk = _walk(root._c_node)
    if walk is None:
        return None
    cdef Py_ssize_t i, k, count = len(names)
    cdef tree.xmlNode* node
    cdef tree.xmlAttr* attribute
    cdef const char* text
    cdef size_t length
    cdef _Values values
    encoded = [name.encode("utf-8") for name in names]
    tables = [_Values() for _ in names]
    for k in range(count):
        values = tables[k]
        values.others = []
        values.starts = <size_t*> malloc(64 * sizeof(size_t))
        if values.starts == NULL:
            raise MemoryError()
    capacities = [64] * count
    cdef _Lines* joined = <_Lines*> calloc(count, sizeof(_Lines))
    if joined == NULL:
        raise MemoryError()
    try:
        for i in range(1, walk.size):
            node = walk.nodes[i]
            attribute = node.properties
            while attribute != NULL:
                if attribute.ns == NULL:
                    for k in range(count):
                        if strcmp(<const char*> attribute.name, <const char*> (<bytes> encoded[k])) != 0:
                            continue
                        values = tables[k]
                        text = _one_text(attribute)
                        if text == NULL:
                            values.others.append(cetree.attributeValue(node, attribute))
                            break
                        length = strlen(text)
                        _grow(&joined[k], length + 1)
                        if values.count == capacities[k]:
                            capacities[k] *= 2
                            values.starts = <size_t*> realloc(values.starts, <Py_ssize_t> capacities[k] * sizeof(size_t))
                            if values.starts == NULL:
                                raise MemoryError()
                        values.starts[values.count] = joined[k].size
                        values.count += 1
                        memcpy(joined[k].data + joined[k].size, text, length + 1)
                        joined[k].size += length + 1
                        break
                attribute = attribute.next
        for k in range(count):
            values = tables[k]
            values.joined = joined[k].data[:joined[k].size] if joined[k].size else b""
        return dict(zip(names, tables))
    finally:
        for k in range(count):
            free(joined[k].data)
        free(joined)


def body_texts_starting(cetree._Element root, str word):
    """The text nodes below a <body> of ``root`` (``descendant::body/descendant::text()``, each
    once) that start with ``word`` after their leading XML whitespace, in document order, as
    (text, its owner element, is tail): what lxml's smart strings of that XPath give
    (``getparent()``: the nearest element, comment or PI before the text among its siblings,
    else its parent; ``is_tail``: whether there was one before it).

    None when the tree holds a node other than an element, text, comment or PI.
    """
    cdef _BodyTexts walk
    cdef tree.xmlNode* node
    cdef tree.xmlNode* owner
    cdef bytes prefix = word.encode("utf-8")
    cdef size_t prefix_length = len(prefix)
    cdef const char* s
    cdef object document = root._doc
    found = []
    _start_body_texts(&walk, root._c_node)
    while True:
        node = _next_body_text(&walk)
        if node == NULL:
            return None if walk.odd else found
        if node.content == NULL:
            continue
        s = <const char*> node.content
        while _is_xml_space(<unsigned char> s[0]):
            s += 1
        if strncmp(s, <const char*> prefix, prefix_length) != 0:
            continue
        owner = node.prev
        while owner != NULL and not cetree._isElement(owner):
            owner = owner.prev
        is_tail = owner != NULL
        if owner == NULL:
            owner = node.parent
            while owner != NULL and not cetree._isElement(owner):
                owner = owner.parent
        text = PyUnicode_DecodeUTF8(<const char*> node.content, strlen(<const char*> node.content), NULL)
        found.append((text, None if owner == NULL else cetree.elementFactory(document, owner), is_tail))


cdef long _text_content_length(tree.xmlNode* top) noexcept nogil:
    """``len(element.text_content().strip())``: the subtree's text nodes read as one string."""
    cdef _Stripped counts
    cdef tree.xmlNode* node = top
    counts.total = counts.leading = counts.trailing = counts.marks = 0
    counts.seen_other = False
    while node != NULL:
        if node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE:
            if node.content != NULL:
                _read_stripped(&counts, <const unsigned char*> node.content)
        node = _after(top, node, node.type == tree.XML_ELEMENT_NODE or node == top)
    return counts.total - counts.leading - counts.trailing if counts.seen_other else 0


def link_counts(nodes):
    """For verdict.content_link_density and count_links: (the characters of the nodes'
    ``text_content().strip()``, the same summed over every <a> in them (each node included,
    nested links each counted), the number of those links). None when a node holds more than
    elements and text."""
    cdef cetree._Element element
    cdef tree.xmlNode* top
    cdef tree.xmlNode* node
    cdef long total = 0, links = 0, count = 0
    for element in nodes:
        if not _plain(element._c_node, False):
            return None
    for element in nodes:
        top = element._c_node
        total += _text_content_length(top)
        node = top
        while node != NULL:
            if node.type == tree.XML_ELEMENT_NODE and _named(node, "a"):
                links += _text_content_length(node)
                count += 1
            node = _after(top, node, node.type == tree.XML_ELEMENT_NODE)
    return total, links, count


def tagged_elements(cetree._Element root, tags, hidden_tags):
    """metadata.tagged_elements' table: {tag: its elements} for each of ``tags``, and "hidden":
    the elements of ``hidden_tags`` together, in document order (``root.iter(*tags)``'s, root
    included). Proxies are made for these elements only. None where ``_walk`` gives none."""
    cdef _Walk walk = _walk(root._c_node)
    if walk is None:
        return None
    cdef Py_ssize_t i
    cdef _TagNames names = _TagNames()
    cdef object document = root._doc
    found = {tag: [] for tag in tags}
    hidden = found["hidden"] = []
    for i in range(walk.size):
        tag = names.of(walk.nodes[i])
        elements = found.get(tag)
        if elements is None or tag == "hidden":
            continue
        element = cetree.elementFactory(document, walk.nodes[i])
        (<list> elements).append(element)
        if tag in hidden_tags:
            hidden.append(element)
    return found


def attribute_rows(elements, tuple names):
    """The values of the named attributes (no namespace) of each element, None when absent, as
    ``element.get(name)`` gives them: one tuple per element, one pass over its attributes."""
    cdef cetree._Element element
    cdef tree.xmlAttr* attribute
    cdef Py_ssize_t k, count = len(names)
    encoded = [name.encode("utf-8") for name in names]
    rows = []
    for element in elements:
        values = [None] * count
        attribute = element._c_node.properties
        while attribute != NULL:
            if attribute.ns == NULL:
                for k in range(count):
                    if values[k] is None and strcmp(<const char*> attribute.name, <const char*> (<bytes> encoded[k])) == 0:
                        values[k] = _value(element._c_node, attribute)
                        break
            attribute = attribute.next
        rows.append(tuple(values))
    return rows


def collapsed_texts(elements):
    """``" ".join(element.text_content().split())`` of each element. None when one holds more than
    elements and text."""
    cdef cetree._Element element
    cdef tree.xmlNode* top
    cdef tree.xmlNode* node
    cdef _Lines lines
    for element in elements:
        if not _plain(element._c_node, False):
            return None
    texts = []
    _start_lines(&lines)
    try:
        for element in elements:
            lines.size = 0   # the buffer is reused
            lines.line_open = lines.pending_space = lines.any_line = False
            top = element._c_node
            node = top
            while node != NULL:
                if node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE:
                    if node.content != NULL:
                        _write_words(&lines, <const unsigned char*> node.content)
                node = _after(top, node, node.type == tree.XML_ELEMENT_NODE)
            texts.append(lines.data[:lines.size].decode("utf-8") if lines.size else "")
    finally:
        free(lines.data)
    return texts


cdef class _Runs:
    """The runs title.iter_following_texts yields, collected up to a size (see following_runs)."""
    cdef list runs
    cdef Py_ssize_t size, max_chars
    cdef object skip, invisible
    cdef object document
    cdef _TagNames tags
    cdef bint odd           # met a node that lxml's iterwalk may treat otherwise (an entity reference)

    cdef bint add(self, tree.xmlNode* node) except -1:
        """Add ``" ".join(run.split())`` of the text run from ``node`` when it has words; True once
        the size reaches max_chars (the caller stops there)."""
        if node != NULL and _is_text(node):
            words, characters = _words_of(node, True)
            if characters:
                self.runs.append(words)
                self.size += characters + 1
        return self.size >= self.max_chars

    cdef bint hidden(self, tree.xmlNode* node) except -1:
        """An invisible element, or one ``skip`` drops (asked only about visible elements that
        ``_may_be_foreign`` lets through: ``skip`` is the date search's is_foreign)."""
        if self.tags.of(node) in self.invisible:
            return True
        return self.skip is not None and _may_be_foreign(node) and \
            bool(self.skip(cetree.elementFactory(self.document, node)))

    cdef bint block(self, tree.xmlNode* top) except -1:
        """title._block_texts of ``top`` (its tail included); True when the size is reached or
        the walk meets what it leaves to Python (``odd``: an entity reference, a namespaced element).

        lxml's iterwalk, replayed with its own stack of open elements: an element's text at its
        start, a child's tail at the child's end (a skipped child's too), a comment's or PI's
        tail at its event.
        """
        cdef tree.xmlNode* child
        cdef _Pending open_nodes = _Pending()
        if top.type == tree.XML_ENTITY_REF_NODE or (top.type == tree.XML_ELEMENT_NODE and top.ns != NULL):
            self.odd = True
            return True
        if top.type != tree.XML_ELEMENT_NODE or self.hidden(top):
            return self.add(top.next)
        if self.add(top.children):
            return True
        child = _first_element_like(top)
        while True:
            if child == NULL:                     # the end of the innermost open element
                if open_nodes.depth == 0:
                    return self.add(top.next)
                open_nodes.depth -= 1
                if self.add(open_nodes.nodes[open_nodes.depth].next):
                    return True
                child = _next_element_like(open_nodes.nodes[open_nodes.depth])
                continue
            if child.type == tree.XML_ENTITY_REF_NODE or (child.type == tree.XML_ELEMENT_NODE and child.ns != NULL):
                self.odd = True
                return True
            if child.type == tree.XML_ELEMENT_NODE and not self.hidden(child):
                if self.add(child.children):
                    return True
                open_nodes.push(child, False)
                child = _first_element_like(child)
                continue
            if self.add(child.next):             # a skipped element, a comment or a PI: its tail
                return True
            child = _next_element_like(child)


cdef inline tree.xmlNode* _next_element_like(tree.xmlNode* node) noexcept nogil:
    node = node.next
    while node != NULL and not cetree._isElement(node):
        node = node.next
    return node


cdef _Runs _start_runs(cetree._Element element, Py_ssize_t max_chars, skip, invisible_tags):
    cdef _Runs runs = _Runs()
    runs.runs = []
    runs.size = 0
    runs.max_chars = max_chars
    runs.skip = skip
    runs.invisible = invisible_tags
    runs.document = element._doc
    runs.tags = _TagNames()
    runs.odd = False
    return runs


def following_runs(cetree._Element element, Py_ssize_t max_chars, skip, invisible_tags):
    """title.iter_following_texts' runs, all of them up to ``max_chars`` (as a list): the
    element's tail, the runs of its following siblings (``_block_texts``), then the same from
    its parent, and up. ``skip`` is called in the same order as there, except on the elements
    it must say no to (``_may_be_foreign``: not a block of ``_foreign_tags``, no class or id). None
    when a walked block holds an entity reference, or with a ``skip`` before
    set_foreign_block_tags (the Python walk then runs).
    """
    cdef _Runs runs = _start_runs(element, max_chars, skip, invisible_tags)
    cdef tree.xmlNode* node = element._c_node
    cdef tree.xmlNode* sibling
    if skip is not None and _foreign_tag_count < 0:
        return None
    while node != NULL and runs.size < max_chars:
        if runs.add(node.next):
            return runs.runs
        sibling = node.next
        while sibling != NULL:
            if cetree._isElement(sibling) and runs.block(sibling):
                return None if runs.odd else runs.runs
            sibling = sibling.next
        node = node.parent
        if node != NULL and node.type != tree.XML_ELEMENT_NODE:
            node = NULL
    return runs.runs


def preceding_runs(cetree._Element element, Py_ssize_t max_chars, skip, invisible_tags):
    """title.preceding_texts: the runs before ``element``, nearest first, to ~``max_chars``: each
    preceding sibling walked in reverse document order (its tail, its children backwards, then
    its text; invisible and skipped elements give their tail only), then the parent's own text,
    and up. ``skip`` is asked in the same order (not on the elements ``_may_be_foreign`` rules
    out). None at an entity reference or a namespaced element, or with a ``skip`` before
    set_foreign_block_tags (the Python walk then runs).
    """
    cdef _Runs runs = _start_runs(element, max_chars, skip, invisible_tags)
    cdef _Pending pending = _Pending()
    cdef tree.xmlNode* node = element._c_node
    cdef tree.xmlNode* sibling
    cdef tree.xmlNode* item
    cdef tree.xmlNode* child
    if skip is not None and _foreign_tag_count < 0:
        return None
    while node != NULL and runs.size < max_chars:
        sibling = node.prev
        while sibling != NULL:
            if cetree._isElement(sibling):
                pending.push(sibling, False)
                while pending.depth:
                    pending.depth -= 1
                    item = pending.nodes[pending.depth]
                    if pending.opened[pending.depth]:   # its text, after its children
                        if runs.add(item.children):
                            return runs.runs
                        continue
                    if item.type == tree.XML_ENTITY_REF_NODE or (item.type == tree.XML_ELEMENT_NODE and item.ns != NULL):
                        return None
                    if runs.add(item.next):             # its tail
                        return runs.runs
                    if item.type == tree.XML_ELEMENT_NODE and not runs.hidden(item):
                        pending.push(item, True)
                        child = _first_element_like(item)
                        while child != NULL:            # pushed in order: popped last first
                            pending.push(child, False)
                            child = _next_element_like(child)
            sibling = sibling.prev
        node = node.parent
        if node != NULL and node.type != tree.XML_ELEMENT_NODE:
            node = NULL
        if node != NULL:
            runs.add(node.children)                     # the parent's own text, whatever the size
    return runs.runs


# --- the text fingerprint's shingles and MinHash (newscrawl.crawl.fingerprint) ------------------
# Not a walk over the tree: the crawl's extraction worker computes it for every article, and the
# numpy recipe of fingerprint.py costs ~12 array passes over the text. The recipe is fingerprint.py's
# (its module docstring); tests/test_fingerprint.py holds both equal to a plain reference.

cdef inline unsigned long long _fmix_wide(unsigned long long value) noexcept nogil:
    """MurmurHash3's 32-bit finalizer on a 64-bit value (what numpy computes on reduceat's sums)."""
    value ^= value >> 16
    value *= 0x85EBCA6BULL
    value ^= value >> 13
    value *= 0xC2B2AE35ULL
    return value ^ (value >> 16)


cdef inline unsigned int _fmix32(unsigned int value) noexcept nogil:
    value ^= value >> 16
    value *= 0x85EBCA6BU
    value ^= value >> 13
    value *= 0xC2B2AE35U
    return value ^ (value >> 16)


cdef enum:
    _MAX_PERMUTATIONS = 256
    _MAX_WANTED_SHINGLES = 64


cdef struct _Shingler:
    unsigned int window[3]          # the last three word hashes, oldest first
    Py_ssize_t words
    unsigned int multipliers[3]
    unsigned int first[_MAX_PERMUTATIONS]       # the permutations' a and b
    unsigned int second[_MAX_PERMUTATIONS]
    unsigned int signature[_MAX_PERMUTATIONS]
    Py_ssize_t perms
    unsigned int distinct[_MAX_WANTED_SHINGLES]  # the first distinct shingles, up to ``wanted``
    Py_ssize_t found
    Py_ssize_t wanted


cdef inline void _add_word(_Shingler* s, unsigned int word) noexcept nogil:
    cdef unsigned int shingle, mixed, value
    cdef Py_ssize_t j
    s.window[0] = s.window[1]
    s.window[1] = s.window[2]
    s.window[2] = word
    s.words += 1
    if s.words < 3:
        return
    shingle = s.window[0] * s.multipliers[0] + s.window[1] * s.multipliers[1] + s.window[2] * s.multipliers[2]
    if s.found < s.wanted:
        for j in range(s.found):
            if s.distinct[j] == shingle:
                break
        else:
            s.distinct[s.found] = shingle
            s.found += 1
    mixed = _fmix32(shingle)
    for j in range(s.perms):
        value = mixed * s.first[j] + s.second[j]
        s.signature[j] = value if value < s.signature[j] else s.signature[j]


def text_minhash(str text, bytes classes, bytes permutations, unsigned int word_base,
                 Py_ssize_t max_word_position, tuple multipliers, Py_ssize_t min_shingles):
    """The MinHash signature (bytes of uint32 values) of the lower-cased ``text``'s 3-word shingles,
    or None when it has fewer than ``min_shingles`` distinct ones: fingerprint.shingle_hashes and
    minhash_signature in one pass over the text, no array made. ``classes``: the class byte (0
    other, 1 letter or digit, 2 a word by itself) of each BMP code point; ``permutations``: the a
    values, then the b values (uint32, native order)."""
    cdef Py_ssize_t perms = len(permutations) // 8
    if (len(classes) != 0x10000 or not 0 < perms <= _MAX_PERMUTATIONS or len(permutations) != perms * 8
            or len(multipliers) != 3 or not 0 < min_shingles <= _MAX_WANTED_SHINGLES):
        raise ValueError("text_minhash: unexpected tables")
    cdef _Shingler s
    cdef const unsigned char* table = classes
    cdef Py_ssize_t j
    s.words = 0
    s.found = 0
    s.wanted = min_shingles
    s.perms = perms
    for j in range(3):
        s.multipliers[j] = <unsigned int>multipliers[j]
    memcpy(s.first, <const char*>permutations, perms * 4)
    memcpy(s.second, (<const char*>permutations) + perms * 4, perms * 4)
    for j in range(perms):
        s.signature[j] = 0xFFFFFFFFU
    cdef Py_UCS4 character
    cdef unsigned int code
    cdef unsigned char kind
    cdef bint in_word = False
    cdef unsigned long long total = 0    # the word's polynomial hash, summed in 64 bits as numpy's reduceat
    cdef unsigned int power = 1
    cdef Py_ssize_t position = 0
    for character in text:
        code = <unsigned int>character
        kind = table[code] if code <= 0xFFFF else 0
        if kind == 1:
            if not in_word:
                in_word = True
                total = 0
                power = 1
                position = 0
            total += <unsigned int>(code * power)
            if position < max_word_position:
                position += 1
                power *= word_base
            continue
        if in_word:
            _add_word(&s, <unsigned int>_fmix_wide(total))
            in_word = False
        if kind == 2:
            _add_word(&s, <unsigned int>_fmix_wide(code))
    if in_word:
        _add_word(&s, <unsigned int>_fmix_wide(total))
    if s.found < min_shingles:
        return None
    return (<char*>s.signature)[:perms * 4]


# --- paragraph starts in a script's text (serialized.may_carry_article) --------------------------

from cpython.unicode cimport Py_UNICODE_ISSPACE


cdef inline bint _is_p(Py_UCS4 c) noexcept:
    return c == u'p' or c == u'P'


def paragraph_starts(str text, Py_ssize_t wanted):
    """How many matches ``re.finditer(r"<p[\\s>]|\\\\u003cp[\\s>\\\\]", text, re.IGNORECASE)`` yields,
    counted up to ``wanted``: serialized.may_carry_article's count in one pass instead of four
    ``str.count`` and a regular expression. Matches do not overlap (a match's last character
    starts no other)."""
    cdef Py_ssize_t length = len(text)
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t found = 0
    cdef Py_UCS4 c, after
    while i < length and found < wanted:
        c = text[i]
        if c == u'<':
            if i + 2 < length and _is_p(text[i + 1]):
                after = text[i + 2]
                if after == u'>' or Py_UNICODE_ISSPACE(after):
                    found += 1
                    i += 3
                    continue
        elif c == u'\\':
            if (i + 7 < length and (text[i + 1] == u'u' or text[i + 1] == u'U') and text[i + 2] == u'0'
                    and text[i + 3] == u'0' and text[i + 4] == u'3' and (text[i + 5] == u'c' or text[i + 5] == u'C')
                    and _is_p(text[i + 6])):
                after = text[i + 7]
                if after == u'>' or after == u'\\' or Py_UNICODE_ISSPACE(after):
                    found += 1
                    i += 8
                    continue
        i += 1
    return found


# --- runs of text and ordinary tags (newscrawl.crawl.noise_cut) ----------------------------------
# The noise cut reads most of a page as "runs": text and tags of elements it neither cuts nor treats
# as raw text. Its regular expression does that at ~3-5 ns a character; this scan reads the same runs
# (tests/test_noise_cut.py holds its ends equal to the expression's). The expression stays the
# reference, and the cut's way without the compiled walks.

cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil


cdef struct _Text:
    int kind
    void* data
    Py_ssize_t length


cdef inline Py_UCS4 _char(_Text* t, Py_ssize_t i) noexcept nogil:
    return PyUnicode_READ(t.kind, t.data, i)


cdef inline bint _html_space(Py_UCS4 c) noexcept nogil:
    return c == 9 or c == 10 or c == 12 or c == 13 or c == 32


cdef inline bint _ascii_letter(Py_UCS4 c) noexcept nogil:
    cdef unsigned int code = <unsigned int>c
    return ((code | 0x20) - 97) < 26


cdef inline unsigned int _lower(Py_UCS4 c) noexcept nogil:
    cdef unsigned int code = <unsigned int>c
    return code | 0x20 if 65 <= code <= 90 else code


cdef bint _starts(_Text* t, Py_ssize_t at, const char* word) noexcept nogil:
    """Whether the text at ``at`` spells ``word`` (lower-case ASCII), in any case."""
    cdef Py_ssize_t i = 0
    while word[i] != 0:
        if at + i >= t.length or _lower(_char(t, at + i)) != <unsigned char>word[i]:
            return False
        i += 1
    return True


cdef inline bint _delimits(_Text* t, Py_ssize_t at) noexcept nogil:
    """_DELIM: a space, "/", ">" or the end of the text."""
    cdef Py_UCS4 c
    if at >= t.length:
        return True
    c = _char(t, at)
    return _html_space(c) or c == u'/' or c == u'>'


cdef inline bint _name_at(_Text* t, Py_ssize_t at, const char* name) noexcept nogil:
    return _starts(t, at, name) and _delimits(t, at + <Py_ssize_t>strlen(name))


cdef bint _stops(_Text* t, Py_ssize_t at) noexcept nogil:
    """_STOPPING_START_TAG at ``at`` (just after "<"): a special element's start tag, or a <meta> whose
    text up to the next ">" (after the one character ending its name) says charset or http-equiv."""
    cdef Py_ssize_t i, end
    if (_name_at(t, at, b"script") or _name_at(t, at, b"noscript") or _name_at(t, at, b"style")
            or _name_at(t, at, b"iframe") or _name_at(t, at, b"title") or _name_at(t, at, b"textarea")
            or _name_at(t, at, b"xmp") or _name_at(t, at, b"noembed") or _name_at(t, at, b"noframes")
            or _name_at(t, at, b"plaintext")):
        return True
    if not _name_at(t, at, b"meta"):
        return False
    i = at + 5 if at + 4 < t.length else at + 4   # the character ending the name is read, whatever it is
    end = i
    while end < t.length and _char(t, end) != u'>':
        end += 1
    while i < end:
        if _starts(t, i, b"charset") or _starts(t, i, b"http-equiv"):
            return True
        i += 1
    return False


cdef Py_ssize_t _tag_rest(_Text* t, Py_ssize_t i) noexcept nogil:
    """Where an ordinary tag whose name starts at ``i`` ends (after its ">"), read as _NAME and
    _PLAIN_ATTRIBUTES read it; -1 where they do not read it."""
    cdef Py_UCS4 c, quote
    cdef Py_ssize_t close
    i += 1                                   # the name's first letter (checked by the caller)
    while i < t.length:
        c = _char(t, i)
        if _html_space(c) or c == u'/' or c == u'>':
            break
        i += 1
    while True:
        while i < t.length:                  # attribute text: [^>"'=]*
            c = _char(t, i)
            if c == u'>' or c == u'"' or c == u"'" or c == u'=':
                break
            i += 1
        if i >= t.length:
            return -1
        c = _char(t, i)
        if c == u'>':
            return i + 1
        if c != u'=':
            return -1                        # a quote not after "="
        c = _char(t, i - 1)                  # "=" after a name, not after a space, "/" or a quote
        if _html_space(c) or c == u'/' or c == u'"' or c == u"'":
            return -1
        i += 1
        while i < t.length and _html_space(_char(t, i)):
            i += 1
        if i >= t.length:
            return -1
        c = _char(t, i)
        if c == u'"' or c == u"'":
            quote = c
            close = i + 1
            while close < t.length and _char(t, close) != quote:
                close += 1
            if close < t.length:
                i = close + 1
            # else: no value (the expression's optional value); the quote then ends the reading
        elif not (_html_space(c) or c == u'>'):
            i += 1
            while i < t.length:
                c = _char(t, i)
                if _html_space(c) or c == u'>':
                    break
                i += 1


def run_end(str text, Py_ssize_t position, bint in_noscript):
    """Where the run of text and ordinary tags starting at ``position`` ends: what the ``run`` group of
    noise_cut's token pattern matches there (``position`` itself where it matches nothing).
    ``in_noscript``: the pattern inside a noscript being cut (a run stops before ``</noscript``)."""
    cdef _Text t
    t.kind = PyUnicode_KIND(text)
    t.data = PyUnicode_DATA(text)
    t.length = len(text)
    cdef Py_ssize_t i = position
    cdef Py_ssize_t end
    cdef Py_UCS4 c
    if not 0 <= position <= t.length:
        raise IndexError("run_end: position outside the text")
    while i < t.length:
        c = _char(&t, i)
        if c != u'<':
            i += 1
            continue
        if i + 1 >= t.length:            # a "<" ending the text is text
            i += 1
            continue
        c = _char(&t, i + 1)
        if _ascii_letter(c):
            if _stops(&t, i + 1):
                break
            end = _tag_rest(&t, i + 1)
        elif c == u'/':
            if i + 2 < t.length and _char(&t, i + 2) == u'>':
                end = i + 3              # "</>"
            elif i + 2 < t.length and _ascii_letter(_char(&t, i + 2)) and not (
                    in_noscript and _starts(&t, i + 2, b"noscript") and _delimits(&t, i + 10)):
                end = _tag_rest(&t, i + 2)
            else:
                end = -1
        elif c == u'!':
            end = -1
            if _starts(&t, i + 2, b"doctype"):
                end = i + 9
                while end < t.length and _char(&t, end) != u'>':
                    end += 1
                end = end + 1 if end < t.length else -1
        elif c == u'?':
            end = -1
        else:
            end = i + 1                  # a "<" that starts no tag is text
        if end < 0:
            break
        i = end
    return i
