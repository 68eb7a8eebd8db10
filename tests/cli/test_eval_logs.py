"""``eval-logs``: runs' per-item score logs joined by id, compared, or judged."""

import json
import os
import sys

import numpy as np
import pytest

from sklearn_faithful.cli import main
from sklearn_faithful.eval_logs import (
    compare_runs,
    join_runs,
    prediction_powered_mean,
    rank_intervals,
)
from sklearn_faithful.utils._multitest import benjamini_hochberg, holm

from ._bad_inputs import numbers
from ._util import error, judged_log, main_json, run_logs, run_main, write, write_log

FAST = ["--n-resamples", "199"]


def _write_runs(d, logs, kind="jsonl", order=None):
    """Each run's records in ``d/run{NAME}.{kind}``; ``order`` shuffles them
    (a seed), else they are sorted by id. Returns the paths."""
    d.mkdir(exist_ok=True)
    rng = None if order is None else np.random.default_rng(order)
    paths = []
    for name, records in logs.items():
        if rng is not None:
            records = [records[i] for i in rng.permutation(len(records))]
        paths.append(write_log(d / f"run{name}.{kind}", records, kind))
    return paths


def _payload(argv):
    return main_json([*argv, "--format", "json"])


@pytest.fixture(scope="module")
def logs():
    return run_logs()


@pytest.mark.parametrize("score", ["score", "judge.rating"])
def test_record_order_gives_the_same_output(tmp_path, monkeypatch, logs, score):
    # the "Done when": two JSONL logs in different orders, with a
    # cluster field and three samples per item, give the same answer as the
    # same logs sorted; a judge's ratings too (continuous: sums of floats)
    two = {k: logs[k] for k in "AB"}
    argv = ["eval-logs", "runA.jsonl", "runB.jsonl", "--cluster-field", "passage",
            "--on-duplicate", "repeats", "--score-field", score, *FAST]  # fmt: skip
    out = {}
    for label, order in (("sorted", None), ("shuffled", 1), ("shuffled again", 2)):
        d = tmp_path / label.replace(" ", "_")
        _write_runs(d, two, order=order)
        monkeypatch.chdir(d)
        text = run_main(argv)
        as_json = run_main([*argv, "--format", "json"])
        assert text[0] == as_json[0] == 0
        out[label] = (text[1], as_json[1])
    assert out["sorted"] == out["shuffled"] == out["shuffled again"]
    payload = json.loads(out["sorted"][1])
    assert payload["join"]["n_items"] == 60
    assert payload["join"]["n_clusters"] == 15
    assert payload["join"]["n_repeated"] == {"runA": 60, "runB": 60}
    assert payload["comparison"]["n_clusters"] == 15


@pytest.mark.parametrize(
    "options, kwargs",
    [
        ([], {}),
        (
            ["--method", "bootstrap", "--interval", "percentile", "--correction",
             "bh", "--confidence-level", "0.9", "--random-state", "7"],
            dict(method="bootstrap", interval="percentile", correction="bh",
                 confidence_level=0.9, random_state=7),
        ),
    ],
)  # fmt: skip
def test_the_numbers_are_the_python_apis(tmp_path, logs, options, kwargs):
    paths = _write_runs(tmp_path, logs, order=0)
    payload = _payload(["eval-logs", *paths, "--names", "A,B,C", "--cluster-field",
                        "passage", "--on-duplicate", "repeats", *FAST,
                        *options])  # fmt: skip
    columns = {
        name: {k: [r[k] for r in records] for k in ("id", "score", "passage")}
        for name, records in logs.items()
    }
    table = join_runs(columns, groups_field="passage", on_duplicate="repeats")
    with pytest.warns(RuntimeWarning, match="only 15 clusters"):
        expected = compare_runs(table, n_resamples=199, **{"random_state": 0, **kwargs})
    assert payload["comparison"] == expected.to_dict()
    assert payload["join"] == table.to_dict()
    assert payload["runs"] == [
        {"name": n, "file": p} for n, p in zip("ABC", paths, strict=True)
    ]


