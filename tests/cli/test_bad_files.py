"""Every command that reads files, on every kind of bad file (tests/cli/_bad_inputs.py).

A bad file is an error (status 2, one line naming the file, no traceback),
or is read as a person means it: the numbers of the clean file, with a line
on standard error when something was changed (a BOM, white space around a
label). A CRLF file is the clean file.
"""

import contextlib
import io
import warnings

import pytest

from sklearn_faithful.cli import main

from ._bad_inputs import (
    CASES,
    CLEAN_PATH,
    COMMANDS,
    clean_files,
    expected,
    numbers,
    outcome,
)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    f = clean_files(d)
    f["dir"] = d
    out = {}
    for command, (source, argv) in COMMANDS.items():
        status, text, _ = _run(argv(f, f[CLEAN_PATH[source]]))
        assert status == 0, command
        out[command] = numbers(text)
    return f, out


def _run(argv):
    """(status, stdout, stderr) of ``main`` in this process."""
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        warnings.catch_warnings(),
    ):
        status = main([*argv, "--format", "json"])
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("case", list(CASES))
def test_bad_file(clean, tmp_path, case, command):
    f, numbers_of = clean
    source, argv = COMMANDS[command]
    bad = CASES[case](tmp_path, f[source])
    status, out, err = _run(argv(f, bad))
    assert "Traceback" not in err
    want = expected(case, command)
    assert outcome(status, out, err, numbers_of[command], bad) == want, err
    if want == "error":
        assert err.startswith(f"sklearn-faithful {argv(f, bad)[0]}: error: ")
        assert bad in err, err
        if case not in ("empty", "directory", "fifo", "mismatched length"):
            # the line, or the kind of file, is named
            assert "line" in err or "UTF-16" in err, err
