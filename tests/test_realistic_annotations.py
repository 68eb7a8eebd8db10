"""Annotation files as real tools write them, read as a user would.

Each file goes through the command line (``main()``) and the Python API, and
gives the number of an independent implementation (the krippendorff package,
statsmodels, irrCAC: the values are written here, and the ``crosscheck``
tests recompute them) or a clear error: irrCAC's data sets written by
pandas' ``to_csv`` (their index becomes columns), the units x coders matrix of
statsmodels and irrCAC, long CSV and JSON Lines, and a file with a byte-order
mark and spaces around its cells.
"""

import contextlib
import io
import json
import warnings

import numpy as np
import pytest

from sklearn_faithful.agreement import (
    agreement_report,
    fleiss_kappa,
    krippendorff_alpha,
)
from sklearn_faithful.agreement._data import LayoutWarning
from sklearn_faithful.cli import main

from .agreement._annotations import (
    ALPHA_FLEISS_1971,
    FLEISS_1971,
    KAPPA_FLEISS_1971,
)

pd = pytest.importorskip("pandas")

FAST = ["--n-resamples", "199", "--random-state", "0", "--format", "json"]

# irrCAC 0.4.4, irrCAC.datasets.raw_g1g2(): 4 raters of 14 units, indexed by
# (Group, Units); None where a rater gave no value
G1G2 = {
    "Group": ["G2", "G1", "G2", "G1", "G1", "G1", "G2", "G1", "G2", "G2", "G1", "G1",
              "G2", "G2"],
    "Units": list(range(1, 15)),
    "Rater1": ["a", "b", "c", "c", "b", "a", "d", "a", "b", None, None, None, "b", "b"],
    "Rater2": ["a", "b", "c", "c", "b", "b", "d", "a", "b", "e", None, None, "b", "a"],
    "Rater3": [None, "c", "c", "c", "b", "c", "d", "b", "b", "e", "a", "c", "c", "c"],
    "Rater4": ["a", "b", "c", "c", "b", "d", "d", "a", "b", "e", "a", None, "b", "b"],
}  # fmt: skip
RATERS = ["Rater1", "Rater2", "Rater3", "Rater4"]
# krippendorff 0.8, alpha of the 4 raters (letters coded 0-4), nominal
ALPHA_G1G2 = 0.6318057187622406


# Krippendorff (2011): 4 observers x 12 units, nominal 0.743, interval 0.849
K2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
ALPHA_K2011 = {"nominal": 0.743421052631579, "interval": 0.8491071428571428}


