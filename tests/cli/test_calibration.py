"""``sklearn-faithful calibration``: probability files, the room's numbers."""

import json

import numpy as np
import pytest

from sklearn_faithful.calibration import (
    calibration_error_interval,
    calibration_test,
    corp_decomposition,
    paired_calibration_test,
)

from ._util import CLASSES, main_json, run_main, write

N = 200
SMALL = ["--n-resamples", "99"]


def _proba_rows(proba, fmt=repr):
    return [",".join(fmt(float(v)) for v in row) for row in proba]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Gold labels (str) and two systems' probabilities of three classes,
    the second over-confident, written as files."""
    d = tmp_path_factory.mktemp("calibration")
    rng = np.random.default_rng(0)
    a = rng.dirichlet(np.ones(3), size=N)
    y = np.array([rng.choice(3, p=row) for row in a])
    b = a**2 / (a**2).sum(axis=1, keepdims=True)
    groups = [f"g{i // 5}" for i in range(N)]
    # two classes: the probability of "yes"
    p = rng.uniform(size=N)
    y2 = np.where(rng.uniform(size=N) < p, "yes", "no")
    return {
        "y": y,
        "a": a,
        "b": b,
        "groups": np.array(groups),
        "y2": y2,
        "p2": np.column_stack([1 - p, p]),
        "gold": write(d / "gold.txt", CLASSES[y]),
        "pa": write(d / "a.csv", ["neg,neu,pos", *_proba_rows(a)]),
        "pb": write(d / "b.csv", ["neg,neu,pos", *_proba_rows(b)]),
        "groups_file": write(d / "groups.txt", groups),
        "gold2": write(d / "gold2.txt", y2),
        "p2_file": write(d / "p2.csv", ["no,yes", *_proba_rows(np.c_[1 - p, p])]),
        "dir": d,
    }


def _json(argv):
    return main_json(["calibration", *argv, *SMALL, "--format", "json"])


def test_numbers_are_the_calibration_room_s(data):
    p = _json([data["gold"], data["pa"], data["pb"], "--multi-class", "classwise",
               "--groups", data["groups_file"], "--random-state", "3"])  # fmt: skip
    y, kw = data["y"], {"multi_class": "classwise", "labels": [0, 1, 2]}
    rs = {"n_resamples": 99, "random_state": 3}
    for entry, proba in zip(p["systems"], (data["a"], data["b"]), strict=True):
        ce = calibration_error_interval(y, proba, groups=data["groups"], **kw, **rs)
        got = entry["calibration_error"]
        assert got["statistic"] == pytest.approx(ce.statistic, rel=1e-12)
        assert got["confidence_interval"] == pytest.approx(
            ce.confidence_interval._asdict(), rel=1e-12
        )
        assert got["n_clusters"] == 40
        test = calibration_test(y, proba, **kw, **rs)
        assert entry["test"]["pvalue"] == test.pvalue
        dec = corp_decomposition(y, proba, **kw)
        assert entry["decomposition"]["miscalibration"] == pytest.approx(
            dec.miscalibration, rel=1e-12
        )
    (comparison,) = p["comparisons"]
    assert comparison["system_a"] == data["pa"]
    for metric in ("calibration_error", "brier"):
        # a proper score is of all the probabilities: no multi_class
        on = kw if metric == "calibration_error" else {"labels": kw["labels"]}
        res = paired_calibration_test(
            y, data["a"], data["b"], metric=metric, groups=data["groups"], **on, **rs
        )
        assert comparison[metric]["statistic"] == pytest.approx(res.statistic)
        assert comparison[metric]["pvalue"] == res.pvalue
    # the over-confident system is the worse calibrated
    assert comparison["calibration_error"]["statistic"] > 0


def test_binary_pos_label_and_options_reach_the_room(data):
    p = _json([data["gold2"], data["p2_file"], "--pos-label", "no", "--method",
               "debiased", "--n-bins", "7", "--strategy", "quantile",
               "--interval", "percentile", "--test", "spiegelhalter"])  # fmt: skip
    y = (data["y2"] == "yes").astype(int)
    kw = {"method": "debiased", "n_bins": 7, "strategy": "quantile", "pos_label": 0}
    ce = calibration_error_interval(
        y, data["p2"], **kw, interval="percentile", n_resamples=99, random_state=0
    )
    entry = p["systems"][0]
    assert entry["calibration_error"]["statistic"] == pytest.approx(ce.statistic)
    assert entry["calibration_error"]["interval"] == "percentile"
    assert entry["calibration_error"]["estimator"] == ce.estimator
    z = calibration_test(y, data["p2"], test="spiegelhalter", pos_label=0)
    assert entry["test"]["statistic"] == pytest.approx(z.statistic, rel=1e-12)
    assert p["pos_label"] == "no" and p["signature"]["pos_label"] == "no"
    assert p["comparisons"] == []


def test_same_seed_same_output_and_text(data):
    argv = ["calibration", data["gold"], data["pa"], data["pb"], *SMALL]
    code, one = run_main(argv)
    assert code == 0
    assert run_main(argv)[1] == one
    assert run_main([*argv, "--random-state", "1"])[1] != one
    assert "debiased L2 calibration error, 15 uniform bins (auto)" in one
    assert "b.csv - " in one and "a.csv (lower is better):" in one
    assert one.rstrip().splitlines()[-1].startswith("sklearn-faithful ")
    json.loads(run_main([*argv, "--format", "json"])[1])  # parses


def test_bom_trailing_spaces_and_float32_text(data, capsys):
    d = data["dir"]
    gold = d / "bom_gold.txt"
    gold.write_bytes(
        b"\xef\xbb\xbf" + "".join(f"{v}  \n" for v in CLASSES[data["y"]]).encode()
    )
    # float32 text: each row sums to 1 only to about 1e-7
    a32 = data["a"].astype(np.float32)
    rows = [",".join(repr(float(v)) for v in row.tolist()) for row in a32]
    proba = d / "bom_a.csv"
    proba.write_bytes(
        b"\xef\xbb\xbf" + ("neg, neu ,pos \n" + "\n".join(rows) + "\n").encode()
    )
    p = _json([str(gold), str(proba)])
    fixed = a32.astype(np.float64)
    off = np.abs(fixed.sum(axis=1) - 1) > np.sqrt(np.finfo(np.float64).eps)
    fixed[off] /= fixed[off].sum(axis=1, keepdims=True)
    ce = calibration_error_interval(data["y"], fixed, n_resamples=99, random_state=0)
    got = p["systems"][0]["calibration_error"]["statistic"]
    assert got == pytest.approx(ce.statistic, rel=1e-12)
    notes = [w["message"] for w in p["warnings"]]
    assert any("sum to 1 only up to rounding" in m and "line " in m for m in notes)


def test_errors_name_the_file_line_and_option(data, tmp_path):
    bad = write(tmp_path / "bad.csv", ["neg,neu,pos", "0.2,0.3,0.5", "0.2,1.3,-0.5"])
    two = write(tmp_path / "two.txt", ["neg", "pos"])
    msg = error_of([two, bad])
    assert "bad.csv, line 3, column 'neu'" in msg and "1.3" in msg
    other = write(tmp_path / "other.txt", [*CLASSES[data["y"][:-1]], "maybe"])
    msg = error_of([other, data["pa"]])
    assert "other.txt" in msg and f"line {N}" in msg and "'maybe'" in msg
    msg = error_of([data["gold"], data["pa"], "--pos-label", "pos"])
    assert "--pos-label 'pos'" in msg and "3 (neg, neu, pos)" in msg
    msg = error_of([data["gold2"], data["p2_file"], "--pos-label", "maybe"])
    assert "--pos-label 'maybe' is not a label" in msg
    msg = error_of([data["gold"], data["pa"], "--method", "debiased", "--norm", "l1"])
    assert "--norm l1 would have no effect" in msg and "--method binned" in msg
    msg = error_of([data["gold"], data["pa"], "--multi-class", "classwise",
                    "--test", "spiegelhalter"])  # fmt: skip
    assert "--multi-class" in msg and "classwise" in msg
    short = write(tmp_path / "short.txt", CLASSES[data["y"][:-1]])
    assert "short.txt" in error_of([short, data["pa"]])


def error_of(argv):
    code, out = run_main_err(["calibration", *argv, *SMALL])
    assert code == 2
    return out


def run_main_err(argv):
    import contextlib
    import io

    from sklearn_faithful.cli._main import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    text = err.getvalue()
    assert "Traceback" not in text
    return code, text


def test_plot_writes_the_reliability_diagrams(data, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "reliability.png"
    p = _json([data["gold"], data["pa"], data["pb"], "--plot", str(out)])
    assert p["plot"] == str(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_json_key_is_documented(data):
    from .test_doc import DOC, _documented_by, _keys

    text = DOC.read_text(encoding="utf-8")
    schema = text[text.index("\nJSON output\n") :]
    documented = set(__import__("re").findall(r"``(\w+)``", schema))
    payload = _json([data["gold"], data["pa"], data["pb"]])
    results = []
    missing = _keys(payload, results) - documented
    assert not missing, missing
    for res in results:
        assert f"{res['result']}`" in schema, res["result"]
        assert not set(res) - _documented_by(res["result"]) - documented


def test_the_plot_names_the_positive_class_and_draws_the_band_at_the_level(
    data, tmp_path
):
    # the axes said "Positive class: 1", the code of "yes", and the band was
    # 90% whatever --confidence-level
    matplotlib = pytest.importorskip("matplotlib")
    out = tmp_path / "reliability.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as text
        _json([data["gold2"], data["p2_file"], "--plot", str(out),
               "--confidence-level", "0.8"])  # fmt: skip
    svg = out.read_text(encoding="utf-8")
    assert "Predicted probability (Positive class: yes)" in svg
    assert "80% band of a calibrated model" in svg
    # refused before any work, not after it with the display's parameter name
    msg = error_of([data["gold"], data["pa"], "--multi-class", "classwise",
                    "--plot", str(out)])  # fmt: skip
    assert "--plot" in msg and "would have no effect" in msg


def test_the_text_names_the_test_s_statistic_and_the_positive_class(data):
    # the test's statistic (the binned ECE by default) was printed without
    # its name under the debiased error's, and no positive class was named
    code, out = run_main(["calibration", data["gold2"], data["p2_file"], *SMALL])
    assert code == 0
    assert "on 200 items, positive class yes:" in out
    assert (
        "test of calibration (consistency): binned L1 calibration error, 15 "
        "uniform bins (auto) = " in out
    )
    p = _json([data["gold2"], data["p2_file"]])
    assert p["pos_label"] == "yes"  # was None: the run judged "yes"
    assert p["systems"][0]["test"]["estimator"].startswith("binned L1")
    p = _json([data["gold"], data["pa"]])  # three classes: the top label
    assert p["pos_label"] is None
    code, out = run_main(
        ["calibration", data["gold2"], data["p2_file"], "--test", "spiegelhalter"]
    )
    assert "test of calibration (spiegelhalter): Spiegelhalter's z = " in out


def test_integer_groups_resample_as_the_api_s_integer_groups(data, tmp_path):
    # ids 0 ... 39 were sorted as text (0, 1, 10, 11, ...), so the clusters
    # were drawn in another order than the API's for the same integers
    groups = np.arange(N) // 5
    path = write(tmp_path / "int_groups.txt", groups)
    p = _json([data["gold"], data["pa"], "--groups", path, "--random-state", "3"])
    ce = calibration_error_interval(
        data["y"], data["a"], groups=groups, n_resamples=99, random_state=3
    )
    got = p["systems"][0]["calibration_error"]["confidence_interval"]
    assert got == pytest.approx(ce.confidence_interval._asdict(), rel=1e-12)
    # not what text ids give
    text = calibration_error_interval(
        data["y"], data["a"], groups=groups.astype(str), n_resamples=99,
        random_state=3,
    )  # fmt: skip
    assert text.confidence_interval != ce.confidence_interval


def test_a_column_of_a_plain_label_file_is_refused(data):
    msg = error_of([data["gold"], data["pa"], "--groups-column", "g"])
    assert msg.count("--groups-column 'g'") == 1 and "--column" not in msg
    assert "gold.txt is a plain file of one value a line" in msg
    assert "not a CSV/TSV table" in msg
    # its first label was read as a header
    first = CLASSES[data["y"][0]]
    msg = error_of([data["gold"], data["pa"], "--column", first])
    assert f"--column {first!r}: " in msg and "gold.txt is a plain file" in msg


def test_a_groups_column_not_in_the_header_names_the_option(data, tmp_path):
    gold = tmp_path / "gold.csv"
    gold.write_text("label,doc\n" + "".join(f"{c},d\n" for c in CLASSES[data["y"]]))
    msg = error_of([str(gold), data["pa"], "--column", "label", "--groups-column",
                    "passage"])  # fmt: skip
    assert "no column 'passage'" in msg
    assert "pass --groups-column with one of these names" in msg


def test_probability_file_messages(data, tmp_path, capsys):
    # a trailing space on the last class name is on line 1, not line 2
    a = data["a"]
    spaced = write(tmp_path / "spaced.csv", ["neg,neu,pos ", *_proba_rows(a)])
    p = _json([data["gold"], spaced])
    assert any("spaced.csv, line 1: the class name 'pos '" in w["message"]
               for w in p["warnings"])  # fmt: skip
    # NaN shows as nan, not np.float64(nan)
    rows = _proba_rows(a)
    rows[3] = "nan,nan,nan"
    msg = error_of([data["gold"], write(tmp_path / "nan.csv", ["neg,neu,pos", *rows])])
    assert "line 5, column 'neg': nan is not a probability" in msg
    assert "np.float64" not in msg
    # a row 1e-7 short of 1: the note printed "sums to 1"
    rows = _proba_rows(a)
    rows[0] = "0.2999999,0.2,0.5"
    p = _json([data["gold"], write(tmp_path / "short.csv", ["neg,neu,pos", *rows])])
    assert any("line 2 sums to 0.9999999)" in w["message"] for w in p["warnings"])
    # one column of probabilities was "sums to 0.4, not 1"
    one = write(
        tmp_path / "one.csv", ["yes", *(repr(float(v)) for v in data["p2"][:, 1])]
    )
    msg = error_of([data["gold2"], one])
    assert "one.csv has one column ('yes')" in msg
    assert "one column per class" in msg and "1 - p" in msg