@pytest.mark.parametrize(
    "correction, adjust", [("holm", holm), ("bh", benjamini_hochberg)]
)
def test_several_runs_give_adjusted_pvalues_and_the_tied_group(
    tmp_path, logs, correction, adjust
):
    # the "Done when": several runs give Holm or BH adjusted p-values
    # and the "tied with best" group, in text and JSON
    paths = _write_runs(tmp_path, logs)
    argv = ["eval-logs", *paths, "--names", "A,B,C", "--on-duplicate", "repeats",
            "--correction", correction, *FAST]  # fmt: skip
    payload = _payload(argv)["comparison"]
    pairs = payload["pairs"]
    assert [(p["run_a"], p["run_b"]) for p in pairs] == [("A", "B"), ("A", "C"),
                                                         ("B", "C")]  # fmt: skip
    raw = np.array([p["pvalue"] for p in pairs])
    assert np.allclose([p["pvalue_adjusted"] for p in pairs], adjust(raw))
    assert payload["correction"] == correction
    assert payload["best"] == "B"
    assert "B" in payload["tied_with_best"]
    code, text = run_main(argv)
    assert code == 0
    assert {"holm": "p (Holm)", "bh": "p (BH)"}[correction] in text
    tied = ", ".join(payload["tied_with_best"])
    assert f"tied with the best (B) at the 0.05 level: {tied}" in text
    assert f"|correction:{correction}|" in text.splitlines()[-1]


def test_a_baseline_and_no_correction(tmp_path, logs):
    paths = _write_runs(tmp_path, logs)
    payload = _payload(["eval-logs", *paths, "--names", "A,B,C", "--on-duplicate",
                        "repeats", "--baseline", "A", "--correction", "none",
                        "--method", "sign", *FAST])  # fmt: skip
    comparison = payload["comparison"]
    assert [(p["run_a"], p["run_b"]) for p in comparison["pairs"]] == [
        ("A", "B"),
        ("A", "C"),
    ]
    assert comparison["correction"] is None
    # issue 36: --baseline dropped the tied-with-best column; the best's own
    # tests against the others give it
    assert comparison["best"] == "B" and comparison["tied_with_best"][0] == "B"
    text = run_main(["eval-logs", *paths, "--names", "A,B,C", "--on-duplicate",
                     "repeats", "--baseline", "A", *FAST])[1]  # fmt: skip
    assert "tied with best" in text and "tied with the best (B)" in text
    for p in comparison["pairs"]:
        assert p["pvalue_adjusted"] == p["pvalue"]


def test_missing_ids_stop_with_counts_unless_a_policy_is_given(tmp_path, capsys, logs):
    # the "Done when": status 2 and a message with the counts
    two = {"A": logs["A"], "B": [r for r in logs["B"] if r["id"] not in
                                 ("q003", "q010", "q041", "q059")]}  # fmt: skip
    a, b = _write_runs(tmp_path, two)
    argv = ["eval-logs", a, b, "--on-duplicate", "repeats", *FAST]
    err = error(capsys, argv)
    assert (
        f"4 of 60 'id' ids are not in every run: {b} lacks 4 (e.g. 'q003', "
        "'q010', 'q041', ...). 56 ids are in every run. Pass --on-missing drop to "
        "compare those 56, or fix the logs." in err
    )
    payload = _payload([*argv, "--on-missing", "drop"])
    assert payload["join"]["n_dropped"] == 4
    assert payload["join"]["n_missing"] == {"runA": 0, "runB": 4}
    assert payload["comparison"]["n_items"] == 56


def test_duplicate_ids_stop_with_counts_unless_a_policy_is_given(
    tmp_path, capsys, logs
):
    a, b = _write_runs(tmp_path, {k: logs[k] for k in "AB"})
    err = error(capsys, ["eval-logs", a, b, *FAST])
    assert f"{a} has 60 'id' ids with several records (e.g. 'q000' x3," in err
    assert "Pass --on-duplicate repeats if they are repeated samples" in err
    # one record per item but one id twice
    once = [r for r in logs["A"][::3]] + [logs["A"][7]]
    c = write_log(tmp_path / "once.jsonl", once)
    d = write_log(tmp_path / "other.jsonl", logs["B"][::3])
    err = error(capsys, ["eval-logs", c, d, *FAST])
    assert f"{c} has 1 'id' ids with several records (e.g. 'q002' x2)" in err
    payload = _payload(["eval-logs", c, d, "--on-duplicate", "repeats", *FAST])
    assert payload["join"]["n_repeated"] == {"once": 1, "other": 0}


