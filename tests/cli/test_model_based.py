"""``sklearn-faithful model-based``: ppi from files by default, the paper's method
from summary numbers one option away."""

import json

import pytest

from sklearn_faithful.model_based import (
    ModelBasedMetricTest,
    model_based_test_from_summary,
)

from ._util import BOLD, error, main_json, ok, write

# fields of ModelBasedTestResult, which the JSON's "test" carries by name
FIELDS = ("method", "paired", "n_c", "n_t", "mean_c", "mean_t", "effect",
          "corrected_effect", "rate_c", "rate_t", "pvalue_deterministic", "pvalue",
          "significant_deterministic", "significant_model", "conclusion_changed",
          "n_annotated_c", "n_annotated_t", "lam_c", "lam_t")  # fmt: skip


def _ppi_argv(files, **replace):
    paths = {
        name: files[name]
        for name in ("labels_c", "labels_t", "annotated_c", "annotated_t")
    }
    paths.update(replace)
    argv = ["model-based"]
    for name, path in paths.items():
        argv += ["--" + name.replace("_", "-"), path]
    return argv


def _api(files, **kwargs):
    """The Python API's test on the arrays behind the files."""
    (lc, pc, rc), (lt, pt, rt) = files["mm"]["c"], files["mm"]["t"]
    test = ModelBasedMetricTest(None, method="ppi", pos_label="toxic", **kwargs)
    return test.test_labels(lc, lt, annotated_c=(pc, rc), annotated_t=(pt, rt))


def _check_equal(payload, res):
    test = payload["test"]
    assert test == res.to_dict()
    for name in FIELDS:
        assert test[name] == getattr(res, name), name
    assert test["confidence_interval"] == res.confidence_interval()._asdict()
    assert (
        test["deterministic_confidence_interval"]
        == res.confidence_interval(deterministic=True)._asdict()
    )
    assert payload["summary"] == res.summary()


def test_goyal2023_from_summary_end_to_end(runs):
    text = ok(runs, "model-based")
    res = model_based_test_from_summary(
        0.00456, 23679, 0.00236, 23679, precision=0.8897, false_omission_rate=0.22769
    )
    assert text.startswith("Model-based metric test (Goyal, Hu & Gupta 2023)")
    assert res.summary() in text and "[-0.00978, 0.00538]" in text
    assert "--method ppi" in text  # the recommended method, named


def test_delta_from_summary():
    out = main_json(
        ["model-based", "--method", "delta", *BOLD, "--n-predicted-positive",
         "500", "--n-predicted-negative", "1500", "--format", "json"]
    )  # fmt: skip
    res = model_based_test_from_summary(
        0.00456, 23679, 0.00236, 23679, precision=0.8897,
        false_omission_rate=0.22769, method="delta", n_predicted_positive=500,
        n_predicted_negative=1500,
    )  # fmt: skip
    assert out["labels_c"] is None and out["pos_label"] is None
    _check_equal(out, res)


def test_ppi_from_files_end_to_end(runs, files):
    payload = json.loads(ok(runs, "model-based-ppi"))
    assert payload["command"] == "model-based"
    assert payload["test"]["method"] == "ppi"
    assert payload["labels_c"] == files["labels_c"]
    assert payload["annotated_t"] == files["annotated_t"]
    assert payload["pos_label"] == "toxic"  # the greater of 'ok' and 'toxic'
    assert payload["test"]["n_annotated_c"] == payload["test"]["n_annotated_t"] == 200
    _check_equal(payload, _api(files))
    text = ok(runs, "model-based-ppi-text")
    assert text.startswith("Prediction-powered test (Angelopoulos et al. 2023)")
    assert "rate of 'toxic'" in text and _api(files).summary() in text
    assert "--method goyal2023" in text  # the paper's method, named


def test_ppi_paired_lam_and_pos_label(files):
    argv = [*_ppi_argv(files), "--format", "json"]
    out = main_json([*argv, "--paired", "--lam", "auto"])
    _check_equal(out, _api(files, paired=True, lam="auto"))
    out = main_json([*argv, "--lam", "0.5", "--confidence-level", "0.9"])
    _check_equal(out, _api(files, lam=0.5, confidence_level=0.9))
    # with lam = 1 the rate of 'ok' is one minus the rate of 'toxic'
    toxic = main_json(argv)
    clean = main_json([*argv, "--pos-label", "ok"])
    assert clean["pos_label"] == "ok"
    clean, toxic = clean["test"], toxic["test"]
    assert clean["rate_c"] == pytest.approx(1 - toxic["rate_c"])
    assert clean["corrected_effect"] == pytest.approx(-toxic["corrected_effect"])


