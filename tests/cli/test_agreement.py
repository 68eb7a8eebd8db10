"""``sklearn-faithful agreement``: wide and long files, CSV/TSV and JSON Lines."""

import json

import numpy as np
import pytest

from sklearn_faithful.agreement import agreement_report, compare_to_annotators
from sklearn_faithful.cli import main
from sklearn_faithful.cli._main import cli_words

from ._util import (
    CODERS,
    KRIPPENDORFF_2011,
    TAGGED_CODERS,
    UNITS,
    annotation_files,
    annotations,
    error,
    main_json,
    ok,
    run_main,
    tagged_annotations,
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


def _krippendorff_2011(tmp_path):
    """Krippendorff's 2011 data as a wide CSV file, and as numbers."""
    rows = ["A,B,C,D"]
    rows += [",".join("" if v is None else str(v) for v in col)
             for col in zip(*KRIPPENDORFF_2011, strict=True)]  # fmt: skip
    path = write(tmp_path / "k.csv", rows)
    numeric = np.array(
        [[np.nan if v is None else v for v in row] for row in KRIPPENDORFF_2011]
    )
    return path, numeric


def test_krippendorff_2011_numbers_and_levels(tmp_path):
    path, numeric = _krippendorff_2011(tmp_path)
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


# --- --model-coder: the model as one more annotator ----------------------------


@pytest.fixture(scope="module")
def tagged(tmp_path_factory):
    data = tagged_annotations()
    units = [f"d{j + 1:03d}" for j in range(data.shape[1])]
    d = tmp_path_factory.mktemp("tagged")
    return data, annotation_files(d, data, units, TAGGED_CODERS, stem="tagged")


def _as_json(result):
    return json.loads(json.dumps(result.to_dict()))


def test_model_coder_gives_the_numbers_of_the_python_api(tagged):
    data, files = tagged
    humans, names = data[:3], TAGGED_CODERS[:3]
    seed = {"n_resamples": 199, "random_state": 0}
    report = _as_json(agreement_report(humans, coder_names=names, **seed))
    model = _as_json(
        compare_to_annotators(
            humans, data[3], coder_names=names, model_name="tagger", **seed
        )
    )
    for form, path in files.items():
        extra = ["--unit-column", "item"] if "wide" in form else []
        payload = _report(path, "--model-coder", "tagger", *extra)
        assert payload["report"] == report, form
        assert payload["model"] == model, form
        assert payload["n_coders"] == 4
        assert payload["signature"]["model_coder"] == "tagger"
        assert payload["signature"]["model_coefficient"] == "cohen_kappa"
    assert model["verdict"] == "below"
    assert model["annotators"] == names and model["model_name"] == "tagger"


def test_model_coder_may_be_any_row_and_takes_the_level_and_coefficient(tmp_path):
    # Krippendorff's 2011 data, coder B as the model: ordinal alpha
    path, numeric = _krippendorff_2011(tmp_path)
    argv = ["--model-coder", "B", "--level", "ordinal",
            "--model-coefficient", "krippendorff_alpha"]  # fmt: skip
    payload = _report(path, *argv)
    humans = numeric[[0, 2, 3]]
    common = dict(
        level_of_measurement="ordinal",
        coder_names=["A", "C", "D"],
        n_resamples=199,
        random_state=0,
    )
    with pytest.warns(RuntimeWarning):  # 12 units: too few for the interval
        report = _as_json(agreement_report(humans, **common))
    assert payload["report"] == report
    model = compare_to_annotators(
        humans,
        numeric[1],
        coefficient="krippendorff_alpha",
        model_name="B",
        **common,
    )
    assert payload["model"] == _as_json(model)
    assert payload["model"]["coefficient"] == "krippendorff_alpha"
    assert payload["model"]["level_of_measurement"] == "ordinal"


def test_model_coder_of_a_long_file_with_number_ids(tmp_path):
    # coder ids are sorted as numbers: 1, 2, 3, 10; the model is the last
    data = tagged_annotations()[[0, 1, 3, 2]]
    files = annotation_files(tmp_path, data, range(120), ["1", "2", "10", "3"])
    payload = _report(files["long.csv"], "--model-coder", "10")
    model = compare_to_annotators(
        data[[0, 1, 3]],
        data[2],
        coder_names=["1", "2", "3"],
        model_name="10",
        n_resamples=199,
        random_state=0,
    )
    assert payload["model"] == _as_json(model)
    assert payload["report"]["coders"]["coders"] == ["1", "2", "3"]


def test_model_coder_text_shows_the_report_then_the_model(tagged):
    _, files = tagged
    code, out = run_main(
        ["agreement", files["long.csv"], *FAST, "--model-coder", "tagger"]
    )
    assert code == 0
    report_at = out.index("Agreement of 3 coders (nominal)")
    model_at = out.index("tagger as one more annotator: cohen_kappa on 120 units")
    assert report_at < model_at
    lines = out.splitlines()
    assert any(line.split()[:2] == ["tagger", "ann1"] for line in lines)
    assert any(line.split()[:2] == ["ann1", "ann2"] for line in lines)
    assert "verdict: below the human range (199 unit resamples)" in out
    assert lines[-1].endswith("|model_coder:tagger|model_coefficient:cohen_kappa")


def test_without_model_coder_the_model_is_null(forms):
    payload = _report(forms["long.csv"])
    assert payload["model"] is None
    assert "model_coder" not in payload["signature"]


def test_model_coder_not_among_the_coders_lists_them(capsys, tagged):
    _, files = tagged
    err = error(capsys, ["agreement", files["long.csv"], "--model-coder", "gpt"])
    assert (
        f"--model-coder gpt: no such coder in {files['long.csv']}; its coders are "
        "['ann1', 'ann2', 'ann3', 'tagger']." in err
    )
    # a wide file's unit column is no coder
    path = files["wide.csv"]
    argv = ["agreement", path, "--unit-column", "item", "--model-coder", "item"]
    assert "--model-coder item: no such coder" in error(capsys, argv)


def test_model_coder_needs_two_human_coders(capsys, tmp_path):
    path = write(tmp_path / "two.csv", ["ann,gpt", "a,a", "b,b", "a,b"])
    err = error(capsys, ["agreement", path, "--model-coder", "gpt"])
    assert (
        f"--model-coder gpt: {path} holds 1 other coder(s) ['ann']; comparing the "
        "model with the annotators needs at least 2 human coders." in err
    )


@pytest.mark.parametrize(
    "rows, argv, message",
    [
        (["a,b,m", "1,2,1", "2,2,2", "3,3,3"], ["--level", "ordinal",
         "--model-coefficient", "cohen_kappa"],
         "--model-coefficient cohen_kappa takes --level nominal only; got "
         "'ordinal'. Use --model-coefficient krippendorff_alpha for ordinal"),
        (["a,b,m", "x,y,x", "y,y,z"], ["--value-domain", "x,y"],
         "ANNOTATIONS holds values outside --value-domain: ['z']"),
        (["a,b,m", "1,2,inf", "2,2,2"], ["--level", "interval",
         "--model-coefficient", "krippendorff_alpha"],
         "the model coder (--model-coder) holds infinity at unit 0"),
    ],
)  # fmt: skip
def test_model_values_the_function_refuses_in_cli_words(capsys, tmp_path, rows, argv,
                                                        message):  # fmt: skip
    path = write(tmp_path / "m.csv", rows)
    err = error(capsys, ["agreement", path, *FAST, "--model-coder", "m", *argv])
    assert message in err
    for word in ("reliability_data", "y_pred", "coefficient=", "model_name"):
        assert word not in err


def test_model_coefficient_is_checked(capsys):
    with pytest.raises(SystemExit) as info:
        main(["agreement", "x.csv", "--model-coefficient", "fleiss_kappa"])
    assert info.value.code == 2
    assert "invalid choice: 'fleiss_kappa'" in capsys.readouterr().err


# -- columns that are no coders (issue 36) ------------------------------------

# irrCAC's raw_ben_gerry as pandas' to_csv writes it (its index, Group and
# Units, becomes two columns); Krippendorff's alpha of Ben and Gerry is
# 0.6648936 (krippendorff 0.8, the letters coded 0-4)
BEN_GERRY = ["Group,Units,Ben,Gerry", "G2,1,a,b", "G2,2,a,a", "G1,3,b,b", "G1,4,b,b",
             "G1,5,d,b", "G2,6,c,c", "G1,7,c,c", "G2,8,c,c", "G2,9,e,e", "G1,10,d,",
             "G1,11,d,d", "G2,12,a,d"]  # fmt: skip
ALPHA_BEN_GERRY = 0.6648936170212766


def _alpha(path, *argv):
    payload = main_json(["agreement", path, *FAST, "--format", "json", *argv])
    return payload, payload["report"]["intervals"]["krippendorff_alpha"]["statistic"]


def test_a_group_column_is_no_coder_without_a_word(capsys, tmp_path):
    # before: Group was a third coder, alpha 0.1139 with exit status 0
    path = write(tmp_path / "bg.csv", BEN_GERRY)
    err = error(capsys, ["agreement", path, *FAST, "--unit-column", "Units"])
    assert (
        f"{path}, line 1: the column 'Group' does not look like a coder ('Group': "
        "its values ('G1', 'G2') are none of the other columns'). If it is no "
        "coder, pass --ignore-columns Group" in err
    )
    assert "--coders Ben,Gerry,Group" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--unit-column", "Units", "--ignore-columns", "Group"],
        ["--unit-column", "Units", "--coders", "Ben,Gerry"],
        ["--unit-column", "Units", "--coders", " Ben , Gerry"],
        ["--ignore-columns", "Group,Units"],
    ],
)
def test_coders_and_ignored_columns_give_the_alpha_of_the_coders(tmp_path, argv):
    path = write(tmp_path / "bg.csv", BEN_GERRY)
    payload, alpha = _alpha(path, *argv)
    assert alpha == pytest.approx(ALPHA_BEN_GERRY)
    assert payload["n_coders"] == 2
    assert payload["report"]["coders"]["coders"] == ["Ben", "Gerry"]
    option = "coders" if "--coders" in argv else "ignore_columns"
    assert option in payload["signature"]