@pytest.mark.parametrize("kind", ["csv", "tsv", "parquet", "ndjson"])
def test_tables_and_parquet_give_the_answer_of_json_lines(tmp_path, logs, kind):
    if kind == "parquet":
        pytest.importorskip("pyarrow")
    argv = ["--names", "A,B,C", "--on-duplicate", "repeats", "--cluster-field",
            "passage", "--score-field", "judge.rating", *FAST]  # fmt: skip
    jsonl = _payload(["eval-logs", *_write_runs(tmp_path / "j", logs), *argv])
    if kind == "tsv":
        paths = _write_runs(tmp_path / "t", logs, kind="csv", order=3)
        for path in paths:
            with open(path, encoding="utf-8") as fh:
                text = fh.read().replace(",", "\t")
            os.remove(path)
            with open(path[:-3] + "tsv", "w", encoding="utf-8") as fh:
                fh.write(text)
        paths = [p[:-3] + "tsv" for p in paths]
    elif kind == "ndjson":
        paths = _write_runs(tmp_path / "n", logs, kind="jsonl", order=3)
        for path in paths:
            os.rename(path, path[:-5] + "ndjson")
        paths = [p[:-5] + "ndjson" for p in paths]
    else:
        paths = _write_runs(tmp_path / "k", logs, kind=kind, order=3)
    other = _payload(["eval-logs", *paths, *argv])
    assert other["comparison"] == jsonl["comparison"]
    assert other["join"] == jsonl["join"]


def test_the_kind_of_a_file_without_extension_is_its_first_line(tmp_path, logs):
    a, b = _write_runs(tmp_path, {k: logs[k][::3] for k in "AB"})
    plain = tmp_path / "b_log"
    os.rename(b, plain)
    one = _payload(["eval-logs", a, b.replace("runB.jsonl", "b_log"), *FAST])
    a2, b2 = _write_runs(tmp_path / "csv", {k: logs[k][::3] for k in "AB"}, "csv")
    os.rename(b2, tmp_path / "csv" / "b_log")
    two = _payload(["eval-logs", a2, str(tmp_path / "csv" / "b_log"), *FAST])
    assert one["comparison"] == two["comparison"]


def test_parquet_without_pyarrow_says_how_to_install_it(tmp_path, capsys, monkeypatch,
                                                        logs):  # fmt: skip
    pytest.importorskip("pyarrow")
    a, b = _write_runs(tmp_path, {k: logs[k][::3] for k in "AB"}, kind="parquet")
    for module in ("pyarrow", "pyarrow.parquet", "pandas"):
        monkeypatch.setitem(sys.modules, module, None)
    err = error(capsys, ["eval-logs", a, b, *FAST])
    assert f"{a}: reading Parquet files needs pyarrow: pip install pyarrow." in err


def test_a_bad_parquet_file_is_an_error(tmp_path, capsys, logs):
    pytest.importorskip("pyarrow")
    a = write_log(tmp_path / "a.jsonl", logs["A"][::3])
    bad = tmp_path / "b.parquet"
    bad.write_bytes(b"not parquet at all")
    err = error(capsys, ["eval-logs", a, str(bad), *FAST])
    assert f"{bad}: not a readable Parquet file" in err
    good = write_log(tmp_path / "c.parquet", logs["B"][::3])
    err = error(capsys, ["eval-logs", good, a, "--score-field", "rating", *FAST])
    assert f"{good}: no column 'rating'" in err and "pass --score-field" in err


def _two(tmp_path, logs, lines_b):
    """Run A's log (one record per item) and run B's log of ``lines_b``."""
    a = write_log(tmp_path / "a.jsonl", logs["A"][::3])
    b = tmp_path / "b.jsonl"
    b.write_bytes(lines_b)
    return a, str(b)


