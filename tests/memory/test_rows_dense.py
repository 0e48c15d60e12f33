"""The rows' dense search: among the rows a question may see, the highest cosines, best first, ties in row order —
the same rows as a full product over every row would give, however many rows are hidden."""

from __future__ import annotations

import numpy as np
import pytest

from memory.recall.rows.dense import SKIPPED_AFTER, DenseRows, half_precision

DIMENSION = 32


def _rows(count: int, seed: int) -> tuple[DenseRows, np.ndarray]:
    rng = np.random.default_rng(seed)
    vectors = [half_precision(v) for v in rng.standard_normal((count, DIMENSION))]
    dense = DenseRows(DIMENSION)
    for start in range(0, count, 37):  # written a few at a time, as memories are
        dense.add(vectors[start : start + 37])
    return dense, np.array(vectors, dtype=np.float32)


def _expected(vectors: np.ndarray, query: np.ndarray, allowed: np.ndarray, wanted: int) -> list[int]:
    cosines = vectors @ query
    seen = np.flatnonzero(allowed)
    return [int(r) for r in seen[np.lexsort((seen, -cosines[seen]))][:wanted]]


def _counted_scans(dense: DenseRows, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The count asked of each scan `dense` makes from now on."""
    scans: list[int] = []
    search = dense._search

    def counted(asked: np.ndarray, count: int, skipping: object) -> tuple[np.ndarray, np.ndarray]:
        scans.append(count)
        return search(asked, count, skipping)

    monkeypatch.setattr(dense, "_search", counted)
    return scans


@pytest.mark.parametrize("hidden", [0, 0.02, 0.5, 0.97])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_best_rows_it_may_see_come_back_as_a_full_product_ranks_them(hidden: float, seed: int) -> None:
    dense, vectors = _rows(1500, seed)
    rng = np.random.default_rng(seed + 100)
    allowed = rng.random(1500) >= hidden
    query = half_precision(rng.standard_normal(DIMENSION)).astype(np.float32)
    rows, cosines = dense.best(query, allowed, 150)
    assert rows.tolist() == _expected(vectors, query, allowed, 150)
    assert np.allclose(cosines, vectors[rows] @ query, atol=1e-5)


def test_both_ways_of_leaving_rows_out_are_taken_and_agree() -> None:
    dense, vectors = _rows(2000, 7)
    query = vectors[5]
    few = np.ones(2000, dtype=np.bool_)
    few[: SKIPPED_AFTER // 2] = False  # dropped from a longer list
    many = np.ones(2000, dtype=np.bool_)
    many[: SKIPPED_AFTER * 2] = False  # skipped by faiss itself
    for allowed in (few, many):
        assert dense.best(query, allowed, 60)[0].tolist() == _expected(vectors, query, allowed, 60)


def test_equal_vectors_come_back_in_the_order_they_were_written() -> None:
    same = half_precision(np.ones(DIMENSION))
    other = half_precision(np.arange(DIMENSION, dtype=np.float32))
    dense = DenseRows(DIMENSION)
    dense.add([other, same, same, other, same])
    rows, cosines = dense.best(same.astype(np.float32), np.ones(5, dtype=np.bool_), 4)
    assert rows.tolist() == [1, 2, 4, 0]
    assert cosines[0] == pytest.approx(1.0, abs=1e-3)


def test_no_rows_to_see_or_none_wanted_gives_none() -> None:
    dense, vectors = _rows(10, 4)
    assert dense.best(vectors[0], np.zeros(10, dtype=np.bool_), 5)[0].tolist() == []
    assert dense.best(vectors[0], np.ones(10, dtype=np.bool_), 0)[0].tolist() == []
    assert DenseRows(DIMENSION).best(vectors[0], np.zeros(0, dtype=np.bool_), 5)[0].tolist() == []
    assert len(dense.best(vectors[0], np.ones(10, dtype=np.bool_), 50)[0]) == 10  # fewer than wanted: all of them


def test_a_row_holds_its_vector_at_unit_length_in_half_precision() -> None:
    vector = np.linspace(-3, 5, DIMENSION)
    held = half_precision(vector)
    assert held.dtype == np.float16
    assert float(np.linalg.norm(held.astype(np.float64))) == pytest.approx(1.0, abs=1e-3)
    assert not half_precision(np.zeros(DIMENSION)).any()  # an empty text's zero vector stays zero


@pytest.mark.parametrize("hidden", [0, 0.02, 0.5])
def test_a_question_whose_cut_ties_with_no_row_left_out_scans_the_rows_once(
    hidden: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    dense, vectors = _rows(1500, 4)
    rng = np.random.default_rng(9)
    allowed = rng.random(1500) >= hidden
    query = half_precision(rng.standard_normal(DIMENSION)).astype(np.float32)
    scans = _counted_scans(dense, monkeypatch)
    rows, _ = dense.best(query, allowed, 150)
    assert rows.tolist() == _expected(vectors, query, allowed, 150)
    assert len(scans) == 1


def test_a_few_equal_rows_at_the_cut_are_settled_in_one_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same words said a few times give equal cosines: a run of them across the cut is found within the spare
    rows asked for, ties in row order, without the whole search being made again."""
    rng = np.random.default_rng(12)
    query = half_precision(rng.standard_normal(DIMENSION))
    close = [half_precision(query + 0.05 * rng.standard_normal(DIMENSION)) for _ in range(150)]
    said_again = half_precision(query + 0.15 * rng.standard_normal(DIMENSION))
    far = [half_precision(-query + 0.1 * rng.standard_normal(DIMENSION)) for _ in range(300)]
    vectors = [*close[:100], said_again, *far[:150], said_again, *close[100:], said_again, *far[150:], said_again]
    dense = DenseRows(DIMENSION)
    dense.add(vectors)
    table = np.array(vectors, dtype=np.float32)
    cosines = table @ query.astype(np.float32)
    assert sum(cosines > cosines[100]) == 150 and sum(cosines == cosines[100]) == 4  # the run sits at the cut
    scans = _counted_scans(dense, monkeypatch)
    allowed = np.ones(len(vectors), dtype=np.bool_)
    rows, _ = dense.best(query.astype(np.float32), allowed, 152)
    assert rows.tolist() == _expected(table, query.astype(np.float32), allowed, 152)
    assert rows.tolist()[-2:] == [100, 251]  # the first two of the four equal rows, in the order written
    assert len(scans) == 1
