"""Reading a user's file: only regular files, sizes checked first, BOM noted.

The one home of the rules every reader follows (the command line's, a saved
gate's): a FIFO, a directory or a device is refused before it is opened (a
FIFO would block), the size is checked before memory is asked for, and a
UTF-8 byte-order mark, which spreadsheets and Windows editors write and no
person sees, is stripped and reported instead of becoming part of a value.
"""

import os
import stat

BOM = "\ufeff"


def check_regular_file(path, *, what="file", max_bytes=None):
    """Return the size of ``path``, a regular file, or raise a ValueError.

    ``what`` names the file in messages (``"--groups FILE"``, ``"the saved
    gate"``); ``max_bytes`` refuses larger files before they are read.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"{what} {os.fspath(path)!r} does not exist.") from None
    except OSError as exc:
        raise ValueError(
            f"{what} {os.fspath(path)!r} cannot be read: {exc.strerror}."
        ) from None
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a directory"
            if stat.S_ISDIR(info.st_mode)
            else "a FIFO (named pipe)"
            if stat.S_ISFIFO(info.st_mode)
            else "not a regular file"
        )
        raise ValueError(
            f"{what} {os.fspath(path)!r} is {kind}; give a regular file (write a "
            "pipe's output to a file first)."
        )
    if max_bytes is not None and info.st_size > max_bytes:
        raise ValueError(
            f"{what} {os.fspath(path)!r} holds {info.st_size:,} bytes, more than "
            f"the {max_bytes:,} such a file can hold; is it the right file?"
        )
    return info.st_size


def read_text(path, *, what="file", max_bytes=None):
    """The text of a regular UTF-8 file, and whether a BOM was stripped."""
    check_regular_file(path, what=what, max_bytes=max_bytes)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{what} {os.fspath(path)!r} is not UTF-8 text (byte {exc.start}: "
            f"{exc.reason})."
        ) from None
    if text.startswith(BOM):
        return text[1:], True
    return text, False