def test_a_unit_id_column_is_no_coder(capsys, tmp_path):
    # Krippendorff (2011) as irrCAC's raw_4raters.to_csv() writes it: the
    # unit's id 'Units' was read as a fifth coder
    rows = ["Units,Rater1,Rater2,Rater3,Rater4"] + [
        f"{j + 1}," + ",".join("" if v is None else f"{v}.0" for v in column)
        for j, column in enumerate(zip(*KRIPPENDORFF_2011, strict=True))
    ]
    path = write(tmp_path / "k.csv", rows)
    err = error(capsys, ["agreement", path, *FAST])
    assert (
        "the column 'Units' does not look like a coder ('Units': its 12 values" in err
    )
    assert "all different, as a unit id's are, where the other columns hold 5" in err
    _, alpha = _alpha(path, "--unit-column", "Units")
    assert alpha == pytest.approx(0.743421052631579)  # Krippendorff (2011)


def test_wide_json_lines_take_coders_and_ignored_fields(capsys, tmp_path):
    rows = [
        json.dumps(dict(zip(BEN_GERRY[0].split(","), line.split(","), strict=True)))
        for line in BEN_GERRY[1:]
    ]
    path = write(tmp_path / "bg.jsonl", rows)
    err = error(capsys, ["agreement", path, *FAST, "--unit-column", "Units"])
    assert "the column 'Group' does not look like a coder" in err
    for argv in (["--ignore-columns", "Group"], ["--coders", "Ben,Gerry"]):
        _, alpha = _alpha(path, "--unit-column", "Units", *argv)
        # the JSON Lines give Gerry's missing value as "" (missing too)
        assert alpha == pytest.approx(ALPHA_BEN_GERRY)
    capsys.readouterr()  # the warnings of the runs above
    err = error(capsys, ["agreement", path, "--unit-column", "Units",
                         "--ignore-columns", "Grp"])  # fmt: skip
    assert "--ignore-columns Grp: no field 'Grp' in" in err


