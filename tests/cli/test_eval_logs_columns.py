"""eval-logs holds each run's ASCII text ids as bytes and hands them over as str."""

import numpy as np

from sklearn_faithful.cli._eval_logs import _Log


def test_log_holds_ascii_ids_as_bytes_and_gives_str():
    ids = np.array(["q1", "q22", "q333"])
    scores = np.array([1.0, 0.0, 1.0])
    log = _Log({"id": ids.copy(), "score": scores}, load=None)
    assert log._columns["id"].dtype.kind == "S"  # a quarter of the memory
    assert log["id"].dtype.kind == "U"
    np.testing.assert_array_equal(log["id"], ids)
    assert log["score"] is scores


def test_log_keeps_other_text_as_str():
    ids = np.array(["é1", "q2"])
    log = _Log({"id": ids}, load=None)
    assert log._columns["id"] is ids
    assert list(log) == ["id"] and len(log) == 1
