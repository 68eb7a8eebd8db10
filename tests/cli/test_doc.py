"""doc/cli.rst shows what the commands print, and documents every JSON key."""

import inspect
import json
import re
import shlex
from pathlib import Path

import pytest

from sklearn_faithful.utils._discovery import all_public_names

from ._util import main_json, ok, run_main, write_doc_files

DOC = Path(__file__).parents[2] / "doc" / "cli.rst"

pytestmark = pytest.mark.skipif(not DOC.exists(), reason="needs the doc folder")


def _examples():
    """``(argv, shown lines)`` of every ``$ sklearn-faithful`` run in the page."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line.startswith("$ sklearn-faithful "):
            i += 1
            continue
        command = line[2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + lines[i].strip()
        shown = []
        i += 1
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
            if lines[i].strip().startswith("$ "):
                break
            shown.append(lines[i].strip())
            i += 1
        out.append((shlex.split(command)[1:], [s for s in shown if s]))
    return out


def test_the_page_shows_every_command():
    commands = {argv[0] for argv, _ in _examples()}
    assert commands == {
        "compare", "interval", "split", "bayes-test", "plan", "model-based",
        "agreement", "eval-logs",
    }  # fmt: skip


_NUMBER = re.compile(r"[-+]?\d+\.(\d+)")


def _same_line(shown, printed):
    """The same text, and numbers equal to within one unit of the last digit.

    Resampled intervals can move by one unit in the fourth decimal between
    numpy releases (summation order, percentile rounding); the page shows one
    release's output, and CI runs the oldest and the newest.
    """
    if _NUMBER.sub("#", shown) != _NUMBER.sub("#", printed):
        return False
    pairs = zip(_NUMBER.finditer(shown), _NUMBER.finditer(printed), strict=True)
    return all(
        abs(float(a.group()) - float(b.group())) <= 1.01 * 10.0 ** -len(a.group(1))
        for a, b in pairs
    )


def test_the_page_shows_what_the_commands_print(tmp_path, monkeypatch):
    write_doc_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    for argv, shown in _examples():
        code, out = run_main(argv)
        assert code == 0, argv
        printed = [line.strip() for line in out.splitlines()]
        for line in shown:
            if line != "...":
                assert any(_same_line(line, p) for p in printed), (argv, line)


def test_same_line_allows_one_unit_of_the_last_digit():
    assert _same_line("a 0.8530 [0.1, 2]", "a 0.8531 [0.1, 2]")
    assert not _same_line("a 0.8530", "a 0.8532")
    assert not _same_line("a 0.8530", "b 0.8530")


def _keys(value, results):
    """Every key of a JSON payload, at any depth, but those of its results.

    A result (an object with ``"result"``, a result's ``to_dict()``) goes to
    ``results`` whole: its class documents its keys.
    """
    if isinstance(value, dict):
        if "result" in value:
            results.append(value)
            return {"result"}
        return set(value) | {k for v in value.values() for k in _keys(v, results)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v, results)}
    return set()


def _documented_by(name):
    """The words of a result class's docstring and of its public methods'."""
    cls = all_public_names()[name][1]
    docs = [inspect.getdoc(cls)]
    docs += [
        inspect.getdoc(f) or ""
        for n, f in inspect.getmembers(cls, callable)
        if not n.startswith("_")
    ]
    return set(re.findall(r"\w+", "\n".join(docs)))


def test_every_json_key_is_documented(runs, files):
    text = DOC.read_text(encoding="utf-8")
    schema = text[text.index("\nJSON output\n") :]
    documented = set(re.findall(r"``(\w+)``", schema)) | {"n", "theta"}
    payloads = [
        json.loads(ok(runs, name))
        for name in (
            "compare",
            "interval",
            "split",
            "plan",
            "model-based-ppi",
            "agreement",
            "eval-logs",
        )  # fmt: skip
    ]
    base = ["--format", "json"]
    payloads += [
        main_json(["bayes-test", files["ta"], files["tb"], "--triples", *base]),
        main_json(["bayes-test", files["ta"], files["tb"], "--triples", "--unpaired",
                   "--rope", "0.01", *base]),
        main_json(["agreement", files["annotations"]["long.csv"], "--model-coder",
                   "ann4", "--n-resamples", "199", *base]),
        main_json(["compare", files["y_txt"], files["a_txt"], files["b_txt"],
                   "--test", "sign", *base]),
        main_json(["compare", files["y_txt"], files["a_txt"], files["b_txt"],
                   "--metric", "f1", "--test", "paired-bayes", "--rope", "0.01",
                   *base]),
        main_json(["eval-logs", files["judged"], "--human-field", "human", *base]),
    ]  # fmt: skip
    for payload in payloads:
        results = []
        missing = _keys(payload, results) - documented
        assert not missing, (payload["command"], missing)
        # a result prints as its to_dict(): the page names its class, which
        # documents its keys (or the page does)
        for res in results:
            name = res["result"]
            assert f"{name}`" in schema, (payload["command"], name)
            missing = set(res) - _documented_by(name) - documented
            assert not missing, (payload["command"], name, missing)