def _lines(records):
    return "".join(json.dumps(r) + "\n" for r in records).encode()


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda t: t.replace(b'"score": 0', b'"score": "wrong"', 1),
         "line {line}: 'wrong' is not a score; --score-field holds numbers"),
        (lambda t: t.replace(b'"score": 0', b'"score": null', 1),
         "line {line}: the field 'score' is null, not a --score-field value"),
        (lambda t: t.replace(b'"score": 0', b'"score": NaN', 1),
         "line {line}: 'nan' is not a finite number; --score-field"),
        (lambda t: t.replace(b'"score": 0', b'"points": 0', 1),
         "line {line}: no field 'score' (the record's fields are ['id', 'passage', "
         "'points', 'judge']); pass --score-field with the name of its "
         "field."),
        (lambda t: t.replace(b'"id": "q', b'"ID": "q', 1),
         "line 1: no field 'id' (the record's fields are ['ID', 'passage', 'score', "
         "'judge']); pass --id-field"),
        (lambda t: t.replace(b'"id": "q000"', b'"id": ""', 1),
         "line 1: the --id-field value is empty; every record needs one."),
        (lambda t: t.replace(b"}\n", b"\n", 1), "line 1: not JSON"),
        (lambda t: t.replace(b"}\n", b"}\n\n", 1), "line 2 is blank; JSON Lines"),
    ],
    ids=["text", "null", "nan", "no-field", "no-id", "empty-id", "invalid",
         "blank"],
)  # fmt: skip
def test_bad_records_name_the_file_line_and_option(tmp_path, capsys, logs, edit,
                                                   message):  # fmt: skip
    records = logs["B"][::3]
    line = 1 + next(i for i, r in enumerate(records) if r["score"] == 0)
    a, b = _two(tmp_path, logs, edit(_lines(records)))
    err = error(capsys, ["eval-logs", a, b, *FAST])
    assert f"{b}, {message.format(line=line)}" in err


def test_a_csv_cell_that_is_no_score_names_the_line(tmp_path, capsys, logs):
    a = write_log(tmp_path / "a.csv", logs["A"][::3])
    rows = open(a, encoding="utf-8").read().splitlines()
    rows[5] = rows[5].replace(",1,", ",yes,").replace(",0,", ",yes,")
    b = write(tmp_path / "b.csv", rows)
    err = error(capsys, ["eval-logs", a, b, *FAST])
    assert f"{b}, line 6: 'yes' is not a score" in err
    err = error(capsys, ["eval-logs", a, b, "--cluster-field", "cluster", *FAST])
    assert f"{a}, line 1: no column 'cluster' in the header" in err
    assert "pass --cluster-field with the name of its column" in err


def _parquet_run(tmp_path, records, column, value, row):
    """Run A's log as JSON Lines, and run B's as a Parquet file of text ids and
    scores whose ``column`` holds ``value`` at ``row`` (from 0)."""
    import pandas as pd

    a = write_log(tmp_path / "a.jsonl", records)
    table = {"id": [r["id"] for r in records],
             "score": [str(r["score"]) for r in records]}  # fmt: skip
    table[column][row] = value
    b = tmp_path / "b.parquet"
    pd.DataFrame(table).to_parquet(b)
    return a, str(b)


@pytest.mark.parametrize(
    "column, value, message",
    [
        ("score", "yes", "'yes' is not a score; --score-field holds numbers"),
        ("score", None, "the field 'score' is null, not a --score-field value"),
        ("score", "inf", "'inf' is not a finite number; --score-field"),
        ("id", "", "the --id-field value is empty; every record needs one."),
    ],
    ids=["text", "null", "inf", "empty-id"],
)
def test_parquet_messages_name_the_row(tmp_path, capsys, logs, column, value,
                                       message):  # fmt: skip
    # a Parquet file has rows, not lines: its sixth record is row 6, and the
    # message says that rows count from 1
    pytest.importorskip("pyarrow")
    a, b = _parquet_run(tmp_path, logs["A"][::3], column, value, 5)
    err = error(capsys, ["eval-logs", a, b, *FAST])
    assert f"{b}, row 6 (counting from 1): {message}" in err
    assert "line" not in err