def _run(argv):
    """``main(argv)``'s exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _alpha(argv):
    code, out, err = _run(["agreement", *argv, *FAST])
    assert code == 0, err
    payload = json.loads(out)
    return payload, payload["report"]["intervals"]["krippendorff_alpha"]["statistic"]


def _error(argv):
    code, out, err = _run(["agreement", *argv, *FAST])
    assert code == 2 and not out
    assert "Traceback" not in err
    return err


@pytest.fixture
def irrcac_csv(tmp_path):
    """raw_g1g2 as ``frame.to_csv(path)`` writes it: Group and Units first."""
    path = tmp_path / "g1g2.csv"
    pd.DataFrame(G1G2).set_index(["Group", "Units"]).to_csv(path)
    return str(path)


def test_irrcac_csv_with_its_index_columns(irrcac_csv):
    # before: Group was a fifth coder, with exit status 0
    err = _error([irrcac_csv, "--unit-column", "Units"])
    assert "the column 'Group' does not look like a coder" in err
    assert "--ignore-columns Group" in err and "--coders Rater1,Rater2" in err
    for argv in (["--ignore-columns", "Group"], ["--coders", ",".join(RATERS)]):
        payload, alpha = _alpha([irrcac_csv, "--unit-column", "Units", *argv])
        assert alpha == pytest.approx(ALPHA_G1G2)
        assert payload["n_coders"] == 4 and payload["n_units"] == 14


def test_irrcac_csv_without_any_option_is_refused(irrcac_csv):
    err = _error([irrcac_csv])
    assert "the columns ['Group', 'Units'] do not look like coders" in err


def test_irrcac_csv_through_the_api(irrcac_csv):
    frame = pd.read_csv(irrcac_csv, index_col="Units")
    # the coders' rows, named by the frame: no name to give twice
    data = frame[RATERS].T
    report = agreement_report(data, n_resamples=199, random_state=0)
    assert report.intervals["krippendorff_alpha"].statistic == pytest.approx(ALPHA_G1G2)
    assert report.coders.coders == RATERS
    # the frame as read, units in rows: said, with the fix
    with pytest.warns(LayoutWarning, match=r"pass reliability_data\.T"):
        krippendorff_alpha(frame[RATERS])


def test_a_pandas_index_without_a_name_is_refused_with_the_fix(tmp_path):
    path = tmp_path / "unnamed.csv"
    pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]}).to_csv(path)
    err = _error([str(path)])
    assert "holds an empty name" in err and "index=False" in err


def test_statsmodels_matrix_through_the_api():
    # before: alpha 0.0778 of "30 coders of 6 units", with only the
    # small-sample warning, printed twice
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = agreement_report(FLEISS_1971, n_resamples=199, random_state=0)
    layout = [w for w in caught if w.category is LayoutWarning]
    assert len(layout) == 1 and "reliability_data.T" in str(layout[0].message)
    assert len({str(w.message) for w in caught}) == len(caught)
    assert report.intervals["krippendorff_alpha"].statistic != pytest.approx(
        ALPHA_FLEISS_1971
    )
    assert krippendorff_alpha(FLEISS_1971.T) == pytest.approx(ALPHA_FLEISS_1971)
    assert fleiss_kappa(FLEISS_1971.T) == pytest.approx(KAPPA_FLEISS_1971)


def test_statsmodels_matrix_as_a_csv(tmp_path):
    # written as it is, a row per unit: the command line's wide layout
    path = tmp_path / "fleiss.csv"
    frame = pd.DataFrame(FLEISS_1971, columns=[f"psy{i + 1}" for i in range(6)])
    frame.to_csv(path, index=False)
    payload, alpha = _alpha([str(path)])
    assert alpha == pytest.approx(ALPHA_FLEISS_1971)
    kappa = payload["report"]["intervals"]["fleiss_kappa"]["statistic"]
    assert kappa == pytest.approx(KAPPA_FLEISS_1971)
    # the transpose, a row per coder, is refused with the fix
    frame.T.to_csv(path, index=False)
    err = _error([str(path)])
    assert "30 coder columns and 6 units (rows)" in err and "looks transposed" in err


def _long_records():
    return [
        {"unit": f"u{j + 1:02d}", "coder": f"obs{i + 1}", "value": v}
        for i, row in enumerate(K2011)
        for j, v in enumerate(row)
        if v is not None
    ]


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_long_csv_and_json_lines(tmp_path, level):
    records = _long_records()
    rng = np.random.default_rng(0)
    records = [records[i] for i in rng.permutation(len(records))]
    csv_path = tmp_path / "long.csv"
    pd.DataFrame(records).to_csv(csv_path, index=False)
    jsonl_path = tmp_path / "long.jsonl"
    jsonl_path.write_text("".join(json.dumps(r) + "\n" for r in records))
    for path in (csv_path, jsonl_path):
        payload, alpha = _alpha([str(path), "--level", level])
        assert payload["form"] == "long"
        assert alpha == pytest.approx(ALPHA_K2011[level])
        # options of wide files only: refused, not ignored
        assert "is a long file" in _error([str(path), "--ignore-columns", "x"])
    data = np.array(K2011, dtype=float)
    assert krippendorff_alpha(data, level_of_measurement=level) == pytest.approx(
        ALPHA_K2011[level]
    )


def test_a_bom_and_spaces_around_cells(tmp_path):
    rows = ["item , A , B , C , D "] + [
        f" u{j:02d} ," + ",".join("" if v is None else f" {v} " for v in column)
        for j, column in enumerate(zip(*K2011, strict=True))
    ]
    path = tmp_path / "excel.csv"
    path.write_bytes(("\ufeff" + "\r\n".join(rows) + "\r\n").encode("utf-8"))
    code, out, err = _run(["agreement", str(path), "--unit-column", "item", *FAST])
    assert code == 0, err
    payload = json.loads(out)
    alpha = payload["report"]["intervals"]["krippendorff_alpha"]["statistic"]
    assert alpha == pytest.approx(ALPHA_K2011["nominal"])
    assert payload["report"]["coders"]["coders"] == ["A", "B", "C", "D"]
    assert "has white space around it" in err


@pytest.mark.crosscheck
def test_the_values_written_here_are_the_libraries():
    krippendorff = pytest.importorskip("krippendorff")
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    codes = {v: i for i, v in enumerate("abcde")}
    g1g2 = np.array(
        [[np.nan if v is None else codes[v] for v in G1G2[r]] for r in RATERS]
    )
    assert krippendorff.alpha(g1g2, level_of_measurement="nominal") == pytest.approx(
        ALPHA_G1G2
    )
    assert krippendorff.alpha(
        FLEISS_1971.T, level_of_measurement="nominal"
    ) == pytest.approx(ALPHA_FLEISS_1971)
    table, _ = inter_rater.aggregate_raters(FLEISS_1971)
    assert inter_rater.fleiss_kappa(table) == pytest.approx(KAPPA_FLEISS_1971)
    k2011 = np.array(K2011, dtype=float)
    for level, value in ALPHA_K2011.items():
        assert krippendorff.alpha(k2011, level_of_measurement=level) == pytest.approx(
            value
        )
