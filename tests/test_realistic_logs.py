"""Realistic files: evaluation logs in the formats real tools write.

Each file is generated here, small, in the layout its tool writes
(lm-evaluation-harness's ``--log_samples`` JSON Lines and results JSON,
inspect_ai's samples, ``inspect log dump`` JSON and ``.eval`` zip archives,
HELM-style per-instance CSV), and read as a user would: the command line's
``main()`` and the Python API (pandas, then ``join_runs``). Each gives the
right number, computed independently from the records, or a clear error
naming the option that reads it (issue 36).
"""

import contextlib
import io
import json
import zipfile

import numpy as np
import pytest

from sklearn_faithful.cli import main
from sklearn_faithful.eval_logs import compare_runs, join_runs

FAST = ["--n-resamples", "199", "--format", "json"]
# one run: nothing is resampled, so --n-resamples is refused
ONE = ["--format", "json"]
FILTERS = ("strict-match", "flexible-extract")

try:
    import pyarrow  # noqa: F401

    READERS = ["pyarrow", "python"]
except ImportError:  # pragma: no cover - without the logs extra
    READERS = ["python"]


@pytest.fixture(autouse=True, params=READERS)
def reader(request, monkeypatch):
    """Every test reads its logs with pyarrow's reader and with the standard
    library's: both must give the same results."""
    from sklearn_faithful.cli._arrow import READER_VARIABLE

    monkeypatch.setenv(READER_VARIABLE, request.param)
    return request.param