def test_parquet_white_space_names_the_row_in_the_json(tmp_path, capsys, logs):
    pytest.importorskip("pyarrow")
    a, b = _parquet_run(tmp_path, logs["A"][::3], "id", "q003 ", 3)
    assert main(["eval-logs", a, b, *FAST, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    (warning,) = json.loads(out)["warnings"]
    assert warning == {
        "category": "InputWarning",
        "message": f"{b}, row 4 (counting from 1): the --id-field value 'q003 ' "
        "has white space around it; read as 'q003' (1 --id-field value(s) of "
        "the file changed). Remove the spaces from the file to silence this.",
    }
    assert err == f"sklearn-faithful: warning: {warning['message']}\n"


def test_booleans_are_scores(tmp_path, logs):
    records = logs["B"][::3]
    as_bool = [{**r, "score": bool(r["score"])} for r in records]
    a = write_log(tmp_path / "a.jsonl", logs["A"][::3])
    b = write_log(tmp_path / "b.jsonl", records)
    c = write_log(tmp_path / "c.jsonl", as_bool)
    rows = ["id,score", *(f"{r['id']},{str(r['score']).lower()}" for r in as_bool)]
    d = write(tmp_path / "d.csv", rows)
    want = _payload(["eval-logs", a, b, "--names", "A,B", *FAST])["comparison"]
    for other in (c, d):
        got = _payload(["eval-logs", a, other, "--names", "A,B", *FAST])
        assert got["comparison"] == want


def test_bom_and_trailing_space_are_read_with_a_line_on_stderr(tmp_path, capsys, logs):
    a = write_log(tmp_path / "a.csv", logs["A"][::3])
    b = write_log(tmp_path / "b.csv", logs["B"][::3])
    argv = ["--names", "A,B", *FAST, "--format", "json"]
    assert main(["eval-logs", a, b, *argv]) == 0
    clean = json.loads(capsys.readouterr().out)["comparison"]
    text = open(b, encoding="utf-8").read()
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert main(["eval-logs", a, str(bom), *argv]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["comparison"] == clean
    assert f"sklearn-faithful: note: {bom} starts with a UTF-8 byte-order mark" in err
    spaced = write(tmp_path / "spaced.csv", [
        v.replace("q004,", "q004 ,") for v in text.splitlines()])  # fmt: skip
    assert main(["eval-logs", a, spaced, *argv]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["comparison"] == clean
    assert (
        f"sklearn-faithful: warning: {spaced}, line 6: the --id-field value "
        "'q004 ' has white space around it; read as 'q004'"
    ) in err


def test_a_fifo_names_the_argument(tmp_path, capsys, logs):
    a = write_log(tmp_path / "a.jsonl", logs["A"])
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    err = error(capsys, ["eval-logs", a, fifo])
    assert f"RUN file {fifo!r} is a FIFO (named pipe)" in err


def test_prediction_and_gold_fields_score_equality(tmp_path, logs):
    answers = {}
    for name in "AB":
        answers[name] = [
            {"id": r["id"], "answer": f" {r['id']}" if r["score"] else "wrong",
             "target": r["id"]}
            for r in logs[name][::3]
        ]  # fmt: skip
    paths = [write_log(tmp_path / f"{n}.jsonl", answers[n]) for n in "AB"]
    got = _payload(["eval-logs", *paths, "--prediction-field", "answer",
                    "--gold-field", "target", *FAST])  # fmt: skip
    scored = [write_log(tmp_path / f"s{n}.jsonl", logs[n][::3]) for n in "AB"]
    want = _payload(["eval-logs", *scored, "--names", "A,B", *FAST])
    assert got["comparison"] == want["comparison"]
    assert got["signature"]["prediction_field"] == "answer"
    assert "score_field" not in got["signature"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--prediction-field", "answer"], "--prediction-field and --gold-field go "
         "together"),
        (["--prediction-field", "a", "--gold-field", "b", "--score-field", "s"],
         "give one source of the score"),
        (["--names", "A"], "--names A: 1 name(s) for 2 RUN file(s)"),
        (["--names", "A,A"], "two runs are named 'A'; give each run a name of its "
         "own."),
        (["--baseline", "Z"], "--baseline Z is not a run; the runs are ['a', 'b']"),
        (["--human-field", "human"], "--human-field scores one run by a judge; give "
         "one RUN, not 2."),
    ],
)  # fmt: skip
def test_bad_options_are_errors_in_the_command_lines_words(tmp_path, capsys, logs,
                                                           argv, message):  # fmt: skip
    a = write_log(tmp_path / "a.jsonl", logs["A"][::3])
    b = write_log(tmp_path / "b.jsonl", logs["B"][::3])
    # --human-field resamples nothing: --n-resamples would be refused first
    fast = ["--format", "json"] if "--human-field" in argv else FAST
    err = error(capsys, ["eval-logs", a, b, *argv, *fast])
    assert message in err, err


def test_sign_refuses_clusters(tmp_path, capsys, logs):
    a = write_log(tmp_path / "a.jsonl", logs["A"][::3])
    b = write_log(tmp_path / "b.jsonl", logs["B"][::3])
    argv = ["eval-logs", a, b, "--cluster-field", "passage", "--method", "sign"]
    assert main([*argv, *FAST]) == 2
    err = capsys.readouterr().err
    assert (
        "sklearn-faithful eval-logs: error: --method sign takes the items as "
        "independent, but the items come in clusters (--cluster-field); use "
        "--method permutation, which swaps whole clusters, or --method bootstrap."
    ) in err
    assert "Traceback" not in err


def test_files_of_the_same_name_need_names(tmp_path, capsys, logs):
    a = write_log(tmp_path / "run.jsonl", logs["A"][::3])
    (tmp_path / "other").mkdir()
    b = write_log(tmp_path / "other" / "run.jsonl", logs["B"][::3])
    err = error(capsys, ["eval-logs", a, b, *FAST])
    assert "two runs are named 'run'; give each run a name of its own (--names" in err
    assert _payload(["eval-logs", a, b, "--names", "A,B", *FAST])["join"]["names"] == [
        "A",
        "B",
    ]


def test_a_cluster_that_changes_names_the_file(tmp_path, capsys, logs):
    records = [dict(r) for r in logs["B"]]
    records[4]["passage"] = "p99"
    a = write_log(tmp_path / "a.jsonl", logs["A"])
    b = write_log(tmp_path / "b.jsonl", records)
    err = error(capsys, ["eval-logs", a, b, "--cluster-field", "passage",
                         "--on-duplicate", "repeats", *FAST])  # fmt: skip
    assert "id 'q001' is in the clusters" in err
    assert f"(--cluster-field passage, {b})" in err


def test_integer_ids_match_across_kinds_of_file(tmp_path, logs):
    records = [{**r, "id": int(r["id"][1:])} for r in logs["A"][::3]]
    a = write_log(tmp_path / "a.jsonl", records)  # JSON numbers
    b = write_log(tmp_path / "b.csv", records)  # text
    payload = _payload(["eval-logs", a, b, *FAST])
    assert payload["join"]["n_items"] == 60


def test_human_field_gives_the_prediction_powered_mean(tmp_path, capsys):
    records = judged_log()
    path = write_log(tmp_path / "judged.jsonl", records)
    payload = _payload(["eval-logs", path, "--human-field", "human"])
    ppi = payload["prediction_powered_mean"]
    human = np.array([r.get("human", np.nan) for r in records], dtype=float)
    judge = np.array([r["score"] for r in records], dtype=float)
    expected = prediction_powered_mean(judge, human)
    assert ppi == expected.to_dict()
    assert ppi["n_labelled"] == 150
    assert payload["comparison"] is None and payload["plot"] is None
    assert payload["signature"]["human_field"] == "human"
    auto = _payload(["eval-logs", path, "--human-field", "human", "--lam", "auto"])
    with pytest.warns(RuntimeWarning, match="150"):
        expected = prediction_powered_mean(judge, human, lam="auto")
    assert auto["prediction_powered_mean"] == expected.to_dict()
    code, text = run_main(["eval-logs", path, "--human-field", "human", "--lam",
                           "auto"])  # fmt: skip
    assert code == 0
    assert expected.summary() in text
    assert "people's mean" in text and "over the 150 they scored" in text
    # issue 36: say over which items the judge's mean is taken
    rest = float(np.mean(judge[np.isnan(human)]))
    assert f"judge's mean {np.mean(judge):.4f} over all 1000 items" in text
    assert f"and {rest:.4f} over the 850 nobody scored" in text
    # a CSV's empty cells are the unscored items
    rows = ["id,score,human"]
    rows += [f"{r['id']},{r['score']},{r.get('human', '')}" for r in records]
    csv = write(tmp_path / "judged.csv", rows)
    got = _payload(["eval-logs", csv, "--human-field", "human"])
    assert got["prediction_powered_mean"] == ppi
    capsys.readouterr()  # the warnings of --lam auto on 150 scored items
    err = error(
        capsys, ["eval-logs", path, "--human-field", "human", "--plot", "p.png"]
    )
    assert "--plot p.png would have no effect: it applies only to runs compared" in err
    err = error(capsys, ["eval-logs", path, "--human-field", "human",
                         "--cluster-field", "id"])  # fmt: skip
    assert "--cluster-field id would have no effect" in err
    err = error(capsys, ["eval-logs", path, "--human-field", "nobody"])
    assert f"{path}: 0 record(s) hold --human-field nobody" in err


def test_plot_writes_a_png(tmp_path, logs):
    pytest.importorskip("matplotlib")
    paths = _write_runs(tmp_path, logs)
    for kind in ("runs", "pairs"):
        png = tmp_path / f"{kind}.png"
        argv = ["--plot", str(png), "--plot-kind", kind, *FAST]
        payload = _payload(["eval-logs", *paths, "--on-duplicate", "repeats", *argv])
        assert payload["plot"] == str(png)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_one_run_gives_its_interval(tmp_path, logs):
    path = write_log(tmp_path / "a.jsonl", logs["A"][::3])
    payload = _payload(["eval-logs", path])  # nothing resampled: no --n-resamples
    comparison = payload["comparison"]
    assert comparison["pairs"] == [] and len(comparison["runs"]) == 1
    assert comparison["runs"][0]["mean"] == np.mean(
        [r["score"] for r in logs["A"][::3]]
    )


def test_json_is_one_document_of_numbers(tmp_path, logs):
    paths = _write_runs(tmp_path, logs)
    code, out = run_main(["eval-logs", *paths, "--on-duplicate", "repeats", *FAST,
                          "--format", "json"])  # fmt: skip
    assert code == 0
    payload = json.loads(out)
    assert payload["command"] == "eval-logs"
    assert list(payload)[:3] == ["command", "version", "random_state"]
    assert numbers(out)  # plain numbers throughout


def test_human_field_refuses_the_options_of_a_comparison(tmp_path, capsys, logs):
    a = write_log(tmp_path / "a.jsonl", logs["A"][::3])
    argv = ["eval-logs", a, "--human-field", "human", "--baseline", "A"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert (
        "--baseline A would have no effect: it applies only to a comparison of "
        "two runs or more (not with --human-field)" in err
    )


def test_score_map_reads_inspect_ai_letters(tmp_path, capsys, logs):
    letters = {1: "C", 0: "I"}
    lettered = {
        k: [{**r, "score": letters[r["score"]]} for r in logs[k][::3]] for k in "AB"
    }
    paths = _write_runs(tmp_path / "letters", lettered)
    numbers_ = _write_runs(tmp_path / "numbers", {k: logs[k][::3] for k in "AB"})
    err = error(capsys, ["eval-logs", *paths, *FAST])
    assert "'C' is not a score" in err and "--score-map C=1,I=0,P=0.5,N=0" in err
    mapped = _payload(["eval-logs", *paths, "--score-map", "C=1,I=0", *FAST])
    plain = _payload(["eval-logs", *numbers_, *FAST])
    assert mapped["comparison"] == plain["comparison"]
    with pytest.raises(SystemExit):
        main(["eval-logs", *paths, "--score-map", "C:1"])
    assert "'C:1' is not TEXT=NUMBER" in capsys.readouterr().err


def test_options_that_would_do_nothing_are_refused(tmp_path, capsys, logs):
    paths = _write_runs(tmp_path, {k: logs[k][::3] for k in "AB"})
    err = error(capsys, ["eval-logs", *paths, "--lam", "0.3"])
    assert "--lam 0.3 would have no effect: it applies only with --human-field" in err
    err = error(capsys, ["eval-logs", *paths, "--plot-kind", "pairs"])
    assert "--plot-kind pairs would have no effect: it applies only with --plot" in err
    judged = write_log(tmp_path / "j.jsonl", judged_log())
    err = error(capsys, ["eval-logs", judged, "--human-field", "human",
                         "--n-resamples", "50"])  # fmt: skip
    assert "--n-resamples 50 would have no effect: it applies only where" in err
    # one run, its jackknife interval: nothing is resampled, so no seed
    err = error(capsys, ["eval-logs", paths[0], "--random-state", "3"])
    assert "--random-state 3 would have no effect" in err
    # two runs make one pair: no correction changes its p-value
    err = error(capsys, ["eval-logs", *paths, "--correction", "bh"])
    assert "--correction bh would have no effect: it applies only with three" in err


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "is empty; it needs one record per item"),
        ('[{"id": 1, "score": 1}, 3]\n', "run.jsonl, [1]: a int, not a record"),
        ('{"doc_id": 1, "acc": 1}\n', "no field 'id' (the record's fields are"),
        # issue 36: a whole log said "pass --id-field", the wrong way
        (
            '{"version": 2, "results": {}, "reductions": [{"a": 1}], "x": [{"b": 2}]}',
            "holds several arrays of records (reductions: 1, x: 1); say which with "
            "--records-field reductions",
        ),
    ],
)
def test_files_of_another_shape_say_what_they_are(tmp_path, capsys, text, expected):
    path = tmp_path / "run.jsonl"
    path.write_text(text)
    assert expected in error(capsys, ["eval-logs", str(path)])