def test_long_files_keep_the_named_coders_and_refuse_ignored_columns(
    capsys, forms, data
):
    for form in ("long.csv", "long.jsonl"):
        payload = _report(forms[form], "--coders", "ann1,ann3")
        assert payload["report"]["coders"]["coders"] == ["ann1", "ann3"]
        assert payload["report"] == _expected(
            data[[0, 2]], coder_names=["ann1", "ann3"]
        )
        capsys.readouterr()  # the warnings of the run above
        err = error(capsys, ["agreement", forms[form], "--ignore-columns", "x"])
        assert "--ignore-columns x: " in err and "is a long file" in err
        err = error(capsys, ["agreement", forms[form], "--coders", "ann1,zed"])
        assert "--coders ann1,zed: no coder 'zed' in" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--coders", "Ben,Ben"], "--coders Ben,Ben: names 'Ben' twice"),
        (["--coders", "Ben"], "--coders Ben: name at least 2 coders"),
        (["--coders", "Ben,Bob"], "--coders Ben,Bob: no column 'Bob' in"),
        (["--ignore-columns", "Grp"], "--ignore-columns Grp: no column 'Grp' in"),
        (["--coders", "Ben,Units"],
         "--coders Ben,Units: 'Units' is the unit column (--unit-column)"),
        (["--coders", "Ben,Gerry", "--ignore-columns", "Group"],
         "--coders Ben,Gerry and --ignore-columns Group: give one of them"),
    ],
)  # fmt: skip
def test_bad_column_selections_are_refused(capsys, tmp_path, argv, message):
    path = write(tmp_path / "bg.csv", BEN_GERRY)
    err = error(capsys, ["agreement", path, "--unit-column", "Units", *argv])
    assert message in err