def _cli(argv):
    """``(status, payload or stderr)`` of ``eval-logs argv``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["eval-logs", *map(str, argv)])
    return code, json.loads(out.getvalue()) if code == 0 else err.getvalue()


def _means(payload):
    return [run["mean"] for run in payload["comparison"]["runs"]]


# lm-evaluation-harness ---------------------------------------------------


def _lm_eval_records(n_docs, rates, seed):
    """``--log_samples`` records of a generative task: one per doc_id and
    filter, with the fields lm-eval writes (``evaluation_tracker.py``)."""
    rng = np.random.default_rng(seed)
    out = []
    for doc_id in range(n_docs):
        for name in FILTERS:
            hit = float(rng.random() < rates[name])
            out.append(
                {
                    "doc_id": doc_id,
                    "doc": {"question": f"Q{doc_id}?", "answer": "#### 4"},
                    "target": "4",
                    "arguments": {"gen_args_0": {"arg_0": "Q: ...", "arg_1": {}}},
                    "resps": [["The answer is 4."]],
                    "filtered_resps": ["4" if hit else "[invalid]"],
                    "filter": name,
                    "metrics": ["exact_match"],
                    "doc_hash": f"d{doc_id:04d}",
                    "prompt_hash": f"p{doc_id:04d}",
                    "target_hash": "t4",
                    "exact_match": hit,
                }
            )
    return out


@pytest.fixture
def lm_eval(tmp_path):
    runs = {
        "A": _lm_eval_records(60, {"strict-match": 0.45, "flexible-extract": 0.55}, 0),
        "B": _lm_eval_records(60, {"strict-match": 0.6, "flexible-extract": 0.5}, 1),
    }
    paths = []
    for name, records in runs.items():
        path = tmp_path / f"samples_gsm8k_{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        paths.append(path)
    return runs, paths


def _filter_mean(records, name):
    return np.mean([r["exact_match"] for r in records if r["filter"] == name])


def test_lm_eval_samples_one_record_per_filter(lm_eval):
    runs, paths = lm_eval
    fields = ["--id-field", "doc_id", "--score-field", "exact_match"]
    # the duplicate-id error names the filters and the --where that selects one
    code, err = _cli([*paths, *fields, *FAST])
    assert code == 2
    assert "differ in 'filter': 'strict-match', 'flexible-extract'" in err
    assert "--where filter=strict-match" in err
    # following the advice to take them for repeats averaged the two filters,
    # with exit 0 (issue 36); now it refuses, with the same advice
    code, err = _cli([*paths, *fields, "--on-duplicate", "repeats", *FAST])
    assert code == 2
    assert "--on-duplicate repeats would average records that differ in 'filter'" in err
    assert "--where filter=strict-match" in err
    for name in FILTERS:
        code, payload = _cli([*paths, *fields, "--where", f"filter={name}", *FAST])
        assert code == 0
        want = [_filter_mean(runs[run], name) for run in "AB"]
        np.testing.assert_allclose(_means(payload), want, rtol=1e-12)
        assert payload["join"]["n_items"] == 60
        assert payload["signature"]["where"] == f"filter={name}"
    # the Python API, read as pandas reads the files, gives the same table
    pd = pytest.importorskip("pandas")
    logs = {
        run: pd.read_json(path, lines=True)
        for run, path in zip("AB", paths, strict=True)
    }
    with pytest.raises(ValueError, match="would average records that differ in"):
        join_runs(
            logs, id_field="doc_id", score_field="exact_match", on_duplicate="repeats"
        )
    table = join_runs(
        logs,
        id_field="doc_id",
        score_field="exact_match",
        where={"filter": "strict-match"},
    )
    want = [_filter_mean(runs[run], "strict-match") for run in "AB"]
    np.testing.assert_allclose(table.scores.mean(axis=0), want, rtol=1e-12)


def _results_file(path, tasks):
    """An lm-eval results JSON holding its samples, per task."""
    document = {
        "results": {t: {"alias": t, "exact_match,strict-match": 0.5} for t in tasks},
        "configs": {t: {"task": t, "num_fewshot": 5} for t in tasks},
        "versions": dict.fromkeys(tasks, 3.0),
        "n-shot": dict.fromkeys(tasks, 5),
        "samples": tasks,
        "config": {"model": "hf", "batch_size": 1},
        "git_hash": "abc1234",
    }
    path.write_text(json.dumps(document, indent=2))
    return path


def test_lm_eval_results_file_with_samples(tmp_path):
    a = _lm_eval_records(30, {"strict-match": 0.4, "flexible-extract": 0.6}, 2)
    b = _lm_eval_records(30, {"strict-match": 0.7, "flexible-extract": 0.5}, 3)
    other = _lm_eval_records(30, {"strict-match": 0.5, "flexible-extract": 0.5}, 4)
    one = [
        _results_file(tmp_path / f"results_{r}.json", {"gsm8k": recs})
        for r, recs in (("A", a), ("B", b))
    ]
    argv = [
        "--id-field",
        "doc_id",
        "--score-field",
        "exact_match",
        "--where",
        "filter=flexible-extract",
        *FAST,
    ]
    code, payload = _cli([*one, *argv])
    assert code == 0
    want = [_filter_mean(r, "flexible-extract") for r in (a, b)]
    np.testing.assert_allclose(_means(payload), want, rtol=1e-12)
    # two tasks: refused, naming the option that reads each
    two = [
        _results_file(tmp_path / f"both_{r}.json", {"gsm8k": recs, "arc": other})
        for r, recs in (("A", a), ("B", b))
    ]
    code, err = _cli([*two, *argv])
    assert code == 2
    assert "holds several arrays of records (samples.gsm8k: 60, samples.arc: 60)" in err
    assert "--records-field samples.gsm8k" in err
    code, payload = _cli([*two, *argv, "--records-field", "samples.gsm8k"])
    assert code == 0
    np.testing.assert_allclose(_means(payload), want, rtol=1e-12)
    # a results file without samples says where lm-eval writes them
    bare = tmp_path / "results_bare.json"
    bare.write_text(json.dumps({"results": {"gsm8k": {"exact_match": 0.5}}}))
    one_run = [a for a in argv if a not in FAST] + ONE
    code, err = _cli([bare, *one_run])
    assert code == 2 and "no array of records" in err and "--log_samples" in err
    # --records-field on a file read record by record is refused
    jsonl = tmp_path / "a.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in a))
    code, err = _cli([jsonl, *one_run, "--records-field", "samples"])
    assert code == 2 and "drop --records-field" in err


# inspect_ai --------------------------------------------------------------


def _inspect_samples(n_items, epochs, rate, seed):
    """inspect_ai's samples: id, epoch, scores of a scorer (``C``/``I``)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n_items):
        for epoch in range(1, epochs + 1):
            right = rng.random() < rate
            out.append(
                {
                    "id": i + 1,
                    "epoch": epoch,
                    "input": f"What is {i} + 1?",
                    "target": str(i + 1),
                    "messages": [{"role": "user", "content": f"What is {i} + 1?"}],
                    "output": {"model": "m", "choices": [{"message": {}}]},
                    "scores": {
                        "match": {
                            "value": "C" if right else "I",
                            "answer": str(i + 1) if right else "0",
                        }
                    },
                    "metadata": {},
                    "uuid": f"s{seed}-{i}-{epoch}",
                    "total_time": float(rng.random()),
                }
            )
    return out


