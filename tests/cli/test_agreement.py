"""``sklearn-faithful agreement``: wide and long files, CSV/TSV and JSON Lines."""

import json

import numpy as np
import pytest

from sklearn_faithful.agreement import agreement_report
from sklearn_faithful.cli import main
from sklearn_faithful.cli._main import cli_words

from ._util import (
    CODERS,
    KRIPPENDORFF_2011,
    UNITS,
    annotation_files,
    annotations,
    error,
    main_json,
    ok,
    run_main,
    write,
)

FAST = ["--n-resamples", "199"]


@pytest.fixture(scope="module")
def data():
    return annotations()


@pytest.fixture(scope="module")
def forms(files):
    return files["annotations"]


def _report(path, *extra):
    payload = main_json(["agreement", path, *FAST, "--format", "json", *extra])
    return payload


def test_every_form_gives_the_same_numbers(forms):
    # wide files name the unit in the column 'item'; long files are found
    # long by their header, and their rows are shuffled
    reports = {
        form: _report(path, *(["--unit-column", "item"] if "wide" in form else []))
        for form, path in forms.items()
    }
    first = reports["wide.csv"]
    assert first["form"] == "wide"
    assert reports["long.csv"]["form"] == "long"
    for form, payload in reports.items():
        assert payload["report"] == first["report"], form
        assert payload["report"]["coders"]["coders"] == CODERS
        assert payload["n_units"] == len(UNITS)


def test_the_module_entry_point_prints_the_same_json(runs, forms):
    # python -m sklearn_faithful agreement, in a subprocess (conftest.runs)
    assert json.loads(ok(runs, "agreement")) == _report(forms["long.jsonl"])


def _expected(data, **kwargs):
    """The report of the Python API, as the command line prints it."""
    kwargs = {"n_resamples": 199, "random_state": 0, **kwargs}
    return json.loads(json.dumps(agreement_report(data, **kwargs).to_dict()))


def test_numbers_are_those_of_the_python_api(forms, data):
    payload = _report(forms["long.csv"])
    assert payload["report"] == _expected(data, coder_names=CODERS)
    assert payload["n_coders"] == len(CODERS)
    assert payload["report"]["coders"]["coders"] == CODERS


def test_json_holds_every_coefficient(tmp_path, forms, data):
    payload = _report(forms["wide.jsonl"], "--unit-column", "item")
    intervals = payload["report"]["intervals"]
    assert list(intervals) == [
        "percent_agreement", "krippendorff_alpha", "fleiss_kappa", "gwet_ac"
    ]  # fmt: skip
    for name, res in intervals.items():
        assert res["coefficient"] == name
        assert res["result"] == "AgreementInterval"
        assert 0 < res["statistic"] <= 1
        low, high = (
            res["confidence_interval"]["low"],
            res["confidence_interval"]["high"],
        )
        assert low < res["statistic"] < high
        assert 0 < res["observed_agreement"] <= 1
        assert res["n_resamples"] == 199
    # two coders: Cohen's kappa too
    two = annotation_files(tmp_path, data[:2], UNITS, CODERS[:2])
    intervals = _report(two["long.csv"])["report"]["intervals"]
    assert "cohen_kappa" in intervals


def test_text_shows_each_coefficient_and_the_coders(forms):
    code, out = run_main(["agreement", forms["long.csv"], *FAST])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{forms['long.csv']} (long file): 60 units"
    for name in ("percent_agreement", "krippendorff_alpha", "fleiss_kappa",
                 "gwet_ac", *CODERS):  # fmt: skip
        assert any(line.startswith(name + " ") for line in lines), name
    # the careless third coder shows
    assert "Alpha is highest without ann3" in out
    assert lines[-1].startswith("sklearn-faithful ")
    assert "|command:agreement|seed:0|measurement:nominal|resamples:199|" in out


def test_wide_without_unit_column_reads_a_unit_a_line(tmp_path, data):
    rows = [",".join(CODERS)]
    rows += [",".join("" if v is None else v for v in data[:, j])
             for j in range(data.shape[1])]  # fmt: skip
    path = write(tmp_path / "plain.csv", rows)
    payload = _report(path)
    assert payload["report"] == _expected(data, coder_names=CODERS)


@pytest.mark.parametrize("missing", ["", "NA", "null"])
def test_missing_values(tmp_path, data, missing):
    files = annotation_files(tmp_path, data, UNITS, CODERS, missing=missing)
    payload = _report(files["long.csv"])
    assert payload["report"] == _expected(data, coder_names=CODERS)


def test_long_with_other_column_names(tmp_path, data):
    rows = ["annotator,doc,label"]
    rows += [
        f"{c},{u},{v}"
        for j, u in enumerate(UNITS)
        for c, v in zip(CODERS, data[:, j], strict=True)
        if v is not None
    ]
    path = write(tmp_path / "export.csv", rows)
    argv = ["--unit-column", "doc", "--coder-column", "annotator",
            "--value-column", "label"]  # fmt: skip
    payload = _report(path, *argv)
    assert payload["form"] == "long"
    assert payload["report"] == _expected(data, coder_names=CODERS)