@pytest.mark.parametrize("missing", ["NA", "null", "nan", "None"])
def test_a_missing_unit_or_coder_id_is_refused(capsys, tmp_path, missing):
    path = write(tmp_path / "l.csv", ["unit,coder,value", "1,a,x", f"{missing},b,y"])
    err = error(capsys, ["agreement", path])
    assert f"line 3: the unit id is {missing!r}, a missing value" in err
    path = write(tmp_path / "c.csv", ["unit,coder,value", "1,a,x", f"1,{missing},y"])
    err = error(capsys, ["agreement", path])
    assert f"line 3: the coder id is {missing!r}, a missing value" in err
    assert "--coder-column" in err
    path = write(tmp_path / "w.csv", ["id,a,b", "1,x,y", f"{missing},x,x"])
    err = error(capsys, ["agreement", path, "--unit-column", "id"])
    assert f"line 3: the unit id is {missing!r}, a missing value" in err


def test_a_transposed_wide_file_is_refused(capsys, tmp_path):
    # a coders x units matrix written as it is: 4 rows, 12 columns
    rows = [",".join(f"u{j}" for j in range(12))] + [
        ",".join("" if v is None else str(v) for v in row) for row in KRIPPENDORFF_2011
    ]
    path = write(tmp_path / "t.csv", rows)
    err = error(capsys, ["agreement", path, *FAST])
    assert f"{path}: 12 coder columns and 4 units (rows)" in err
    assert "looks transposed" in err and "--coders u0,u1" in err


def test_each_warning_prints_once(tmp_path):
    # before: the small-sample warning printed once per coefficient
    path = write(tmp_path / "bg.csv", BEN_GERRY)
    payload, _ = _alpha(path, "--unit-column", "Units", "--coders", "Ben,Gerry")
    texts = [w["message"] for w in payload["warnings"]]
    assert len(texts) == len(set(texts))
    (few,) = [t for t in texts if "fewer than 50" in t]
    assert few.startswith("ANNOTATIONS has 11 units with values from 2 coders or more")


def test_weighted_agreement_is_labelled_in_the_text(tmp_path):
    rows = ["item,A,B,C,D"] + [
        f"u{j}," + ",".join("" if v is None else str(v) for v in column)
        for j, column in enumerate(zip(*KRIPPENDORFF_2011, strict=True))
    ]
    path = write(tmp_path / "k.csv", rows)
    code, out = run_main(["agreement", path, *FAST, "--unit-column", "item",
                          "--level", "interval"])  # fmt: skip
    assert code == 0
    assert "fleiss_kappa (weighted)" in out and "'observed' is weighted" in out