def _inspect_mean(samples):
    """The mean over items of the mean over an item's epochs."""
    per_item = {}
    for s in samples:
        per_item.setdefault(s["id"], []).append(s["scores"]["match"]["value"] == "C")
    return np.mean([np.mean(v) for v in per_item.values()])


def _log_dump(samples):
    """``inspect log dump``: the whole EvalLog as one JSON object."""
    return {
        "version": 2,
        "status": "success",
        "eval": {"task": "addition", "model": "openai/gpt-4o", "dataset": {}},
        "plan": {"steps": [{"solver": "generate"}]},
        "results": {"total_samples": len(samples), "scores": []},
        "stats": {"started_at": "2025-01-01T00:00:00"},
        "samples": samples,
        "reductions": [{"scorer": "match", "samples": [{"value": 1.0}]}],
    }


def _eval_archive(path, samples):
    """An inspect_ai ``.eval`` log: a zip of JSON files, one per sample."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("_journal/start.json", json.dumps({"version": 2}))
        archive.writestr("header.json", json.dumps({"version": 2, "status": "success"}))
        for s in samples:
            archive.writestr(
                f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s)
            )
        archive.writestr(
            "summaries.json", json.dumps([{"id": s["id"]} for s in samples])
        )
    return path


@pytest.fixture
def inspect_runs():
    return {
        "A": _inspect_samples(40, 3, 0.55, 5),
        "B": _inspect_samples(40, 3, 0.7, 6),
    }


@pytest.mark.parametrize("kind", ["jsonl", "dump", "dump-compact", "eval"])
def test_inspect_logs_read_directly(tmp_path, inspect_runs, kind):
    paths = []
    for name, samples in inspect_runs.items():
        if kind == "jsonl":
            path = tmp_path / f"{name}.jsonl"
            path.write_text("".join(json.dumps(s) + "\n" for s in samples))
        elif kind.startswith("dump"):
            path = tmp_path / f"{name}.json"
            indent = None if kind == "dump-compact" else 2
            path.write_text(json.dumps(_log_dump(samples), indent=indent))
        else:
            path = _eval_archive(tmp_path / f"{name}.eval", samples)
        paths.append(path)
    scores = ["--score-field", "scores.match.value", "--score-map", "C=1,I=0"]
    # three epochs an item: repeats once the epoch field is named
    code, err = _cli([*paths, *scores, "--on-duplicate", "repeats", *FAST])
    assert code == 2
    assert "differ in 'epoch': 1, 2, 3" in err and "--sample-field epoch" in err
    argv = [*paths, *scores, "--on-duplicate", "repeats", "--sample-field", "epoch"]
    code, payload = _cli([*argv, *FAST])
    assert code == 0, payload
    want = [_inspect_mean(inspect_runs[r]) for r in "AB"]
    np.testing.assert_allclose(_means(payload), want, rtol=1e-12)
    assert payload["join"]["n_items"] == 40
    # one epoch of each: the same as the records of epoch 1
    code, payload = _cli([*paths, *scores, "--where", "epoch=1", *FAST])
    first = [
        _inspect_mean([s for s in inspect_runs[r] if s["epoch"] == 1]) for r in "AB"
    ]
    assert code == 0
    np.testing.assert_allclose(_means(payload), first, rtol=1e-12)


def test_inspect_logs_in_python(tmp_path, inspect_runs):
    # the Python API: the samples flattened by pandas, the archive by zipfile
    pd = pytest.importorskip("pandas")
    path = _eval_archive(tmp_path / "A.eval", inspect_runs["A"])
    with zipfile.ZipFile(path) as archive:
        samples = [
            json.loads(archive.read(n))
            for n in archive.namelist()
            if n.startswith("samples/")
        ]
    logs = {
        "A": pd.json_normalize(samples),
        "B": pd.json_normalize(_log_dump(inspect_runs["B"])["samples"]),
    }
    for log in logs.values():
        log["score"] = log["scores.match.value"].map({"C": 1, "I": 0})
    with pytest.raises(ValueError, match="differ in 'epoch'.*sample_field='epoch'"):
        join_runs(logs, on_duplicate="repeats")
    table = join_runs(logs, on_duplicate="repeats", sample_field="epoch")
    want = [_inspect_mean(inspect_runs[r]) for r in "AB"]
    np.testing.assert_allclose(table.scores.mean(axis=0), want, rtol=1e-12)
    result = compare_runs(table, n_resamples=199, random_state=0)
    np.testing.assert_allclose([r["mean"] for r in result.runs], want, rtol=1e-12)


def test_bad_archives_say_what_they_hold(tmp_path):
    empty = tmp_path / "empty.eval"
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr("header.json", "{}")
    code, err = _cli([empty, *ONE])
    assert code == 2 and "no samples/*.json member" in err
    broken = tmp_path / "broken.eval"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    code, err = _cli([broken, *ONE])
    assert code == 2 and "not a readable zip archive" in err


# HELM-style per-instance CSV ---------------------------------------------


def _helm_csv(path, rate, seed):
    """Per-instance stats flattened to CSV: one row per instance and
    perturbation, as HELM's per_instance_stats are."""
    rng = np.random.default_rng(seed)
    rows = ["instance_id,train_trial_index,perturbation,split,exact_match"]
    scores = {}
    for i in range(50):
        for perturbation in ("none", "typos"):
            hit = int(rng.random() < rate - (0.1 if perturbation == "typos" else 0))
            scores.setdefault(perturbation, []).append(hit)
            rows.append(f"id{1000 + i},0,{perturbation},test,{hit}")
    path.write_text("\n".join(rows) + "\n")
    return {k: np.mean(v) for k, v in scores.items()}