def test_ppi_file_formats_agree(files, tmp_path):
    (lc, pc, rc), (lt, pt, rt) = files["mm"]["c"], files["mm"]["t"]
    ref = main_json([*_ppi_argv(files), "--format", "json"])
    # CSV: other columns, in another order; JSON Lines; two labels a line
    csv_c = write(
        tmp_path / "c.csv",
        ["id,label,text,prediction"]
        + [f"{i},{r},out {i},{p}" for i, (p, r) in enumerate(zip(pc, rc, strict=True))],
    )
    jsonl_t = write(
        tmp_path / "t.jsonl",
        [
            json.dumps({"prediction": p, "label": r})
            for p, r in zip(pt, rt, strict=True)
        ],
    )
    text_t = write(
        tmp_path / "t.txt", [f"{p}  {r}" for p, r in zip(pt, rt, strict=True)]
    )
    labels = {
        f"labels_{side}": write(
            tmp_path / f"l{side}.jsonl", [json.dumps({"flag": v}) for v in values]
        )
        for side, values in (("c", lc), ("t", lt))
    }
    for replace, extra in (
        ({"annotated_c": csv_c, "annotated_t": jsonl_t}, []),
        ({"annotated_t": text_t}, []),
        (labels, ["--field", "flag"]),
    ):
        out = main_json([*_ppi_argv(files, **replace), *extra, "--format", "json"])
        assert out["test"] == ref["test"]


def test_ppi_needs_its_files_and_refuses_summary_numbers(capsys, files):
    err = error(capsys, ["model-based", *BOLD])
    assert "--mean-c is for --method goyal2023 or delta" in err
    assert "--method ppi reads files" in err
    err = error(capsys, _ppi_argv(files)[:5])
    assert err.rstrip().endswith("missing --annotated-c, --annotated-t.")
    err = error(capsys, ["model-based", "--method", "goyal2023", *BOLD, "--paired"])
    assert "--paired is for --method ppi" in err
    err = error(capsys, ["model-based", "--method", "goyal2023", "--labels-c", "c.txt"])
    assert "--labels-c is for --method ppi, which reads files" in err
    err = error(capsys, ["model-based", "--method", "goyal2023", *BOLD[:4]])
    assert "missing --mean-t, --n-t, --precision, --false-omission-rate" in err


def test_ppi_bad_files(capsys, files, tmp_path):
    (_, pc, rc) = files["mm"]["c"]
    rows = [f"{p}\t{r}" for p, r in zip(pc, rc, strict=True)]
    typo = write(tmp_path / "typo.tsv", ["prediction\tlabel", *rows[:6], "ok\tOK"])
    err = error(capsys, _ppi_argv(files, annotated_c=typo))
    assert f"{typo}, line 8: the label 'OK' does not occur in" in err
    err = error(capsys, [*_ppi_argv(files), "--pos-label", "toxic!"])
    assert "--pos-label 'toxic!' is not a label of" in err
    one = write(tmp_path / "one.tsv", ["prediction\tlabel", "ok\tok"])
    err = error(capsys, _ppi_argv(files, annotated_t=one))
    assert f"{one} holds 1 annotated item(s)" in err
    three = write(tmp_path / "three.txt", ["ok ok", "ok ok ok"])
    err = error(capsys, _ppi_argv(files, annotated_t=three))
    assert f"{three}, line 2: 3 field(s); each line holds two labels" in err
    no_label = write(tmp_path / "nl.csv", ["prediction,real", "ok,ok", "ok,ok"])
    err = error(capsys, _ppi_argv(files, annotated_t=no_label))
    assert f"{no_label}, line 1: no column 'label' in the header" in err
    empty = write(tmp_path / "e.csv", ["prediction,label", "ok,ok", "toxic,"])
    err = error(capsys, _ppi_argv(files, annotated_t=empty))
    assert f"{empty}, line 3: the annotator's label is empty" in err
    short = write(tmp_path / "short.txt", files["mm"]["t"][0][:-1])
    err = error(capsys, [*_ppi_argv(files, labels_t=short), "--paired"])
    assert f"{short} has 1999 lines but {files['labels_c']} has 2000" in err
    two = write(tmp_path / "two.tsv", ["prediction\tlabel", "ok\tok", "ok\tok"])
    err = error(capsys, [*_ppi_argv(files, annotated_t=two), "--paired"])
    assert f"{two} has 2 annotated items but {files['annotated_c']} has 200" in err
    three_classes = write(tmp_path / "l3.txt", ["ok", "toxic", "unsure"] * 10)
    err = error(capsys, _ppi_argv(files, labels_t=three_classes))
    assert "hold 3 labels (['ok', 'toxic', 'unsure']); pass --pos-label" in err