def test_where_filters_each_run_before_the_join(tmp_path, capsys, logs):
    # --where keeps the records of one passage in every run, on JSONL and CSV
    two = {k: logs[k] for k in "AB"}
    paths = _write_runs(tmp_path, two)
    csv = _write_runs(tmp_path / "csv", two, kind="csv")
    argv = ["--on-duplicate", "repeats", "--where", "passage=p01", *FAST]
    for files in (paths, csv):
        payload = _payload(["eval-logs", *files, *argv])
        assert payload["join"]["n_items"] == 4
        want = np.mean([r["score"] for r in logs["A"] if r["passage"] == "p01"])
        assert payload["comparison"]["runs"][0]["mean"] == pytest.approx(want)
    err = error(capsys, ["eval-logs", *paths, *argv, "--where", "passage=p02"])
    assert "--where passage=p01 and --where passage=p02" in err


def test_ranks_are_the_python_apis_in_text_json_and_a_plot(tmp_path, logs):
    pytest.importorskip("matplotlib")
    paths = _write_runs(tmp_path, logs)
    png = tmp_path / "ranks.png"
    argv = ["eval-logs", *paths, "--on-duplicate", "repeats", "--ranks", *FAST,
            "--random-state", "3", "--confidence-level", "0.9"]  # fmt: skip
    payload = _payload([*argv, "--plot", str(png), "--plot-kind", "ranks"])
    table = join_runs(
        {
            f"run{n}": {k: [r[k] for r in recs] for k in ("id", "score")}
            for n, recs in logs.items()
        },
        on_duplicate="repeats",
    )
    expected = rank_intervals(
        table, confidence_level=0.9, n_resamples=199, random_state=3
    )
    assert payload["ranks"] == json.loads(json.dumps(expected.to_dict()))
    assert payload["signature"]["ranks"] is True
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out = run_main(argv)
    assert code == 0 and expected.summary() in out


@pytest.mark.parametrize(
    "extra, words",
    [
        ([], "--ranks would have no effect"),
        (["--human-field", "human"], "--ranks would have no effect"),
    ],
)
def test_ranks_refuse_one_run(tmp_path, capsys, extra, words):
    path = write_log(tmp_path / "j.jsonl", judged_log(n_items=60, n_human=20))
    assert main(["eval-logs", path, "--ranks", *extra]) == 2
    assert words in capsys.readouterr().err


def test_plot_kind_ranks_needs_ranks(tmp_path, capsys, logs):
    paths = _write_runs(tmp_path, logs)
    argv = ["eval-logs", *paths, "--on-duplicate", "repeats", "--plot",
            str(tmp_path / "r.png"), "--plot-kind", "ranks", *FAST]  # fmt: skip
    assert main(argv) == 2
    assert "--plot-kind ranks draws the rank sets of --ranks" in (
        capsys.readouterr().err
    )