def test_helm_per_instance_csv(tmp_path):
    a = _helm_csv(tmp_path / "A.csv", 0.6, 7)
    b = _helm_csv(tmp_path / "B.csv", 0.7, 8)
    paths = [tmp_path / "A.csv", tmp_path / "B.csv"]
    fields = ["--id-field", "instance_id", "--score-field", "exact_match"]
    code, err = _cli([*paths, *fields, "--on-duplicate", "repeats", *FAST])
    assert code == 2 and "differ in 'perturbation': 'none', 'typos'" in err
    assert "--where perturbation=none" in err
    code, payload = _cli([*paths, *fields, "--where", "perturbation=none", *FAST])
    assert code == 0
    np.testing.assert_allclose(_means(payload), [a["none"], b["none"]], rtol=1e-12)
    pd = pytest.importorskip("pandas")
    logs = {
        r: pd.read_csv(p, dtype={"instance_id": str})
        for r, p in zip("AB", paths, strict=True)
    }
    table = join_runs(
        logs,
        id_field="instance_id",
        score_field="exact_match",
        where={"perturbation": "typos"},
    )
    np.testing.assert_allclose(table.scores.mean(axis=0), [a["typos"], b["typos"]])


# one rule for ids and scores ----------------------------------------------


def test_cli_and_api_agree_on_ids_and_text_scores(tmp_path):
    # issue 36: JSON ids 1 and "1", and scores "0.5": the command line joined
    # and converted where join_runs refused. One rule: as written.
    a = [{"id": i, "score": s} for i, s in ((1, 1), (2, 0), (3, 1), (10, 0))]
    b = [
        {"id": str(i), "score": str(s)}
        for i, s in ((10, 0.5), (3, 1), (2, 0.25), (1, 0))
    ]
    paths = []
    for name, records in (("A", a), ("B", b)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        paths.append(path)
    code, payload = _cli([*paths, *FAST])
    assert code == 0
    table = join_runs(
        {
            "A": {k: [r[k] for r in a] for k in ("id", "score")},
            "B": {k: [r[k] for r in b] for k in ("id", "score")},
        }
    )
    assert table.ids.tolist() == [1, 2, 3, 10]
    np.testing.assert_array_equal(table.scores, [[1, 0], [0, 0.25], [1, 1], [0, 0.5]])
    np.testing.assert_allclose(_means(payload), table.scores.mean(axis=0), rtol=1e-12)
    # "07" is not 7, in both
    paths[1].write_text('{"id": "07", "score": 1}\n' + paths[1].read_text())
    code, err = _cli([*paths, *FAST])
    assert code == 2 and "lacks 1 (e.g. '07')" in err
    with pytest.raises(ValueError, match=r"'A' lacks 1 \(e.g. '07'\)"):
        join_runs(
            {"A": {"id": [7], "score": [1]}, "B": {"id": ["07", "7"], "score": [1, 1]}}
        )
