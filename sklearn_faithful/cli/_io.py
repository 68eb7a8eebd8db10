"""Readers of the command line's input files.

Every reader returns plain numpy arrays and raises :class:`InputError`, whose
message names the file and the line and says the fix, for anything it cannot
read. The statistics are not computed here: the commands pass the arrays to
the package's Python functions.

Files are read in chunks of :data:`CHUNK_BYTES`. Label files become integer
codes as the chunks go by (:class:`LabelReader`): a file is never a list of
Python strings, only each chunk's distinct labels are.
"""

import collections
import csv
import gc
import itertools
import json
import operator
import os
import re
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

# Probabilities printed to text lose digits, so a row of a probability file
# may sum to 1 only up to its rounding: 1e-3 passes any row printed with four
# or more decimals (the package's functions warn from sqrt(eps) on).
ROW_SUM_TOLERANCE = 1e-3

# Bytes read at a time: about half a million short lines, whose codes and
# working arrays take a few tens of MiB, whatever the size of the file.
CHUNK_BYTES = 2**22

# Rows of a CSV/TSV or JSON Lines file parsed at a time.
ROWS_PER_CHUNK = 2**16


class InputError(Exception):
    """Bad input; the message names the file and line and says the fix."""


# the CLI's name of each file given on the command line (set by ``main``):
# messages about a file as a whole say which argument or option gave it
ARGUMENTS = {}

# A line longer than this is no line of labels, numbers or tokens: the file
# is of another kind (binary, or one giant line), and is refused before its
# lines are held in memory.
MAX_LINE_BYTES = 2**24

BOM_UTF8 = b"\xef\xbb\xbf"
BOMS_UTF16 = (b"\xff\xfe", b"\xfe\xff")


class InputWarning(UserWarning):
    """A file was read, but changed on the way: the message says how."""


class InputNote(UserWarning):
    """A file was read as a person means it; the message says what was
    left out (a byte-order mark)."""


def _argument(path):
    """How the command line names ``path``: ``"GOLD file"``, ``"--groups file"``."""
    return f"{ARGUMENTS.get(str(path), 'input')} file"


def _check_regular(path):
    """Refuse what is not a regular file (a FIFO would block) before opening it."""
    from ..utils._files import check_regular_file

    try:
        return check_regular_file(path, what=_argument(path))
    except ValueError as exc:
        raise InputError(str(exc)) from None


def _open(path):
    """``path`` opened for reading bytes, or the error that says why not."""
    _check_regular(path)
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}).") from None


def check_memory(n_bytes, what):
    """Refuse, before numpy asks for it, more memory than the machine has.

    ``what`` says what needs the memory, as the command line names it.
    """
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return
    if n_bytes > total:
        raise InputError(
            f"{what} needs about {n_bytes / 2**30:.3g} GiB of memory, more than "
            f"this machine's {total / 2**30:.3g} GiB; is the number right?"
        )


def _empty_error(path):
    return InputError(
        f"{path} is empty; it needs one line per item (one label, one row "
        "of probabilities or one token per line)."
    )


def _not_utf8(path, line):
    return InputError(f"{path}, line {line}: not UTF-8 text; save the file as UTF-8.")


def _first_block(path, block):
    """``block``, the first of ``path``, without a UTF-8 BOM (noted), checked
    for UTF-16 and for CR-only line ends."""
    if block.startswith(BOMS_UTF16):
        raise InputError(
            f"{path} is UTF-16 text (it starts with a UTF-16 byte-order mark); "
            "save it as UTF-8."
        )
    if block.startswith(BOM_UTF8):
        import warnings

        warnings.warn(
            f"{path} starts with a UTF-8 byte-order mark (BOM); it was left out "
            "of the first line.",
            InputNote,
            stacklevel=2,
        )
        block = block[len(BOM_UTF8) :]
    if b"\n" not in block and b"\r" in block.rstrip(b"\r"):
        raise InputError(
            f"{path}, line 1: lines end with a carriage return alone (old Mac "
            "line ends), so the file reads as one line; convert it, e.g. "
            f"tr '\\r' '\\n' < {path} > fixed.txt."
        )
    return block


def _inner_cr(path, line):
    return InputError(
        f"{path}, line {line}: a carriage return inside the line; the file mixes "
        "line ends. Save it with one kind (LF or CRLF)."
    )


def _nul_error(path, line):
    return InputError(
        f"{path}, line {line}: a NUL byte; this is no text file (a binary file, "
        "or UTF-16 text: save it as UTF-8)."
    )


def _byte_chunks(path):
    """Yield the bytes of ``path`` cut at line ends, a chunk at a time
    (:func:`_numbered_chunks` without the numbers)."""
    for _, _, chunk in _numbered_chunks(path):
        yield chunk


def _numbered_chunks(path):
    """Yield ``(line, stop, chunk)``: the bytes of ``path`` cut at line ends,
    a chunk at a time, whose lines are ``range(line, stop)``.

    Each chunk holds whole lines without the last one's ``\\n`` (a file's last
    line may lack it). A UTF-8 byte-order mark is left out (and noted); a
    NUL byte, UTF-16 text, CR-only line ends and a line longer than
    :data:`MAX_LINE_BYTES` are errors.
    """
    with _open(path) as f:
        rest, line = b"", 1  # line: the number of the first line of ``rest``
        first = True
        while True:
            try:
                # the first block holds at least a byte-order mark and a line end
                block = f.read(max(CHUNK_BYTES, 64) if first else CHUNK_BYTES)
            except OSError as exc:
                raise InputError(f"{path}: cannot be read ({exc.strerror}).") from None
            if not block:
                break
            if first:
                block, first = _first_block(path, block), False
            block = rest + block
            nul = block.find(b"\0")
            if nul >= 0:
                raise _nul_error(path, line + block.count(b"\n", 0, nul))
            cut = block.rfind(b"\n")
            if cut < 0:
                if len(block) > MAX_LINE_BYTES:
                    raise InputError(
                        f"{path}, line {line}: longer than {MAX_LINE_BYTES:,} bytes; "
                        "this is no file of one item a line (a binary file?)."
                    )
                rest = block
                continue
            rest = block[cut + 1 :]
            chunk = block[:cut]
            stop = line + chunk.count(b"\n") + 1
            yield line, stop, chunk
            line = stop
        if rest:
            yield line, line + rest.count(b"\n") + 1, rest


def _text_blocks(path):
    """Yield ``(line, stop, text)``: a UTF-8 text file a chunk at a time,
    each chunk's lines (``range(line, stop)``) joined by ``\\n`` as written
    (a trailing ``\\r`` kept). A file of nothing but white space is an
    error, raised before any chunk is yielded.
    """
    blank, held = True, []
    for first, stop, data in _numbered_chunks(path):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_utf8(path, first + data.count(b"\n", 0, exc.start)) from None
        if blank:
            held.append((first, stop, text))
            if not text.strip():
                continue
            blank = False
            yield from held
            held = None
            continue
        yield first, stop, text
    if blank:
        raise _empty_error(path)


def _split_lines(text):
    """The lines of a chunk of :func:`_text_blocks`, without a trailing ``\\r``."""
    lines = text.split("\n")
    if "\r" in text:
        lines = [v.rstrip("\r") for v in lines]
    return lines


def _text_chunks(path, blocks=None):
    """Yield ``(line, lines)``: the lines of a UTF-8 text file, a chunk at a time.

    Lines end at ``\\n`` only and lose a trailing ``\\r``; ``line`` is the
    number of the chunk's first line. A file of nothing but white space is
    an error, raised before any line is yielded. ``blocks`` are the file's
    :func:`_text_blocks`, when some were read already.
    """
    for line, _, text in _text_blocks(path) if blocks is None else blocks:
        yield line, _split_lines(text)


def _read_text(path):
    """The lines of a (small) text file, without their line ends; errors for none."""
    return [v for _, lines in _text_chunks(path) for v in lines]


class _Index(dict):
    """Label -> code; a label not seen before takes the next code."""

    def __missing__(self, key):
        self[key] = code = len(self)
        return code


# Lines of at most this many 8-byte words take the vectorised path.
_MAX_WORDS = 8
# word k of a line is multiplied by _MIX[k + 1] and its length by _MIX[0] in
# the line's hash; odd multipliers, so that a word of zeros adds nothing and
# the hash of a line does not depend on how many words a chunk reads
_MIX = np.random.default_rng(20231123).integers(
    2**62, size=_MAX_WORDS + 1, dtype=np.uint64
) * np.uint64(2) + np.uint64(1)
# _MASKS[j] keeps the first j bytes of a little-endian word
_MASKS = np.array([(1 << (8 * j)) - 1 for j in range(9)], dtype=np.uint64)


def _keys(lengths, words, short):
    """The lookup key of each line.

    Lines of at most 7 bytes (``short``): the line itself with its length
    in the top byte, exact. Longer lines: the hash ``length * m_0 + sum_k
    word_k * m_(k+1)`` modulo 2**64, which a lookup checks against the
    line's words.
    """
    if short:
        keys = lengths.view(np.uint64) << np.uint64(56)  # lengths are >= 0
        keys |= words[:, 0]
        return keys
    keys = lengths.astype(np.uint64) * _MIX[0]
    for k in range(words.shape[1]):
        keys += words[:, k] * _MIX[k + 1]
    return keys


# Perfect hashes are built for at most this many keys, in 2 * K**2 slots.
_MAX_PERFECT = 1024