# Krippendorff (2011), the example with missing values: alpha at each level
PUBLISHED_ALPHA = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849,
                   "ratio": 0.797}  # fmt: skip


def test_krippendorff_2011_numbers_and_levels(tmp_path):
    rows = ["A,B,C,D"]
    rows += [",".join("" if v is None else str(v) for v in col)
             for col in zip(*KRIPPENDORFF_2011, strict=True)]  # fmt: skip
    path = write(tmp_path / "k.csv", rows)
    numeric = np.array(
        [[np.nan if v is None else v for v in row] for row in KRIPPENDORFF_2011]
    )
    for level, alpha in PUBLISHED_ALPHA.items():
        payload = _report(path, "--level", level)
        report = payload["report"]
        assert round(report["intervals"]["krippendorff_alpha"]["statistic"], 3) == alpha
        expected = _expected(
            numeric, level_of_measurement=level, coder_names=list("ABCD")
        )
        assert report == expected, level


def test_ordinal_text_labels_take_their_order_from_value_domain(tmp_path):
    # Krippendorff's 2011 data with words for its numbers: the same numbers
    # when --value-domain gives the words' order
    words = {1: "never", 2: "rarely", 3: "sometimes", 4: "often", 5: "always"}

    def csv(name, cell):
        rows = ["A,B,C,D"]
        rows += [",".join("" if v is None else cell(v) for v in col)
                 for col in zip(*KRIPPENDORFF_2011, strict=True)]  # fmt: skip
        return write(tmp_path / name, rows)

    text = _report(
        csv("likert.csv", words.get),
        "--level",
        "ordinal",
        "--value-domain",
        ",".join(words.values()),
    )
    numbers = _report(csv("numbers.csv", str), "--level", "ordinal")
    assert text["report"]["dominant_value"] == "rarely"
    assert numbers["report"]["dominant_value"] == 2
    for key in ("intervals", "coders", "dominant_share"):
        assert text["report"][key] == numbers["report"][key], key


def test_text_values_at_a_level_above_nominal_are_an_error(capsys, tmp_path):
    path = write(tmp_path / "t.csv", ["A,B", "1,2", "3,x", "2,2"])
    err = error(capsys, ["agreement", path, "--level", "interval"])
    assert f"{path}, line 3: 'x' is not a number; --level interval needs numbers" in err
    err = error(capsys, ["agreement", path, "--level", "ordinal"])
    assert "pass --value-domain with the labels in order" in err


def test_a_unit_coded_twice_by_a_coder_names_the_line(capsys, tmp_path):
    path = write(
        tmp_path / "dup.csv",
        ["unit,coder,value", "1,a,x", "1,b,x", "2,a,y", "2,b,y", "1,a,y"],
    )
    err = error(capsys, ["agreement", path])
    assert (
        f"{path}, line 6: coder 'a' codes unit 1 a second time (the first is on "
        "line 2)" in err
    )
    pairs = [("d1", "a"), ("d1", "b"), ("d2", "b"), ("d1", "b")]
    rows = [json.dumps({"unit": u, "coder": c, "value": "x"}) for u, c in pairs]
    path = write(tmp_path / "dup.jsonl", rows)
    err = error(capsys, ["agreement", path])
    assert f"{path}, line 4: coder 'b' codes unit 'd1' a second time" in err
    # a wide file's unit id twice
    path = write(tmp_path / "wdup.csv", ["id,a,b", "u1,x,x", "u2,y,y", "u1,x,y"])
    err = error(capsys, ["agreement", path, "--unit-column", "id"])
    assert f"{path}, line 4: coder 'a' codes unit 'u1' (--unit-column) a second" in err


@pytest.mark.parametrize(
    "rows, argv, message",
    [
        (["unit,value", "1,x"], ["--long"],
         "line 1: no column 'coder' in the header ['unit', 'value']; a long file"),
        (["unit,a", "1,x"], [],
         "line 1: the header ['unit', 'a'] names 1 coder column(s)"),
        (["item,a", "1,x"], ["--unit-column", "item"],
         "line 1: the header ['item', 'a'] names 1 coder column(s); a wide file"),
        (["a,b", "x,y"], ["--unit-column", "id"],
         "line 1: no column 'id' in the header ['a', 'b']; pass --unit-column"),
        (["a,b,a", "x,y,z"], [], "line 1: the header ['a', 'b', 'a'] names 'a' twice"),
        (["a,,b", "x,y,z"], [], "line 1: the header ['a', '', 'b'] holds an empty"),
        (["unit,coder,value", "1,a,x", ",b,y"], [], "line 3: the unit id is empty"),
        (["unit,coder,value", "1,a,x", "1, ,y"], [], "line 3: the coder id is empty"),
        (["a,b"], [], "has a header but no rows"),
        (["a,b", "x,y", "x"], [], "line 3: 1 field(s), but column 'b' is field 2"),
    ],
)  # fmt: skip
def test_table_errors_name_the_file_and_line(capsys, tmp_path, rows, argv, message):
    path = write(tmp_path / "bad.csv", rows)
    err = error(capsys, ["agreement", path, *argv])
    assert f"{path}, {message}" in err or f"{path} {message}" in err, err


