"""Every measured rate is printed with one number, its registry's.

``sklearn_faithful.utils._measured`` holds each rate the package states
once. Here every sentence of the README, the user guide and the package's
own text (docstrings, warnings, the demo, the command line's help) that
states one of those claims, found by the rate's ``phrases``, must give the
registry's number; and each rate must be stated somewhere, so that a phrase
that no longer matches anything fails instead of checking nothing.
"""

import pathlib
import re

import pytest

from sklearn_faithful.utils._measured import RATES

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _texts():
    """{path: text with its line breaks and comment marks folded to spaces}."""
    paths = [ROOT / "README.md", *sorted((ROOT / "doc").glob("*.rst"))]
    paths += sorted((ROOT / "sklearn_faithful").rglob("*.py"))
    out = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        # a sentence may break across lines, string literals or comments
        text = re.sub(r'",?\s*\n\s*f?"', " ", text)
        text = re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)
        text = re.sub(r" {2,}", " ", text)
        out[path.relative_to(ROOT).as_posix()] = text.replace("``", "")
    return out


TEXTS = _texts()


@pytest.mark.parametrize("name", sorted(RATES))
def test_every_statement_of_a_rate_gives_its_registered_number(name):
    rate = RATES[name]
    found = []
    for path, text in TEXTS.items():
        if path == "sklearn_faithful/utils/_measured.py":
            continue
        for phrase in rate.phrases:
            for match in re.finditer(phrase, text):
                found.append((path, match.group(0), match.group(1)))
    assert found, f"no text states {name} ({rate.what})"
    wrong = [(p, m) for p, m, value in found if value != rate.value]
    assert not wrong, f"{name} is {rate.value}, but: {wrong}"