def _perfect_hash(keys, codes):
    """A table where each of ``keys`` (distinct uint64) has a slot of its own.

    Returns ``(multiplier, shift, slot_keys, slot_codes)``: the slot of a key
    is ``(key * multiplier mod 2**64) >> shift`` (multiplicative hashing),
    and ``slot_keys[slot] == key`` tells whether a key is one of ``keys``
    (an empty slot holds a key whose slot is another). None when no
    multiplier tried spreads the keys, or there are too many.
    """
    if keys.size > _MAX_PERFECT:
        return None
    bits = 2 * int(keys.size).bit_length() + 1
    shift = np.uint64(64 - bits)
    rng = np.random.default_rng(keys.size)
    for _ in range(16):
        multiplier = rng.integers(2**63, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        slots = (keys * multiplier) >> shift
        if np.unique(slots).size == keys.size:
            slot_keys = np.full(2**bits, keys[0], np.uint64)
            slot_codes = np.zeros(2**bits, np.intp)
            slot_keys[slots], slot_codes[slots] = keys, codes
            return multiplier, shift, slot_keys, slot_codes
    return None


def _line_words(data):
    """The lines of ``data`` (bytes joined by ``\\n``) as 8-byte words.

    Returns ``(starts, lengths, words, keys, short)``: where each line
    starts, its length, its words (little-endian, zeros past its end), its
    lookup key (:func:`_keys`) and whether every line is short; None when
    a line is longer than ``_MAX_WORDS`` words.
    """
    a = np.frombuffer(data, np.uint8)
    ends = np.flatnonzero(a == 10)
    starts = np.empty(ends.size + 1, np.intp)
    starts[0] = 0
    np.add(ends, 1, out=starts[1:])
    lengths = np.empty_like(starts)
    np.subtract(ends, starts[:-1], out=lengths[:-1])
    lengths[-1] = a.size - starts[-1]
    longest = int(lengths.max())
    if longest > 8 * _MAX_WORDS:
        return None
    n_words = max(1, -(-longest // 8))
    padded = np.zeros(a.size + 8 * n_words, np.uint8)
    padded[: a.size] = a
    # the little-endian 8-byte word that starts at each byte
    at_byte = np.ndarray((a.size + 8 * n_words - 7,), "<u8", padded, strides=(1,))
    words = np.empty((starts.size, n_words), np.uint64)
    for k in range(n_words):
        word = words[:, k]
        word[:] = at_byte[starts + 8 * k if k else starts]
        left = lengths if n_words == 1 else np.clip(lengths - 8 * k, 0, 8)
        word &= _MASKS[left]
    short = longest < 8
    return starts, lengths, words, _keys(lengths, words, short), short


class _LineCodes:
    """Codes of the lines of byte chunks, one shared dict of the distinct lines.

    A chunk's lines of at most 64 bytes are read as 8-byte words
    (:func:`_line_words`: one gather per word of the longest line, no Python
    object per line) and looked up
    with ``np.searchsorted`` among the keys of the lines seen before
    (:func:`_keys`); a hashed line takes a known line's code only when its
    length and words equal that line's, so codes are those of the exact
    bytes. Lines never seen before enter the dict ``index`` (bytes -> code);
    chunks with longer lines, and lines whose hash collides, go through the
    dict line by line.
    """

    def __init__(self):
        self.index = _Index()
        # short (exact keys) and hashed lines: sorted keys, the code of each
        self._tables = {
            short: (np.empty(0, np.uint64), np.empty(0, np.intp))
            for short in (True, False)
        }
        self._slots = {}  # their perfect hashes, when built
        self._words = np.zeros((0, _MAX_WORDS), np.uint64)  # by code
        self._lengths = np.zeros(0, np.intp)  # by code

    def encode(self, chunks):
        """Yield the code of each line of each chunk of ``chunks`` (bytes of
        lines joined by ``\\n``).

        A thread reads the next chunk's lines into words (:func:`_line_words`,
        numpy work that releases the GIL) while this one's are looked up.
        """
        with ThreadPoolExecutor(1) as pool:
            pending = collections.deque()
            for data in chunks:
                pending.append((data, pool.submit(_line_words, data)))
                if len(pending) > 2:
                    data, words = pending.popleft()
                    yield self._codes(data, words.result())
            while pending:
                data, words = pending.popleft()
                yield self._codes(data, words.result())

    def _codes(self, data, lines):
        """The codes of ``data``'s lines, read by :func:`_line_words`."""
        if lines is None:  # a line longer than the words hold
            lines = data.split(b"\n")
            return np.fromiter(map(self.index.__getitem__, lines), np.intp, len(lines))
        starts, lengths, words, keys, short = lines
        codes, hit = self._lookup(keys, lengths, words, short)
        if hit.all():
            return codes
        miss = np.flatnonzero(~hit)
        _, first = np.unique(keys[miss], return_index=True)
        for i in miss[first]:
            self._learn(data[starts[i] : starts[i] + lengths[i]])
        codes[miss], hit = self._lookup(keys[miss], lengths[miss], words[miss], short)
        for i in miss[~hit]:  # a collision of two lines' hashes
            codes[i] = self.index[data[starts[i] : starts[i] + lengths[i]]]
        return codes

    def _lookup(self, keys, lengths, words, short):
        """Codes of the lines whose keys are known, and which lines they are."""
        known, known_codes = self._tables[short]
        if known.size == 0:
            return np.zeros(keys.size, np.intp), np.zeros(keys.size, bool)
        if short not in self._slots:
            self._slots[short] = _perfect_hash(known, known_codes)
        slots = self._slots[short]
        if slots is None:  # many labels: a binary search
            pos = np.searchsorted(known, keys)
            pos[pos == known.size] = 0
            codes, hit = known_codes[pos], known[pos] == keys
        else:
            multiplier, shift, slot_keys, slot_codes = slots
            slot = ((keys * multiplier) >> shift).view(np.intp)
            codes, hit = slot_codes[slot], slot_keys[slot] == keys
        if not short:
            hit &= self._lengths[codes] == lengths
            hit &= (self._words[codes, : words.shape[1]] == words).all(axis=1)
        return codes, hit

    def _learn(self, line):
        """Add ``line`` (bytes) to the dict and its keys to the lookup."""
        code = self.index[line]
        if code >= self._lengths.size:
            grow = max(code + 1, 2 * self._lengths.size) - self._lengths.size
            self._lengths = np.append(self._lengths, np.full(grow, -1))
            self._words = np.vstack(
                [self._words, np.zeros((grow, _MAX_WORDS), np.uint64)]
            )
        words = np.frombuffer(line.ljust(8 * _MAX_WORDS, b"\0"), "<u8")
        self._words[code] = words
        self._lengths[code] = len(line)
        for short in (True, False):
            if short and len(line) >= 8:
                continue
            key = _keys(np.array([len(line)]), words[None, :].astype(np.uint64), short)
            known, known_codes = self._tables[short]
            pos = np.searchsorted(known, key[0])
            if pos < known.size and known[pos] == key[0]:
                continue  # known, or a collision: the line stays on the dict's path
            self._tables[short] = (
                np.insert(known, pos, key[0]),
                np.insert(known_codes, pos, code),
            )
            self._slots.pop(short, None)


def _small(codes, n_codes):
    """``codes`` in the smallest unsigned dtype that holds ``n_codes`` codes."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if n_codes <= np.iinfo(dtype).max + 1:
            return codes.astype(dtype, copy=False)
    return codes


def _kind(path, column, field):
    """'text', 'csv', 'tsv' or 'jsonl', from the options and the extension."""
    ext = os.path.splitext(str(path))[1].lower()
    if field is not None:
        return "jsonl"
    if column is not None:
        return "csv" if ext == ".csv" else "tsv"
    if ext in (".jsonl", ".ndjson"):
        raise InputError(
            f"{path} looks like JSON Lines; pass --field NAME to say which field "
            "holds the label."
        )
    if ext in (".conll", ".iob", ".bio"):
        raise InputError(
            f"{path} looks like a CoNLL file (a token and its tag a line); pass "
            "--conll to read its sentences."
        )
    if ext in (".csv", ".tsv"):
        raise InputError(
            f"{path} looks like a table; pass --column NAME to say which column "
            "holds the label."
        )
    return "text"


def _lines(chunks):
    """The lines of ``_text_chunks``, one by one."""
    for _, lines in chunks:
        yield from lines


def _csv_rows(path, lines, delimiter, first_line=1):
    """The rows of ``csv.reader`` over ``lines``, whose first is line
    ``first_line`` of ``path``; a row it cannot parse is an error naming it."""
    rows = csv.reader(lines, delimiter=delimiter)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:
            line = first_line + rows.line_num - 1
            if "new-line" in str(exc):
                raise _inner_cr(path, line) from None
            raise InputError(
                f"{path}, line {line}: not a CSV/TSV row ({exc})."
            ) from None
        yield row


def _table_cells(path, chunks, columns, delimiter, fix):
    """Yield ``(row, cells)``: lists of the cells of ``columns`` (header names)
    of a CSV/TSV, ``ROWS_PER_CHUNK`` rows at a time; ``row`` is the line of
    the first (the header is line 1).

    ``fix`` ends the message when the header lacks a column.
    """
    rows = _csv_rows(path, _lines(chunks), delimiter)
    header = next(rows)
    for column in columns:
        if column not in header:
            raise InputError(
                f"{path}, line 1: no column {column!r} in the header {header!r}; {fix}"
            )
    where = [header.index(column) for column in columns]
    line = 2
    while batch := list(itertools.islice(rows, ROWS_PER_CHUNK)):
        out = []
        for column, j in zip(columns, where, strict=True):
            try:
                out.append([row[j] for row in batch])
            except IndexError:
                i = next(i for i, row in enumerate(batch) if len(row) <= j)
                raise InputError(
                    f"{path}, line {line + i}: {len(batch[i])} field(s), but column "
                    f"{column!r} is field {j + 1}; every row needs {len(header)} "
                    "fields."
                ) from None
        yield line, out
        line += len(batch)


class _RepeatedKey(ValueError):
    """A JSON object that names a key twice (``json.loads`` keeps the last)."""


def _unique_keys(pairs):
    """The ``object_pairs_hook`` of the readers: a dict of ``pairs``, or
    :class:`_RepeatedKey` when a key comes twice, which JSON allows but which
    would keep one of two values without a word."""
    record = dict(pairs)
    if len(record) != len(pairs):
        seen = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _RepeatedKey(key)
    return record


def _jsonl_records(path, lines, line):
    """Yield ``(i, record)``: each of ``lines`` (whose first is line ``line``
    of ``path``) parsed as JSON; a blank line, one that is no JSON, or an
    object that names a key twice is an error naming it."""
    for i, text in enumerate(lines, start=line):
        if not text.strip():
            raise InputError(
                f"{path}, line {i} is blank; JSON Lines hold one object a line."
            )
        try:
            record = json.loads(text)
            # a flat object whose keys each come once has as many '":' as
            # keys; any other (nested, spaced, repeated) is parsed again with
            # the check of repeated keys, which costs twice the parse
            if isinstance(record, dict) and text.count('":') != len(record):
                record = json.loads(text, object_pairs_hook=_unique_keys)
            yield i, record
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}, line {i}: not JSON ({exc.msg}, at character {exc.colno})."
            ) from None
        except _RepeatedKey as exc:
            raise InputError(
                f"{path}, line {i}: the object names {exc.args[0]!r} twice, so one "
                "of its two values would be dropped; give each key once."
            ) from None


class _Repeated(dict):
    """A JSON object that named a key twice (the last value kept): the keys
    named twice are ``repeated``. An error only where a field read passes
    through it (:func:`_read_path`), as pyarrow reads the fields asked for
    and no other."""

    repeated = frozenset()


def _marked_keys(pairs):
    """The ``object_pairs_hook`` of the log reader: a dict of ``pairs``, a
    :class:`_Repeated` when a key comes twice."""
    record = dict(pairs)
    if len(record) != len(pairs):
        seen = set()
        record = _Repeated(record)
        record.repeated = frozenset(k for k, _ in pairs if k in seen or seen.add(k))
    return record


_LOG_DECODER = json.JSONDecoder(object_pairs_hook=_marked_keys)

# a JSON object ending, then another starting: two records on one line
# (with a comma, one array of the joined lines would take them for two)
_TWO_OBJECTS = re.compile(r"\}[ \t\r]*,[ \t\r]*\{")


_PLAIN_DECODER = json.JSONDecoder()

# a key with a backslash (an escape) in it, which may spell a key read
_ESCAPED_KEY = re.compile(r'\\(?:[^"\\]|\\.)*"\s*:')


def _named_once(text, records, names):
    """The values of ``names`` (top-level keys) in the records of the JSON
    array ``text``, by name, when each name is in every record and written
    once a record (the text holds its string as often as there are
    records, and no key is written with an escape, so no object that holds
    it names it twice); else None."""
    # an escape starts with a backslash: a plain find skips most regex scans
    if "\\" in text and _ESCAPED_KEY.search(text):
        return None
    columns = {}
    for name in names:
        if text.count(json.dumps(name)) != len(records):
            return None
        try:
            columns[name] = list(map(operator.itemgetter(name), records))
        except KeyError:
            return None
    return columns


def _jsonl_log_records(path, block, lines, names=()):
    """The records of the lines of ``block`` (a chunk of :func:`_text_blocks`,
    lines ``lines``, a range, of ``path``) of a JSON Lines log, parsed as
    :func:`json.loads` parses each line.

    The lines are parsed as one JSON array, which shares the keys' strings
    between records and costs about half of a ``json.loads`` per line; an
    array that is no list of one object per line (a line that is blank, not
    JSON, not an object, or two objects) is parsed again line by line, for
    the error naming its line. Objects that name a key twice are
    :class:`_Repeated`. With ``names`` (the top-level keys read), the array
    is first parsed without that mark, a third cheaper, and kept when each
    name is in every record, written once (:func:`_named_once`).

    Returns the records, and the values of ``names`` by name (or None).
    """
    n_lines = len(lines)
    if not _TWO_OBJECTS.search(block):
        # a line's trailing "\r" is white space between the array's items
        text = "[" + block.replace("\n", ",") + "]"
        try:
            records = _PLAIN_DECODER.decode(text) if names else None
        except json.JSONDecodeError:
            records = None
        if (
            records is not None
            and len(records) == n_lines
            and set(map(type, records)) == {dict}
        ):
            columns = _named_once(text, records, names)
            if columns is not None:
                return records, columns
        try:
            records = _LOG_DECODER.decode(text)
        except json.JSONDecodeError:
            records = None
        if (
            records is not None
            and len(records) == n_lines
            and all(isinstance(r, dict) for r in records)
        ):
            return records, None
    records = []
    for i, text in zip(lines, _split_lines(block), strict=True):
        if not text.strip():
            raise InputError(
                f"{path}, line {i} is blank; JSON Lines hold one object a line."
            )
        try:
            records.append(_LOG_DECODER.decode(text))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}, line {i}: not JSON ({exc.msg}, at character {exc.colno})."
            ) from None
    return records, None


# the value of a field a record lacks (None is a JSON null)
_ABSENT = object()


def _read_path(path, where, record, field):
    """The value of ``field`` of a JSON record (:func:`_lookup`), or
    :data:`_ABSENT`; a key named twice on the way is an error naming the
    record's place ``where``."""
    value, keys = record, [field]
    if not isinstance(record, dict):
        return _ABSENT
    if field not in record:
        keys = field.split(".")
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return _ABSENT
        if key in value.repeated if type(value) is _Repeated else False:
            raise InputError(
                f"{path}, {where}: the object names {key!r} twice, so one of "
                "its two values would be dropped; give each key once."
            )
        value = value[key]
    return value


def _place(number, unit="line"):
    """Where a value is, for messages: ``line N`` of a text file (lines count
    from 1), ``row N (counting from 1)`` of a Parquet file (``unit="row"``)."""
    return f"line {number}" if unit == "line" else f"row {number} (counting from 1)"


def _json_label(path, i, field, value, what="label", missing=False, unit="line"):
    """A JSON value as text: a string or a number; null is None when
    ``missing`` allows it, and else, like a list or an object, an error
    naming the line ``i`` (the row, with ``unit="row"``)."""
    if (value is None and not missing) or isinstance(value, (dict, list)):
        kind = "null" if value is None else type(value).__name__
        raise InputError(
            f"{path}, {_place(i, unit)}: the field {field!r} is {kind}, not a {what}; "
            f"every item needs one (a string or a number)."
        )
    return None if value is None else str(value)


def _lookup(record, field):
    """``(found, value)`` of ``field`` in a JSON object: the key itself, else a
    dotted path into nested objects (``scores.match.value``)."""
    if not isinstance(record, dict):
        return False, None
    if field in record:
        return True, record[field]
    value = record
    for key in field.split("."):
        if not isinstance(value, dict) or key not in value:
            return False, None
        value = value[key]
    return True, value


def _field_value(path, place, record, field, optional, fix):
    """The value of ``field`` (a key or a dotted path) of a JSON record, None
    where an ``optional`` field is absent; an absent field that is not
    optional is an error naming the file, the ``place`` and the record's
    fields, ended by ``fix``."""
    found, value = _lookup(record, field)
    if not found and field not in optional:
        held = list(record) if isinstance(record, dict) else []
        raise InputError(
            f"{path}, {place}: no field {field!r} (the record's fields are "
            f"{held}); {fix}"
        )
    return value


def _jsonl_values(path, chunks, fields, fix, optional=(), what="label"):
    """Yield ``(line, values)``: lists of the values of ``fields`` of each JSON
    Lines object, a chunk of lines at a time, as text.

    A field is a key, or a dotted path into nested objects. A field of
    ``optional`` may be null or absent: its value is then None. ``fix`` (which
    ends the message when a field is absent) and ``what`` (the kind of value,
    for messages) are text, or dicts of text by field.
    """
    fixes = fix if isinstance(fix, dict) else dict.fromkeys(fields, fix)
    whats = what if isinstance(what, dict) else dict.fromkeys(fields, what)
    for line, lines in chunks:
        out = [[] for _ in fields]
        for i, record in _jsonl_records(path, lines, line):
            for field, values in zip(fields, out, strict=True):
                value = _field_value(
                    path, f"line {i}", record, field, optional, fixes[field]
                )
                values.append(
                    _json_label(
                        path, i, field, value, whats[field], missing=field in optional
                    )
                )
        yield line, out


class LabelReader:
    """Label files read into integer codes that every file read shares.

    One label per item: a line of a text file, a cell of a CSV/TSV column
    (``column``) or a field of each JSON Lines object (``field``). The files
    are read in chunks, and each chunk's labels become codes at once, through
    one dict of the distinct labels (:class:`_LineCodes` for text files), so
    that no file is ever held as Python strings and equal labels get equal
    codes in every file. :meth:`names` gives the label of each code.
    ``what`` names the values in messages ("label", "group").
    """

    def __init__(self, *, column=None, field=None, what="label"):
        self.column, self.field, self.what = column, field, what
        # the options that set ``column`` and ``field``, named in messages
        prefix = "--groups-" if what == "group" else "--"
        self._options = {"column": prefix + "column", "field": prefix + "field"}
        self._text = _LineCodes()
        self._cells = _Index()

    def first_line(self, path):
        """The line of a file's first label: 2 below a table's header, else 1."""
        return 2 if _kind(path, self.column, self.field) in ("csv", "tsv") else 1

    def read(self, path):
        """The code of each label of ``path``, in file order, checked.

        Errors name the line of a file that is missing, empty, not UTF-8 or
        not of its kind, and of a label that is empty.
        """
        try:
            kind = _kind(path, self.column, self.field)
        except InputError:
            for _ in _text_chunks(path):  # a missing or empty file comes first
                pass
            raise
        if kind == "text":
            parts, counts = [], np.zeros(0, np.int64)
            for codes in self._text.encode(_byte_chunks(path)):
                counts = _add_counts(counts, codes, len(self._text.index))
                parts.append(_small(codes, len(self._text.index)))
            codes = _concatenate(parts)
            self._check_text(path, codes, counts)
        else:
            chunks = _text_chunks(path)
            if kind == "jsonl":
                fix = (
                    f"pass {self._options['field']} with the name of the field "
                    f"that holds the {self.what}."
                )
                cells = _jsonl_values(path, chunks, [self.field], fix)
            else:
                fix = f"pass {self._options['column']} with one of these names."
                delimiter = "," if kind == "csv" else "\t"
                if kind == "tsv":
                    chunks = self._table_chunks(path, chunks)
                cells = _table_cells(path, chunks, [self.column], delimiter, fix)
            index = self._cells
            parts, counts = [], np.zeros(0, np.int64)
            for _, (values,) in cells:
                codes = np.fromiter(
                    map(index.__getitem__, values), np.intp, len(values)
                )
                counts = _add_counts(counts, codes, len(index))
                parts.append(_small(codes, len(index)))
            codes = _concatenate(parts)
            if codes.size == 0:
                raise InputError(
                    f"{path} has a header but no rows; it needs one row per item."
                )
        self._check_names(path, codes, counts)
        return codes

    def _table_chunks(self, path, chunks):
        """``chunks`` of a file read as a TSV because a column was named; a
        file not named .tsv whose first line has no tab is a plain file of
        one value a line, whose first value would be taken for a header."""
        if os.path.splitext(str(path))[1].lower() == ".tsv":
            return chunks
        first = next(chunks)
        if "\t" not in first[1][0]:
            option = self._options["column"]
            fix = (
                "drop it: a plain file holds one label a line"
                if self.what == "label"
                else "pass --groups FILE, one group a line, or give GOLD as a "
                "CSV/TSV table with a column of groups"
            )
            raise InputError(
                f"{option} {self.column!r}: {path} is a plain file of one value "
                "a line (no tab in line 1), not a CSV/TSV table with a header, "
                f"so it has no columns; {fix}."
            )
        return itertools.chain([first], chunks)

    def _check_names(self, path, codes, counts):
        """No empty label; white space around a label is stripped, with a
        warning that names the file, the first line and how many changed.

        Only the distinct labels are compared (:meth:`names` strips them),
        and the items are looked at only when one changed.
        """
        names, raw = self.names(), self._raw_names()
        present = np.flatnonzero(counts)
        first_line = self.first_line(path)

        def first(bad):
            lut = np.zeros(len(names), dtype=bool)
            lut[bad] = True
            return int(np.argmax(lut[codes])) + first_line

        empty = [c for c in present if names[c] == ""]
        if empty:
            line = first(empty)
            hint = "."
            if self.what == "label":
                hint = " (write the outside class, such as O, rather than nothing)."
                if any(len(names[c].split()) == 2 for c in present):
                    hint = (
                        "; a token and its tag a line, with blank lines between "
                        "sentences, is a CoNLL file: pass --conll."
                    )
            raise InputError(
                f"{path}, line {line}: the {self.what} is empty; every item needs "
                f"a {self.what}{hint}"
            )
        inner = [c for c in present if "\r" in names[c]]
        if inner:
            raise _inner_cr(path, first(inner))
        changed = [c for c in present if raw[c] != names[c]]
        if changed:
            import warnings

            line = first(changed)
            c = int(codes[line - first_line])
            n = int(counts[changed].sum())
            warnings.warn(
                f"{path}, line {line}: the {self.what} {raw[c]!r} has white space "
                f"around it; read as {names[c]!r} ({n} {self.what}(s) of the file "
                "changed). Remove the spaces from the file to silence this.",
                InputWarning,
                stacklevel=2,
            )

    def _check_text(self, path, codes, counts):
        """A text file's labels must be UTF-8, and not all white space."""
        keys = list(self._text.index)
        present = np.flatnonzero(counts)
        bad = []
        for c in present:
            try:
                keys[c].decode("utf-8")
            except UnicodeDecodeError:
                bad.append(c)
        if bad:
            raise _not_utf8(path, min(int(np.argmax(codes == c)) for c in bad) + 1)
        if not any(keys[c].decode("utf-8").strip() for c in present):
            raise _empty_error(path)

    def _raw_names(self):
        """The label of each code as the file holds it (a text file's lines
        without a trailing ``\\r``, the end of a CRLF line)."""
        text = [key.decode("utf-8", "replace").rstrip("\r") for key in self._text.index]
        return text if text else list(self._cells)

    def names(self):
        """The label of each code, as text, without white space around it."""
        size = (len(self._text.index), len(self._cells))
        if getattr(self, "_names", (None,))[0] != size:
            self._names = size, [name.strip() for name in self._raw_names()]
        return self._names[1]

    def classes(self, codes):
        """The distinct labels of ``codes``, sorted as the package sorts classes."""
        names = self.names()
        present = np.flatnonzero(_add_counts(np.zeros(0, np.int64), codes, len(names)))
        return sorted({names[c] for c in present})

    def ids(self, codes):
        """The distinct values of ``codes`` as ids (of clusters): in the order
        of the ints they are when every one is an int as written (as unit and
        coder ids, :func:`_ids`: ``10`` after ``9``, as the package sorts
        integer groups), else sorted as text."""
        names = self.classes(codes)
        return [name for _, name in sorted(zip(_ids(names), names, strict=True))]

    def codes_in(self, codes, classes, name, source, first_line=1):
        """Each label's position in ``classes`` (a sorted list of str).

        A label outside ``classes`` (those of the gold file) is a typo or
        another label set: an error naming its line, ``first_line`` being the
        line of the first label. The codes keep the order of ``classes``, so
        the package's functions see the same classes in the same order as
        they would for the labels themselves.
        """
        position = {label: i for i, label in enumerate(classes)}
        lut = np.array([position.get(v, -1) for v in self.names()], dtype=np.int64)
        dtype = (
            np.int8
            if len(classes) < 2**7
            else np.int16
            if len(classes) < 2**15
            else np.int32
        )
        out = lut.astype(dtype)[codes]
        unknown = out < 0
        if unknown.any():
            i = int(np.argmax(unknown))
            _unknown_label(
                self.names()[codes[i]], classes, name, source, first_line + i
            )
        return out


def _unknown_label(label, classes, name, source, line):
    shown = classes[:10]
    raise InputError(
        f"{name}, line {line}: the label {label!r} does not occur in "
        f"{source} (which uses {shown}{' ...' if len(classes) > 10 else ''}); "
        "fix the label, or map both files to the same label names."
    )


def _add_counts(counts, codes, n_codes):
    """``counts`` of each code plus those of ``codes``, for ``n_codes`` codes."""
    for start in range(0, codes.size, 2**20):
        new = np.bincount(codes[start : start + 2**20], minlength=n_codes)
        if new.size > counts.size:
            counts = np.concatenate(
                [counts, np.zeros(new.size - counts.size, np.int64)]
            )
        counts[: new.size] += new
    return counts


def _concatenate(parts):
    return np.concatenate(parts) if parts else np.zeros(0, np.uint8)


def read_labels(path, *, column=None, field=None):
    """Read one label per item: a text file, a CSV/TSV column or a JSON Lines field.

    Returns an array of str, in file order (:class:`LabelReader` reads it).
    """
    reader = LabelReader(column=column, field=field)
    codes = reader.read(path)
    return np.array(reader.names())[codes]


# the columns (CSV/TSV) or fields (JSON Lines) of an annotated sample
ANNOTATED_COLUMNS = ("prediction", "label")


def read_annotated(path):
    """Read an annotated sample: each item's metric-model label and real label.

    CSV/TSV with a header that names the columns ``prediction`` (the metric
    model's label) and ``label`` (the annotator's), in any order among other
    columns; JSON Lines whose objects hold these two fields; any other file:
    two labels a line, the metric model's first, separated by a tab or by
    spaces. Returns ``(predictions, labels, first_line)``: two lists of str in
    file order and the line of the first item.
    """
    ext = os.path.splitext(str(path))[1].lower()
    fix = (
        "an annotated file holds the metric model's label of each item under "
        "'prediction' and the annotator's under 'label'."
    )
    if ext in (".csv", ".tsv"):
        delimiter = "," if ext == ".csv" else "\t"
        cells = _table_cells(
            path, _text_chunks(path), ANNOTATED_COLUMNS, delimiter, fix
        )
        predictions, labels = _joined(cells, 2)
        first = 2
    elif ext in (".jsonl", ".ndjson"):
        cells = _jsonl_values(path, _text_chunks(path), ANNOTATED_COLUMNS, fix)
        predictions, labels = _joined(cells, 2)
        first = 1
    else:
        predictions, labels = [], []
        for i, line in enumerate(_read_text(path), start=1):
            cells = line.split("\t") if "\t" in line else line.split()
            if len(cells) != 2:
                raise InputError(
                    f"{path}, line {i}: {len(cells)} field(s); each line holds two "
                    "labels, the metric model's and the annotator's, separated by "
                    "a tab or spaces."
                )
            predictions.append(cells[0])
            labels.append(cells[1])
        first = 1
    predictions, labels = (
        _stripped(path, values, first, "label") for values in (predictions, labels)
    )
    if len(predictions) < 2:
        raise InputError(
            f"{path} holds {len(predictions)} annotated item(s); the interval "
            "needs at least 2 (one a line)."
        )
    for values, what in ((predictions, "metric model's"), (labels, "annotator's")):
        if "" in values:
            raise InputError(
                f"{path}, line {first + values.index('')}: the {what} label is "
                "empty; every annotated item needs both labels."
            )
    return predictions, labels, first


def _stripped(path, values, first_line, what, lines=None, unit="line"):
    """``values`` (a list of str) without white space around each, with a
    warning naming the file, the first line and how many changed.

    ``lines`` is the line of each value; by default they are consecutive
    from ``first_line``; with ``unit="row"`` they are a Parquet file's rows.
    None stays None. A numpy array of text is stripped as a whole (one of
    numbers is returned as it is).
    """
    if isinstance(values, np.ndarray):
        if values.dtype.kind != "U":
            return values
        from ..eval_logs._join import _text_stripped

        out, changed = _text_stripped(values)
        changed = changed.tolist()
    else:
        out = [v if v is None else v.strip() for v in values]
        changed = [
            i for i, (v, w) in enumerate(zip(values, out, strict=True)) if v != w
        ]
    if changed:
        import warnings

        i = changed[0]
        line = first_line + i if lines is None else lines[i]
        warnings.warn(
            f"{path}, {_place(line, unit)}: the {what} {str(values[i])!r} has "
            f"white space around it; read as {str(out[i])!r} ({len(changed)} "
            f"{what}(s) of the "
            "file changed). Remove the spaces from the file to silence this.",
            InputWarning,
            stacklevel=2,
        )
    return out


def _joined(chunks, width):
    """The lists of values of ``width`` columns of chunked cells, joined."""
    out = [[] for _ in range(width)]
    for _, values in chunks:
        for joined, part in zip(out, values, strict=True):
            joined.extend(part)
    return out


def check_same_length(items, names, gold_name, unit="lines"):
    """Every file must describe the same items, matched by position."""
    n = len(items[0])
    for arr, name in zip(items[1:], names[1:], strict=True):
        if len(arr) != n:
            raise InputError(
                f"{name} has {len(arr)} {unit} but {gold_name} has {n}; {unit} are "
                f"matched by position, so every file needs one per item."
            )


def label_codes(labels, classes, name, source, first_line=1):
    """Each label's position in ``classes`` (a list of str), as an int array.

    A label outside ``classes`` (those of the gold file) is a typo or another
    label set: an error naming its line, ``first_line`` being the line of the
    first label (2 below a table's header). The codes keep the order of
    ``classes``, so the package's functions see the same classes in the same
    order as they would for the labels themselves.
    """
    index = {label: i for i, label in enumerate(classes)}
    try:
        return np.fromiter(map(index.__getitem__, labels), np.intp, len(labels))
    except KeyError:
        pass
    i = next(i for i, v in enumerate(labels) if v not in index)
    _unknown_label(labels[i], classes, name, source, first_line + i)


def _parse_floats(path, lines, first_line, header, delimiter):
    """(n, k) float array of CSV/TSV lines; the first bad cell is an error.

    numpy parses the lines (``np.loadtxt``); only lines it refuses are split
    into cells, to name the bad one.
    """
    if "" not in lines:  # loadtxt would skip a blank line
        try:
            arr = np.loadtxt(
                lines,
                delimiter=delimiter,
                dtype=np.float64,
                ndmin=2,
                comments=None,
                quotechar='"',
            )
        except ValueError:
            pass
        else:
            if arr.shape[1] == len(header):
                return arr
    rows = list(_csv_rows(path, lines, delimiter, first_line))
    try:
        return np.array(rows, dtype=np.float64)
    except ValueError:
        pass
    for i, row in enumerate(rows):
        if len(row) != len(header):
            raise InputError(
                f"{path}, line {first_line + i}: {len(row)} field(s) but the header "
                f"has {len(header)}; every row needs one probability per class."
            )
        for name, cell in zip(header, row, strict=True):
            try:
                float(cell)
            except ValueError:
                if len(header) == 1:  # one value a line: labels
                    raise InputError(
                        f"{path} holds one value a line ({header[0]!r}, {cell!r}, "
                        "...): a label file? --metric cprecision, crecall and cf1 "
                        "score probability files, one row of "
                        "probabilities per item under a header of class names; "
                        "give the systems' probabilities, or score the labels "
                        "with --metric f1, precision, recall or accuracy."
                    ) from None
                raise InputError(
                    f"{path}, line {first_line + i}, column {name!r}: {cell!r} is "
                    "not a number; a probability file holds numbers in [0, 1] "
                    "under a header of class names."
                ) from None
    raise InputError(f"{path}: the rows could not be read as numbers.")  # unreachable


def _read_probability_table(path, delimiter):
    """The header and the rows of a CSV/TSV of probabilities, parsed by chunks."""
    chunks = _text_chunks(path)
    first, head = next(chunks)
    header = next(_csv_rows(path, head[:1], delimiter))
    # every class name is on line 1
    header = _stripped(path, header, 1, "class name", lines=[1] * len(header))
    parts = []
    for line, lines in itertools.chain([(first + 1, head[1:])], chunks):
        if lines:
            parts.append(_parse_floats(path, lines, line, header, delimiter))
    if not parts:
        raise InputError(f"{path} has a header but no rows; it needs one row per item.")
    return np.concatenate(parts), header


def read_probabilities(path, *, classes=None):
    """Read an (n_items, n_classes) probability file and its class names.

    CSV or TSV with a header of class names, or ``.npy``: a structured array
    whose field names are the classes, or a plain 2-D array with ``classes``.
    Returns ``(proba, classes)``; ``classes`` is a list of str. Line numbers
    in messages are those of the file (the header is line 1); for ``.npy``
    they are row numbers from 1.
    """
    ext = os.path.splitext(str(path))[1].lower()
    if ext == ".npy":
        proba, classes, first_line, where = _read_npy(path, classes)
    else:
        delimiter = "\t" if ext == ".tsv" else ","
        proba, header = _read_probability_table(path, delimiter)
        if classes is not None:
            raise InputError(
                f"{path}: --classes is for .npy files; a CSV names its classes in "
                "its header."
            )
        classes, first_line, where = header, 2, "line"
    names = [str(c) for c in classes]
    twice = sorted({c for c in names if names.count(c) > 1})
    if twice or "" in names:
        source = "--classes" if ext == ".npy" else f"{path}, line 1"
        raise InputError(
            f"{source}: the class names {names} "
            + (f"name {twice[0]!r} twice" if twice else "hold an empty name")
            + "; give each column a name of its own."
        )
    if proba.shape[1] == 1:
        raise InputError(
            f"{path} has one column ({names[0]!r}); a probability file needs one "
            "column per class, each row summing to 1. For two classes, write "
            "both: the probability p of one class and 1 - p of the other, under "
            "a header of the two class names."
        )
    bad = ~np.isfinite(proba) | (proba < 0) | (proba > 1)
    if bad.any():
        i, j = (int(v) for v in np.argwhere(bad)[0])
        raise InputError(
            f"{path}, {where} {first_line + i}, column {classes[j]!r}: "
            f"{float(proba[i, j])!r} is not a probability; each value must be a number "
            "in [0, 1] (pass predict_proba output, or a softmax of scores)."
        )
    dev = np.abs(proba.sum(axis=1) - 1.0)
    off = np.flatnonzero(dev > ROW_SUM_TOLERANCE)
    if off.size:
        i = int(off[0])
        raise InputError(
            f"{path}, {where} {first_line + i}: the probabilities sum to "
            f"{proba[i].sum():.6g}, not 1 ({off.size} row(s) in all); each row "
            "must be a distribution over the classes: normalise the rows, or add "
            "the missing class columns."
        )
    return proba, [str(c) for c in classes]


def _read_npy(path, classes):
    _check_regular(path)
    try:
        arr = np.load(path, allow_pickle=False, mmap_mode="r")
    except (ValueError, OSError, EOFError) as exc:
        raise InputError(f"{path}: not a readable .npy file ({exc}).") from None
    if not isinstance(arr, np.ndarray):  # np.load opened an .npz archive
        arr.close()
        raise InputError(
            f"{path} is an .npz archive (np.savez), not one .npy array; save the "
            "probabilities with np.save, or load the archive and save the array "
            "it holds."
        )
    if arr.dtype.names:
        names = list(arr.dtype.names)
        if classes is not None:
            raise InputError(
                f"{path} names its classes in its fields {names}; drop --classes."
            )
        try:
            arr = np.column_stack([arr[name].astype(np.float64) for name in names])
        except (TypeError, ValueError):
            raise InputError(
                f"{path}: every field must hold numbers (probabilities)."
            ) from None
        classes = names
    else:
        if classes is None:
            raise InputError(
                f"{path} is a plain array without class names; save it as a "
                "structured array whose field names are the classes, or pass "
                "--classes A,B,C in the order of its columns."
            )
        if arr.dtype.kind not in "biuf":
            raise InputError(f"{path}: holds {arr.dtype}, not numbers.")
        arr = arr.astype(np.float64)
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise InputError(
            f"{path} has shape {arr.shape}; it needs one row per item and one "
            "column per class."
        )
    if len(classes) != arr.shape[1]:
        raise InputError(
            f"{path} has {arr.shape[1]} columns but {len(classes)} class names "
            f"{classes}; give one name per column."
        )
    return arr, list(classes), 1, "row"


def read_numbers(path, *, width, what):
    """Rows of numbers separated by commas, tabs or spaces; '#' starts a comment.

    A first line without any number is a header and is skipped. Returns
    ``(array of shape (n_rows, width[i]) , line numbers)`` where ``width`` is
    a tuple of allowed row lengths.
    """
    lines = _read_text(path)
    rows, numbers = [], []
    for i, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].replace(",", " ").split()
        if not text:
            continue
        try:
            values = [float(v) for v in text]
        except ValueError:
            if not rows and not any(_is_number(v) for v in text):
                continue  # a header
            bad = next(v for v in text if not _is_number(v))
            raise InputError(
                f"{path}, line {i}: {bad!r} is not a number; each line holds {what}."
            ) from None
        if len(values) not in width:
            raise InputError(
                f"{path}, line {i}: {len(values)} value(s); each line holds {what}."
            )
        if rows and len(values) != len(rows[0]):
            raise InputError(
                f"{path}, line {i}: {len(values)} values, but line {numbers[0]} has "
                f"{len(rows[0])}; every line needs the same number."
            )
        rows.append(values)
        numbers.append(i)
    if not rows:
        raise InputError(f"{path} holds no rows of numbers; each line holds {what}.")
    return np.array(rows), numbers


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_conll(path, *, column=-1):
    """Read the tags of a CoNLL file: one token a line, blank lines between sentences.

    Returns ``(sentences, lines)``: the tags of each sentence, and the line
    number of each tag. ``-DOCSTART-`` lines are skipped.
    """
    sentences, lines, tags, where = [], [], [], []
    for i, line in enumerate(_read_text(path), start=1):
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if tags:
                sentences.append(tags)
                lines.append(where)
                tags, where = [], []
            continue
        try:
            tags.append(fields[column])
        except IndexError:
            raise InputError(
                f"{path}, line {i}: {len(fields)} field(s), no column "
                f"{column + 1 if column >= 0 else column}; pass --tag-column with "
                "the column of the tags (-1, the last, by default)."
            ) from None
        where.append(i)
    if tags:
        sentences.append(tags)
        lines.append(where)
    if not sentences:
        raise InputError(f"{path} holds no tokens; a CoNLL file has one token a line.")
    return sentences, lines


def _seqeval_scheme(scheme):
    try:
        from seqeval import scheme as schemes
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise InputError(
            "--conll needs seqeval for the entity spans: pip install "
            "'sklearn-faithful[nlp]'."
        ) from None
    return getattr(schemes, scheme)


def conll_entities(path, sentences, lines, scheme):
    """The entities of each sentence, as sets of (type, start, end), by seqeval.

    A tag the scheme does not allow, or one that seqeval's strict mode leaves
    outside every entity (an ``I-`` after ``O`` in IOB2), is an error naming
    its line.
    """
    token_class = _seqeval_scheme(scheme)
    from seqeval.scheme import Tokens

    out = []
    for tags, where in zip(sentences, lines, strict=True):
        for tag, line in zip(tags, where, strict=True):
            try:
                token_class(tag).is_valid()
            except (KeyError, ValueError, IndexError):
                raise InputError(
                    f"{path}, line {line}: the tag {tag!r} is not valid in {scheme} "
                    "(tags are O or a prefix, a hyphen and a type, such as B-PER); "
                    "fix the tag or pass the file's --scheme."
                ) from None
        entities = Tokens(tags, scheme=token_class).entities
        covered = np.zeros(len(tags), dtype=bool)
        for entity in entities:
            covered[entity.start : entity.end] = True
        outside = [
            k for k, tag in enumerate(tags) if not covered[k] and tag.upper() != "O"
        ]
        if outside:
            k = outside[0]
            before = tags[k - 1] if k else "the sentence start"
            raise InputError(
                f"{path}, line {where[k]}: the tag {tags[k]!r} after {before!r} "
                f"belongs to no entity under {scheme}; fix the tag sequence, or "
                "pass the --scheme the file was written in."
            )
        out.append({(e.tag, e.start, e.end) for e in entities})
    return out


def check_same_sentences(gold, gold_lines, gold_name, system, name):
    """Gold and system CoNLL files must hold the same sentences, token by token."""
    if len(system) != len(gold):
        raise InputError(
            f"{name} has {len(system)} sentences but {gold_name} has {len(gold)}; "
            "sentences are matched by position, separated by blank lines."
        )
    for s, (g, p) in enumerate(zip(gold, system, strict=True)):
        if len(g) != len(p):
            raise InputError(
                f"{name}: sentence {s + 1} has {len(p)} tokens but it has {len(g)} "
                f"in {gold_name} (from line {gold_lines[s][0]}); the files must "
                "hold the same tokens."
            )


# the columns (CSV/TSV) or fields (JSON Lines) of annotations in the long
# format, one row per unit, coder and value
ANNOTATION_COLUMNS = ("unit", "coder", "value")

# the cells of an annotation file that mark a missing value (a JSON null too)
MISSING_VALUES = ("", "NA", "null")


class Annotations(NamedTuple):
    """Annotations read from a file (:func:`read_annotations`).

    ``units``, ``coders`` and ``values`` are lists, one entry per coded (or
    missing) cell, and ``lines`` the line of each; ``form`` is ``"wide"``
    or ``"long"``. Ids are ints when every one is written as an int.
    """

    units: list
    coders: list
    values: list
    lines: list
    form: str


# the ids of an annotation file that mark a missing id, an error: the
# missing cells, and NaN and None as Python and pandas print them
MISSING_IDS = (*MISSING_VALUES, "nan", "NaN", "None")

# a wide file with more than this many coder columns per row is transposed
TRANSPOSED_COLUMNS_PER_ROW = 2

# a wide column whose values are all different, over at least this many units
# while the other columns hold at most half as many values, is a unit id's
ID_LIKE_UNITS = 10


def _number_or_text(value):
    """A cell as compared between columns: ``1`` and ``1.0`` are one value."""
    try:
        return float(value)
    except ValueError:
        return value


def _not_coders(values):
    """{column: why it does not look like a coder} of a wide file's columns.

    ``values`` maps each coder column to its cells. A column is suspect when
    the others share values but it shares none (a group, a date), or when
    its values are all different, over ``ID_LIKE_UNITS`` units or more,
    while the others hold at most half as many values (a unit id).
    """
    seen = {c: {_number_or_text(v) for v in cells if v is not None}
            for c, cells in values.items()}  # fmt: skip
    # in how many columns each value is: one pass, not a pass per pair
    columns_with = collections.Counter(v for own in seen.values() for v in own)
    twice = {v for v, n in columns_with.items() if n >= 2}
    out = {}
    for column, own in seen.items():
        # the other columns share a value, and this one shares none of theirs
        shared = bool(twice - own) or any(columns_with[v] >= 3 for v in own)
        alone = all(columns_with[v] == 1 for v in own)
        cells = values[column]
        if own and shared and alone:
            texts = sorted({v for v in cells if v is not None})
            more = ", ..." if len(texts) > 3 else ""
            shown = ", ".join(map(repr, texts[:3])) + more
            out[column] = f"its values ({shown}) are none of the other columns'"
            continue
        if len(cells) < ID_LIKE_UNITS or len(own) < len(cells):
            continue
        others = {v for c, o in seen.items() if c != column for v in o}
        if 2 * len(others) <= len(cells):
            out[column] = (
                f"its {len(own)} values are all different, as a unit id's are, "
                f"where the other columns hold {len(others)} values"
            )
    return out


def _names_problem(names):
    """What is wrong with a list of column names (one named twice, an empty
    one), or None."""
    twice = sorted({c for c in names if names.count(c) > 1})
    if twice:
        return f"names {twice[0]!r} twice"
    return "holds an empty name" if "" in names else None


class _Selection:
    """The coder columns a user named (``--coders``) or left out
    (``--ignore-columns``), checked once against the file."""

    def __init__(self, path, coders, ignore_columns, unit_column):
        self.path = path
        self.coders = coders
        self.ignore = ignore_columns
        for option, given in (
            ("--coders", coders),
            ("--ignore-columns", ignore_columns),
        ):
            if given is None:
                continue
            problem = _names_problem(given)
            if problem:
                raise InputError(
                    f"{option} {','.join(given)}: {problem}; give each column "
                    "once, separated by commas."
                )
            if unit_column is not None and unit_column in given:
                raise InputError(
                    f"{option} {','.join(given)}: {unit_column!r} is the unit "
                    "column (--unit-column); name the coders' columns only."
                )
        if coders is not None and ignore_columns is not None:
            raise InputError(
                f"--coders {','.join(coders)} and --ignore-columns "
                f"{','.join(ignore_columns)}: give one of them (--coders names "
                "every coder, the other columns are left out)."
            )
        if coders is not None and len(coders) < 2:
            raise InputError(
                f"--coders {','.join(coders)}: name at least 2 coders, separated "
                "by commas."
            )

    def check_present(self, present, what):
        """An error for a named column (field) of no row of the file."""
        for option, given in (
            ("--coders", self.coders),
            ("--ignore-columns", self.ignore),
        ):
            absent = [c for c in given or () if c not in present]
            if absent:
                raise InputError(
                    f"{option} {','.join(given)}: no {what} {absent[0]!r} in "
                    f"{self.path}; its {what}s are {sorted(present)}."
                )

    def columns(self, header, unit_column):
        """The coder columns of a wide table's ``header``."""
        self.check_present(header, "column")
        if self.coders is not None:
            return list(self.coders)
        ignore = self.ignore or ()
        return [c for c in header if c != unit_column and c not in ignore]

    def keep(self, field):
        """Whether a wide JSON object's ``field`` is a coder's."""
        if self.coders is not None:
            return field in self.coders
        return field not in (self.ignore or ())

    def long(self, annotations):
        """The rows of the named coders of a long file; --ignore-columns refused."""
        if self.ignore is not None:
            raise InputError(
                f"--ignore-columns {','.join(self.ignore)}: {self.path} is a long "
                "file, whose only columns read are the unit, coder and value ones "
                "(--unit-column, --coder-column, --value-column); to leave coders "
                "out, name the others with --coders."
            )
        if self.coders is None:
            return annotations
        ids = [str(c) for c in annotations.coders]
        present = set(ids)
        absent = [c for c in self.coders if c not in present]
        if absent:
            raise InputError(
                f"--coders {','.join(self.coders)}: no coder {absent[0]!r} in "
                f"{self.path}; its coders are {sorted(present)}."
            )
        keep = [i for i, c in enumerate(ids) if c in self.coders]
        return Annotations(
            *([column[i] for i in keep] for column in annotations[:4]), "long"
        )

    def check_wide(self, annotations):
        """A wide file's columns must look like coders, unless --coders names them."""
        if self.coders is not None:
            return
        values = {}
        for coder, value in zip(annotations.coders, annotations.values, strict=True):
            values.setdefault(coder, []).append(value)
        n_units = len(set(annotations.lines))
        fix_coders = f"name the coders with --coders {','.join(map(str, values))}"
        if len(values) > TRANSPOSED_COLUMNS_PER_ROW * n_units:
            raise InputError(
                f"{self.path}: {len(values)} coder columns and {n_units} units "
                "(rows): a wide file holds a row per unit and a column per coder, "
                "and this one looks transposed (a row per coder). Write it with a "
                f"row per unit; if its columns are coders, {fix_coders}."
            )
        suspects = _not_coders(values)
        if not suspects:
            return
        names = ",".join(map(str, suspects))
        kept = ",".join(str(c) for c in values if c not in suspects)
        why = "; ".join(f"{c!r}: {reason}" for c, reason in suspects.items())
        one = len(suspects) == 1
        raise InputError(
            f"{self.path}, line 1: "
            + (
                f"the column {names!r} does not look like a coder"
                if one
                else f"the columns {list(suspects)} do not look like coders"
            )
            + f" ({why}). If {'it is' if one else 'they are'} no coder, pass "
            f"--ignore-columns {names} (or --unit-column with the column of the "
            f"units' ids); if {'it is' if one else 'they are'}, name the coders "
            f"with --coders {kept},{names}."
        )


def _annotation_kind(path, head):
    """'csv', 'tsv' or 'jsonl': by the extension, else by the first line."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext in (".jsonl", ".ndjson"):
        return "jsonl"
    if ext in (".csv", ".tsv"):
        return ext[1:]
    if head.lstrip().startswith("{"):
        return "jsonl"
    return "tsv" if "\t" in head else "csv"


def _ids(values):
    """Unit or coder ids: ints when every one is an int as written, else str."""
    try:
        ints = [int(v) for v in values]
    except ValueError:
        return values
    if all(str(i) == v for i, v in zip(ints, values, strict=True)):
        return ints
    return values


def read_annotations(
    path,
    *,
    long=False,
    unit_column=None,
    coder_column=None,
    value_column=None,
    coders=None,
    ignore_columns=None,
):
    """Read annotations: a CSV/TSV or JSON Lines file, wide or long.

    Wide: one row (or object) per unit, one column (or field) per coder, and
    the unit's id in ``unit_column`` (``unit`` by default, if the header or
    the first object has it; else a unit is its line). ``coders`` names the
    coder columns (the others are left out), ``ignore_columns`` the columns
    that are no coder; without either, a column that does not look like a
    coder (its values are none of the others', or all different as a unit
    id's are) is an error naming both options.
    Long: one row per unit, coder and value, in the columns ``unit_column``,
    ``coder_column`` and ``value_column`` (``unit``, ``coder``, ``value`` by
    default); chosen by ``long``, by naming the coder or value column, or
    when the header (the first object) holds both. ``coders`` keeps the rows
    of those coders; ``ignore_columns`` is refused (a long file's other
    columns are never read). An empty cell, ``NA``, ``null`` and a JSON null
    are missing values. Returns :class:`Annotations`; white space around ids
    and values is stripped with a warning, an empty or missing id (``NA``,
    ``null``, ``nan``) is an error naming its line.
    """
    chunks = _text_chunks(path)
    first, lines = next(chunks)
    head = next((v for v in lines if v.strip()), "")
    kind = _annotation_kind(path, head)
    chunks = itertools.chain([(first, lines)], chunks)
    names = (
        unit_column or ANNOTATION_COLUMNS[0],
        coder_column or ANNOTATION_COLUMNS[1],
        value_column or ANNOTATION_COLUMNS[2],
    )
    given = long or coder_column is not None or value_column is not None
    select = _Selection(path, coders, ignore_columns, unit_column)
    if kind == "jsonl":
        read = _jsonl_annotations
    else:
        read = _table_annotations
    units, coder_ids, values, lines, form = read(
        path, chunks, kind, names, given, unit_column, select
    )
    if not lines:
        raise InputError(
            f"{path} has a header but no rows; it needs one row per unit"
            + (", coder and value." if form == "long" else ".")
        )
    values = [
        None if v is None or v in MISSING_VALUES else v
        for v in _stripped(path, values, 1, "value", lines)
    ]
    ids = []
    for what, column in (("unit", units), ("coder", coder_ids)):
        if column is None:  # wide, without ids: a unit is its line
            ids.append(list(lines))
            continue
        empty = next(
            (i for i, v in enumerate(column) if v.strip() in MISSING_IDS), None
        )
        if empty is not None:
            bad = column[empty].strip()
            shown = f"{bad!r}, a missing value" if bad else "empty"
            raise InputError(
                f"{path}, line {lines[empty]}: the {what} id is {shown}; every row "
                f"needs one (in the column of --{what}-column)."
            )
        ids.append(_ids(_stripped(path, column, 1, f"{what} id", lines)))
    annotations = Annotations(ids[0], ids[1], values, lines, form)
    if form == "long":
        return select.long(annotations)
    select.check_wide(annotations)
    return annotations


def _header(path, chunks, kind):
    """The names of a table's columns, stripped; each must be a name of its own."""
    delimiter = "," if kind == "csv" else "\t"
    (first, lines), rest = next(chunks), chunks
    raw = next(_csv_rows(path, lines[:1], delimiter))
    header = _stripped(path, raw, 1, "column name")
    problem = _names_problem(header)
    if problem:
        raise InputError(
            f"{path}, line 1: the header {header} {problem}; give each column a "
            "name of its own"
            + (
                " (pandas' to_csv writes an unnamed index so: write with "
                "index=False, or name the index)."
                if header[0] == ""
                else "."
            )
        )
    return raw, header, delimiter, itertools.chain([(first, lines)], rest)


def _table_annotations(path, chunks, kind, names, long, unit_column, select):
    """The annotations of a CSV/TSV file (:func:`read_annotations`)."""
    raw, header, delimiter, chunks = _header(path, chunks, kind)
    long = long or (names[1] in header and names[2] in header)
    if unit_column is None and names[0] in header:
        unit_column = names[0]
    # the file's own spelling of a column, for _table_cells
    spelling = dict(zip(header, raw, strict=True))
    if long:
        fix = (
            "a long file holds the columns unit, coder and value; pass "
            "--unit-column, --coder-column and --value-column with its names."
        )
        columns = [spelling.get(name, name) for name in names]
    else:
        coders = select.columns(header, unit_column)
        if len(coders) < 2:
            raise InputError(
                f"{path}, line 1: the header {header} names "
                f"{len(coders)} coder column(s); a wide file holds one column per "
                "coder (two or more), a long file the columns unit, coder and "
                "value (pass --long, and the names with --unit-column, "
                "--coder-column and --value-column)."
            )
        fix = "pass --unit-column with one of these names, or none."
        columns = [spelling[c] for c in coders]
        if unit_column is not None:
            columns.insert(0, spelling.get(unit_column, unit_column))
    units, coder_ids, values, lines = [], [], [], []
    for line, cells in _table_cells(path, chunks, columns, delimiter, fix):
        n = len(cells[0])
        rows = list(range(line, line + n))
        if long:
            units += cells[0]
            coder_ids += cells[1]
            values += cells[2]
            lines += rows
            continue
        if unit_column is not None:
            ids, cells = cells[0], cells[1:]
            units += [u for u in ids for _ in coders]
        coder_ids += coders * n
        values += [v for row in zip(*cells, strict=True) for v in row]
        lines += [i for i in rows for _ in coders]
    if not long and unit_column is None:
        units = None  # a unit is its line
    return units, coder_ids, values, lines, "long" if long else "wide"


def _jsonl_annotations(path, chunks, kind, names, long, unit_column, select):
    """The annotations of a JSON Lines file (:func:`read_annotations`)."""
    if not long:
        first, lines = next(chunks)
        chunks = itertools.chain([(first, lines)], chunks)
        record = next((r for _, r in _jsonl_records(path, lines[:1], first)), None)
        record = record if isinstance(record, dict) else {}
        long = names[1] in record and names[2] in record
        if unit_column is None and names[0] in record:
            unit_column = names[0]
    if long:
        fix = (
            "long JSON Lines hold the fields unit, coder and value; pass "
            "--unit-column, --coder-column and --value-column with their names."
        )
        units, coders, values, lines = [], [], [], []
        for line, (u, c, v) in _jsonl_values(
            path, chunks, names, fix, optional=(names[2],)
        ):
            units += u
            coders += c
            values += v
            lines += range(line, line + len(u))
        return units, coders, values, lines, "long"
    units, coders, values, lines, fields = [], [], [], [], set()
    for line, texts in chunks:
        for i, record in _jsonl_records(path, texts, line):
            if not isinstance(record, dict):
                raise InputError(
                    f"{path}, line {i}: {type(record).__name__}, not an object; "
                    "wide JSON Lines hold one object a unit, a field per coder."
                )
            if unit_column is not None:
                if unit_column not in record:
                    raise InputError(
                        f"{path}, line {i}: no field {unit_column!r}; pass "
                        "--unit-column with the field of the unit's id, or none."
                    )
                unit = _json_label(path, i, unit_column, record[unit_column], "unit id")
            fields.update(record)
            for coder, value in record.items():
                if coder == unit_column or not select.keep(coder):
                    continue
                if unit_column is not None:
                    units.append(unit)
                coders.append(coder)
                values.append(_json_label(path, i, coder, value, "value", True))
                lines.append(i)
    select.check_present(fields, "field")
    if unit_column is None:
        units = None
    return units, coders, values, lines, "wide"


class Records(NamedTuple):
    """Records read from a file (:func:`read_records`).

    ``values`` maps each field to its values, one per record, as text (None
    where an optional field is missing): a list or, read with ``arrays``, a
    numpy str array (a field of numbers, a float64 array). ``lines`` (a
    list, or a range) is the line of each record, or with ``unit="row"``
    its row in a Parquet file or its place in a whole log (from 1). ``raw``
    maps the fields asked for as written (JSON values; a table's text)
    and, with ``others``, every other top-level field whose values are
    strings, numbers or booleans, None where a record lacks it. ``places``
    names a whole log's records (``samples[0]``,
    ``samples/1_epoch_1.json``), or is None.
    """

    values: dict
    lines: list
    unit: str = "line"
    raw: dict = {}
    places: list | None = None

    def where(self, i):
        """Where record ``i`` is, for messages: ``line N``, a Parquet file's
        ``row N (counting from 1)``, or a whole log's record."""
        if self.places is not None:
            return self.places[i]
        return _place(self.lines[i], self.unit)

    def subset(self, keep):
        """The records where ``keep`` (a boolean array) is true."""
        index = np.flatnonzero(keep)

        def take(column):
            if isinstance(column, np.ndarray):
                return column[index]
            return [column[i] for i in index.tolist()]

        return Records(
            {f: take(v) for f, v in self.values.items()},
            take(self.lines),
            self.unit,
            {f: take(v) for f, v in self.raw.items()},
            None if self.places is None else take(self.places),
        )


# the array of a whole log's records when no --records-field names one:
# inspect_ai's `log dump` and lm-evaluation-harness's results hold "samples"
RECORDS_KEY = "samples"

_SCALARS = (str, int, float, bool, type(None))


def read_records(
    path,
    fields,
    *,
    optional=(),
    raw=(),
    others=False,
    records_field=None,
    numbers=(),
    arrays=False,
):
    """Read fields of the records of a JSON Lines, CSV/TSV or Parquet file,
    or of a whole log: a JSON document holding the records in an array, or
    an inspect_ai ``.eval`` archive.

    ``fields`` maps each field (a column, a JSON key or a dotted path into
    nested JSON objects) to the option that names it, for messages
    (``{"score": "--score-field"}``); so does ``raw``, of the fields
    returned as written (``Records.raw``). The kind of file is its
    extension's (``.jsonl``, ``.ndjson``, ``.csv``, ``.tsv``, ``.parquet``,
    ``.json``, ``.eval``), else its first line's (``{`` starts JSON Lines,
    ``[`` a JSON array). A JSON document's records are the array at
    ``records_field`` (``--records-field``, a dotted path), else under
    ``samples`` (or, when ``samples`` maps tasks to arrays, the one task's),
    else the only array of objects; several candidates are an error naming
    each option. An ``.eval`` archive's records are its ``samples/*.json``.
    A field of ``optional`` may be missing: an absent JSON key, a null, an
    empty cell, ``NA`` or ``null`` read as None. Returns :class:`Records`;
    values are text, stripped of white space with a warning; a missing
    field is an error naming the file, the line (a row, a record) and the
    option. A field of ``numbers`` (a score) is only read as a number: its
    text may show the integer 1 as ``1.0``.

    JSON Lines are read by pyarrow's JSON reader when it is installed
    (:mod:`._arrow`, the ``logs`` extra), only the fields asked for, else by
    the standard library's; both give the same records and the same
    errors. A key named twice in an object is an error where a field read
    (``fields``, ``raw``) passes through it. With ``arrays``, a JSON Lines
    log's text values may come as a numpy str array, and those of a field of
    ``numbers`` that are all finite floats as a float64 array (the same
    values, without a Python object per value).
    """
    if _check_regular(path) == 0:
        raise InputError(f"{path} is empty; it needs one record per item.")
    ext = os.path.splitext(str(path))[1].lower()
    with open(path, "rb") as f:
        zipped = f.read(4) == b"PK\x03\x04"
    if zipped or ext == ".eval":
        _no_records_field(path, records_field, "an inspect_ai .eval archive")
        records, places = _archive_records(path)
        return _whole_log(path, records, places, fields, optional, raw, others)
    if ext == ".parquet":
        _no_records_field(path, records_field, "a Parquet file")
        return _parquet_values(path, fields, optional, raw, others)
    blocks = _text_blocks(path)
    first = next(blocks)
    head = _split_lines(first[2])
    blocks = itertools.chain([first], blocks)
    chunks = _text_chunks(path, blocks)
    start = next((v for v in head if v.strip()), "").lstrip()
    kind = _annotation_kind(path, start)
    whole = ext == ".json" or start.startswith("[")
    if kind == "jsonl" and not whole:
        whole = _holds_records(start, fields)
    if not whole:
        what = "JSON Lines" if kind == "jsonl" else "a CSV/TSV table"
        _no_records_field(path, records_field, what)
    else:
        document = _json_document(path)
        records, places = _records_of(path, document, records_field)
        return _whole_log(path, records, places, fields, optional, raw, others)
    if kind == "jsonl" and others:
        pairs = (
            pair for line, lines in chunks for pair in _jsonl_records(path, lines, line)
        )
        values, lines, seen = _record_columns(
            path, pairs, fields, optional, raw, others, "line"
        )
        return _records(path, fields, values, lines, "line", seen)
    if kind == "jsonl":
        return _jsonl_log(path, blocks, fields, optional, raw, numbers, arrays)
    return _table_records(path, chunks, kind, fields, optional, raw, others)


def _jsonl_log(path, blocks, fields, optional, raw, numbers, arrays=False):
    """The records of a JSON Lines log: pyarrow's JSON reader of the fields
    read (:mod:`._arrow`), else :func:`_jsonl_log_records`, with one result.

    The text of each value is the one rule's (:func:`_log_texts`); pyarrow
    hands over the values ``json.loads`` would give, or nothing, and then
    the standard library reads the file, for the error naming the line.
    With ``arrays``, text may stay a numpy str array, and a field of
    ``numbers`` all of whose values are floats becomes a float64 array.
    """
    from . import _arrow

    names = list(dict.fromkeys([*fields, *raw]))
    try:
        read = _arrow.jsonl_columns(path, names, optional, raw, numbers, _lookup)
    except ValueError as exc:  # SKLEARN_FAITHFUL_LOG_READER
        raise InputError(str(exc)) from None
    if read is not None:
        columns, lines = read  # the first chunk, read, is dropped
    else:
        columns, lines = _stdlib_columns(path, blocks, fields, optional, names)
    if not arrays:
        lines = list(lines)  # else a range: no Python int per record
    for field in names:
        column = columns[field]
        if not arrays or field in raw:
            if isinstance(column, np.ndarray):
                columns[field] = column.tolist()
        elif isinstance(column, list) and field in numbers:
            if set(map(type, column)) == {float}:
                columns[field] = np.array(column, dtype=np.float64)
        elif isinstance(column, list) and set(map(type, column)) == {str}:
            if "\0" not in "".join(column):  # numpy drops a value's last NULs
                columns[field] = np.array(column, dtype=str)
    values = [
        _log_texts(path, f, columns[f], fields[f], f in optional, lines) for f in fields
    ]
    written = {f: [None if v is _ABSENT else v for v in columns[f]] for f in raw}
    return _records(path, fields, values, lines, "line", written)


def _stdlib_columns(path, blocks, fields, optional, names):
    """The values of ``names`` of each record of a JSON Lines log (its
    :func:`_text_blocks`), read by the standard library
    (:func:`_jsonl_log_records`), and their lines.

    The cyclic garbage collector is paused meanwhile: parsed JSON holds no
    cycle, and its passes over the records made cost a fifth of the read.
    """
    columns, spans = {f: [] for f in names}, []
    plain = names if not any("." in f for f in names) else ()
    collecting = gc.isenabled()
    gc.disable()
    try:
        for line, stop, block in blocks:
            records, found = _jsonl_log_records(path, block, range(line, stop), plain)
            for field in names:
                if found is not None:
                    columns[field] += found[field]  # each record holds it
                    continue
                part = _field_values(path, records, field, line)
                if field in fields and field not in optional:
                    _check_found(path, records, field, part, line, fields[field])
                columns[field] += part
            spans.append(range(line, line + len(records)))
    finally:
        if collecting:
            gc.enable()
    if all(a.stop == b.start for a, b in itertools.pairwise(spans)):
        return columns, range(spans[0].start, spans[-1].stop) if spans else []
    return columns, list(itertools.chain.from_iterable(spans))


def _field_values(path, records, field, line):
    """The values of ``field`` in ``records`` (of lines from ``line`` on),
    :data:`_ABSENT` where a record lacks it (:func:`_read_path`)."""
    if "." not in field and all(type(r) is dict for r in records):
        try:
            return [r[field] for r in records]
        except KeyError:
            pass
    return [
        _read_path(path, f"line {i}", r, field)
        for i, r in enumerate(records, start=line)
    ]


def _check_found(path, records, field, values, line, option):
    """A record that lacks ``field`` is an error naming its line, its fields
    and ``option``."""
    if _ABSENT in values:
        k = values.index(_ABSENT)
        _field_value(path, f"line {line + k}", records[k], field, (),
                     f"pass {option} with the name of its field.")  # fmt: skip


def _log_texts(path, field, values, option, optional, lines):
    """The JSON values of a field as text (:func:`_json_label`): a string
    itself, a number or a boolean its ``str``; None for an ``optional``
    field's null or absence. A numpy array of text, or of finite floats,
    is returned as it is."""
    if isinstance(values, np.ndarray):
        if values.dtype.kind == "U" or np.isfinite(values).all():
            return values
        values = values.tolist()
    if set(map(type, values)) <= {str}:
        return values
    what = f"{option} value"
    return [
        None
        if v is _ABSENT or (v is None and optional)
        else v
        if type(v) is str
        else _json_label(path, n, field, v, what)
        for n, v in zip(lines, values, strict=True)
    ]


def _no_records_field(path, records_field, what):
    if records_field is not None:
        raise InputError(
            f"--records-field {records_field} names the array of records in a "
            f"JSON document; {path} is {what}, read record by record: drop "
            "--records-field."
        )


def _holds_records(start, fields):
    """Whether the first line of a JSON Lines file is a whole log on one
    line: an object that lacks the first field and holds an array of
    objects (``inspect log dump`` written compactly)."""
    if start.strip() == "{":
        return True  # a document over several lines (json.dump's indent)
    try:
        first = json.loads(start)
    except json.JSONDecodeError:
        return False  # not JSON: the JSON Lines reader names the line
    if not isinstance(first, dict) or _lookup(first, next(iter(fields)))[0]:
        return False
    return bool(_record_arrays(first))


def _json_document(path):
    """A JSON document, parsed whole; one that is not JSON is an error."""
    with open(path, encoding="utf-8-sig") as f:
        try:
            return json.load(f, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}, line {exc.lineno}: not JSON ({exc.msg}, at character "
                f"{exc.colno}); a whole log is one JSON document, JSON Lines "
                "one object a line."
            ) from None
        except _RepeatedKey as exc:
            raise InputError(
                f"{path}: an object names {exc.args[0]!r} twice, so one of its two "
                "values would be dropped; give each key once."
            ) from None
        except UnicodeDecodeError:
            raise _not_utf8(path, 1) from None


def _is_records(value):
    return isinstance(value, list) and bool(value) and isinstance(value[0], dict)


def _record_arrays(document):
    """The dotted paths of a document's arrays of objects, and their sizes:
    its top-level keys', and one level down (lm-evaluation-harness's
    ``samples`` of each task)."""
    found = {}
    for key, value in document.items():
        if _is_records(value):
            found[key] = len(value)
        elif isinstance(value, dict):
            for inner, array in value.items():
                if _is_records(array):
                    found[f"{key}.{inner}"] = len(array)
    return found


def _records_of(path, document, records_field):
    """The records of a whole JSON document and their places, for messages."""
    if isinstance(document, list):
        if records_field is not None:
            _no_records_field(path, records_field, "a JSON array of records")
        name, records = "", document
    elif not isinstance(document, dict):
        raise InputError(
            f"{path} holds a JSON {type(document).__name__}, not records; give "
            "JSON Lines (one object a line), a JSON array of objects, or a log "
            "holding one."
        )
    elif records_field is not None:
        found, records = _lookup(document, records_field)
        if not found or not isinstance(records, list):
            raise InputError(
                f"{path}: --records-field {records_field} names no array of "
                f"records; the arrays of objects are {_array_list(document)}."
            )
        name = records_field
    else:
        arrays = _record_arrays(document)
        tasks = [a for a in arrays if a.startswith(RECORDS_KEY + ".")]
        if RECORDS_KEY in arrays:
            name = RECORDS_KEY
        elif len(tasks) == 1 or (len(arrays) == 1 and not tasks):
            name = tasks[0] if tasks else next(iter(arrays))
        elif arrays:
            options = tasks or list(arrays)
            raise InputError(
                f"{path} holds several arrays of records ("
                + ", ".join(f"{a}: {arrays[a]}" for a in options)
                + f"); say which with --records-field {options[0]}."
            )
        else:
            raise InputError(
                f"{path} is a JSON object with no array of records (its fields "
                f"are {list(document)}); give the per-item records: JSON Lines "
                "(lm-evaluation-harness's --log_samples writes "
                "samples_<task>_<date>.jsonl), or a log holding them in an "
                "array (inspect_ai's log dump, a .eval archive)."
            )
        records = _lookup(document, name)[1]
    if not records:
        raise InputError(
            f"{path} holds no record under {name!r}; it needs one per item."
        )
    bad = next((i for i, r in enumerate(records) if not isinstance(r, dict)), None)
    if bad is not None:
        raise InputError(
            f"{path}, {name}[{bad}]: a {type(records[bad]).__name__}, not a "
            "record; the array must hold one JSON object per record."
        )
    return records, [f"{name}[{i}]" for i in range(len(records))]


def _array_list(document):
    arrays = _record_arrays(document)
    return ", ".join(f"{a} ({n})" for a, n in arrays.items()) or "none"


def _archive_records(path):
    """An inspect_ai ``.eval`` archive's samples (``samples/*.json``), read
    with the standard library, and the members' names."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            names = sorted(
                n
                for n in archive.namelist()
                if n.startswith("samples/") and n.endswith(".json")
            )
            if not names:
                raise InputError(
                    f"{path} is a zip archive with no samples/*.json member; an "
                    "inspect_ai .eval log holds one per sample (a log written "
                    "without samples has none to compare)."
                )
            records = []
            for name in names:
                try:
                    record = json.loads(
                        archive.read(name), object_pairs_hook=_unique_keys
                    )
                except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                    raise InputError(f"{path}, {name}: not JSON ({exc}).") from None
                except _RepeatedKey as exc:
                    raise InputError(
                        f"{path}, {name}: an object names {exc.args[0]!r} twice, "
                        "so one of its two values would be dropped; give each "
                        "key once."
                    ) from None
                if not isinstance(record, dict):
                    raise InputError(f"{path}, {name}: not a JSON object (a sample).")
                records.append(record)
    except zipfile.BadZipFile as exc:
        raise InputError(f"{path}: not a readable zip archive ({exc}).") from None
    return records, names


def _whole_log(path, records, places, fields, optional, raw, others):
    pairs = enumerate(records, start=1)
    values, lines, seen = _record_columns(
        path, pairs, fields, optional, raw, others, "row", places
    )
    return _records(path, fields, values, lines, "row", seen, places)


def _record_columns(path, pairs, fields, optional, raw, others, unit, places=None):
    """The columns of JSON records: ``fields`` as text, ``raw`` as written,
    and with ``others`` each top-level field of strings, numbers or booleans.

    ``pairs`` yields ``(number, record)``, the number a line (``unit``
    "line") or a record's place from 1 (``places[number - 1]`` names it).
    """
    names, lines = list(fields), []
    values = [[] for _ in names]
    written = {f: [] for f in raw}
    extra, nested = {}, set()
    for n, record in pairs:
        k = len(lines)
        lines.append(n)
        place = _place(n, unit) if places is None else places[n - 1]
        for field, column in zip(names, values, strict=True):
            column.append(_record_text(path, record, field, fields[field], optional,
                                       (n, unit, place)))  # fmt: skip
        for field, column in written.items():
            column.append(_lookup(record, field)[1])
        if others and isinstance(record, dict):
            for key, value in record.items():
                if isinstance(value, _SCALARS):
                    extra.setdefault(key, {})[k] = value
                else:
                    nested.add(key)
    n_records = len(lines)
    seen = {
        key: [column.get(k) for k in range(n_records)]
        for key, column in extra.items()
        if key not in nested and key not in fields and key not in written
    }
    return values, lines, {**written, **seen}


def _record_text(path, record, field, option, optional, where):
    """The value of ``field`` (a key or a dotted path) of a JSON record as
    text (:func:`_json_label`); absent, an error naming the file, the place
    and ``option``. ``where`` is ``(number, unit, place)``: the record's line
    or row, its unit, and the place's words."""
    number, unit, place = where
    value = _field_value(
        path,
        place,
        record,
        field,
        optional,
        f"pass {option} with the name of its field.",
    )
    what = f"{option} value"
    return _json_label(path, number, field, value, what, field in optional, unit)


def _records(path, fields, values, lines, unit, raw, places=None):
    """:class:`Records` of the columns read, stripped (with a warning)."""
    if not lines:
        raise InputError(f"{path} holds no record; it needs one per item.")
    out = {}
    for field, column in zip(fields, values, strict=True):
        out[field] = _stripped(path, column, 1, f"{fields[field]} value", lines, unit)
    return Records(out, lines, unit, raw, places)


def _table_records(path, chunks, kind, fields, optional, raw, others):
    """The records of a CSV/TSV with a header: its cells are text."""
    names = list(fields)
    raw_header, header, delimiter, chunks = _header(path, chunks, kind)
    wanted = {**fields, **{f: o for f, o in raw.items() if f not in fields}}
    for field, option in wanted.items():
        if field not in header:
            raise InputError(
                f"{path}, line 1: no column {field!r} in the header {header!r}; "
                f"pass {option} with the name of its column."
            )
    read = list(wanted) + [c for c in header if others and c not in wanted]
    spelling = dict(zip(header, raw_header, strict=True))
    columns, lines = [[] for _ in read], []
    cells = _table_cells(path, chunks, [spelling[c] for c in read], delimiter, "")
    for line, part in cells:
        for joined, column in zip(columns, part, strict=True):
            joined.extend(column)
        lines += range(line, line + len(part[0]))
    by_name = dict(zip(read, columns, strict=True))
    values = [
        [None if v in MISSING_VALUES else v for v in by_name[f]]
        if f in optional
        else by_name[f]
        for f in names
    ]
    as_written = {f: by_name[f] for f in read if f in raw or f not in wanted}
    return _records(path, fields, values, lines, "line", as_written)


def _parquet_values(path, fields, optional, raw=(), others=False):
    """The records of a Parquet file: ``fields`` as text, ``raw`` (and with
    ``others`` the other columns of strings, numbers or booleans) as held."""
    _check_regular(path)
    names = list(fields)
    try:
        import pyarrow.parquet as pq
    except ImportError:
        pq = None
    try:
        if pq is not None:
            columns = pq.read_schema(path).names
            table = pq.read_table(path)
        else:
            import pandas

            table = pandas.read_parquet(path)
            columns = [str(c) for c in table.columns]
    except ImportError:
        raise InputError(
            f"{path}: reading Parquet files needs pyarrow: pip install pyarrow."
        ) from None
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise InputError(f"{path}: not a readable Parquet file ({exc}).") from None

    def column_of(field, option):
        if field not in columns:
            raise InputError(
                f"{path}: no column {field!r} in {columns!r}; pass {option} with "
                "the name of its column (nested Parquet fields are not read)."
            )
        return table.column(field).to_pylist() if pq else table[field].tolist()

    values = []
    for field in names:
        column = column_of(field, fields[field])
        # None, or pandas' NaN, is a missing value of an optional field
        missing = [field in optional and (v is None or v != v) for v in column]
        values.append(
            [
                None
                if gone
                else _json_label(
                    path, i, field, v, f"{fields[field]} value", unit="row"
                )
                for i, (v, gone) in enumerate(zip(column, missing, strict=True), 1)
            ]
        )
    as_written = {f: column_of(f, option) for f, option in raw.items()}
    for field in columns if others else ():
        if field not in fields and field not in as_written:
            column = column_of(field, "")
            if all(isinstance(v, _SCALARS) for v in column):
                as_written[field] = column
    lines = list(range(1, len(values[0]) + 1))
    return _records(path, fields, values, lines, "row", as_written)