@pytest.mark.parametrize(
    "rows, argv, message",
    [
        (['{"unit": 1, "coder": "a", "value": "x"}', '{"unit": null, "coder": "b", '
          '"value": "x"}'], [], "line 2: the field 'unit' is null, not a label"),
        (['{"a": "x", "b": "y"}', '["x", "y"]'], [], "line 2: list, not an object"),
        (['{"a": "x", "b": ["y"]}'], [], "line 1: the field 'b' is list, not a value"),
        (['{"a": "x", "b": "y"}', "", '{"a": "x"}'], [], "line 2 is blank"),
        (['{"a": "x", "b": "y"}', '{"a": "x"'], [], "line 2: not JSON"),
        (['{"id": 1, "a": "x", "b": "y"}', '{"a": "x", "b": "y"}'],
         ["--unit-column", "id"], "line 2: no field 'id'"),
        (['{"unit": 1, "value": "x"}'], ["--long"], "line 1: no field 'coder'"),
    ],
)  # fmt: skip
def test_json_lines_errors_name_the_file_and_line(capsys, tmp_path, rows, argv,
                                                  message):  # fmt: skip
    path = write(tmp_path / "bad.jsonl", rows)
    err = error(capsys, ["agreement", path, *argv])
    assert f"{path}, {message}" in err or f"{path} {message}" in err, err


def test_white_space_is_stripped_with_a_warning(capsys, tmp_path, forms):
    clean = _report(forms["long.csv"])
    text = open(forms["long.csv"], encoding="utf-8").read().splitlines()
    text[4] = text[4].replace(",", " , ")
    path = write(tmp_path / "spaced.csv", text)
    assert main(["agreement", path, *FAST, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["report"] == clean["report"]
    assert f"sklearn-faithful: warning: {path}, line 5: the value " in err
    assert f"sklearn-faithful: warning: {path}, line 5: the unit id " in err


def test_a_file_without_extension_is_read_by_its_first_line(tmp_path, forms):
    for form in ("wide.tsv", "long.jsonl"):
        path = tmp_path / form.replace(".", "_")
        path.write_bytes(open(forms[form], "rb").read())
        extra = ["--unit-column", "item"] if "wide" in form else []
        payload = _report(str(path), *extra)
        assert payload["report"] == _report(forms[form], *extra)["report"]


def test_a_fifo_names_the_argument(capsys, tmp_path):
    import os

    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    err = error(capsys, ["agreement", fifo])
    assert f"ANNOTATIONS file {fifo!r} is a FIFO (named pipe)" in err


@pytest.mark.parametrize(
    "rows, argv, message",
    [
        (["unit,coder,value", "1,a,x", "2,b,y"], [],
         "no unit of ANNOTATIONS has values from 2 coders: agreement is "
         "undefined.\n"),
        (["a,b", "-1,2", "3,3"], ["--level", "ratio"],
         "--level ratio needs values >= 0"),
        (["a,b", "low,high", "mid,mid"], ["--level", "ordinal", "--value-domain",
         "low,high"], "ANNOTATIONS holds values outside --value-domain: ['mid']"),
        (["a,b", "1,2", "3,3"], ["--value-domain", "x,y"],
         "--value-domain x,y: {path} holds numbers; give the domain as numbers."),
        (["a,b", "1,2", "3,3"], ["--value-domain", "1,1,2,3"],
         "--value-domain holds a value twice: [1.0, 1.0, 2.0, 3.0]."),
    ],
)  # fmt: skip
def test_values_the_functions_refuse_in_cli_words(capsys, tmp_path, rows, argv,
                                                  message):  # fmt: skip
    path = write(tmp_path / "v.csv", rows)
    err = error(capsys, ["agreement", path, *FAST, *argv])
    assert message.format(path=path) in err
    assert "reliability_data" not in err


def test_level_of_measurement_in_cli_words():
    options = {"level_of_measurement": "--level"}
    message = "level_of_measurement='bogus' is not one of ..."
    assert cli_words(message, options).startswith("--level bogus")


def test_options_are_checked(capsys):
    for argv in (["--level", "bogus"], ["--confidence-level", "1"],
                 ["--n-resamples", "1"], ["--random-state", "-1"]):  # fmt: skip
        with pytest.raises(SystemExit) as info:
            main(["agreement", "x.csv", *argv])
        assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_resamples_beyond_the_machine_are_refused_first(capsys, forms):
    err = error(capsys, ["agreement", forms["long.csv"], "--n-resamples", "10" * 7])
    assert "--n-resamples 10101010101010 needs about" in err
    assert "GiB of memory" in err
