"""The rows' compiled ranking steps: what each computes, and that a recall never waits for one to compile."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.recall.ranking import SESSION_TOP
from memory.recall.rows import kernels

ROOT = Path(__file__).resolve().parents[2]
# Few distinct values: ties everywhere, at the cut too.
_VALUES = st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.5, 0.75, 1.0, -0.5]), min_size=1, max_size=60)


@settings(max_examples=200, deadline=None)
@given(values=_VALUES, limit=st.integers(1, 70), data=st.data())
def test_the_best_rows_are_the_highest_values_and_of_equal_ones_the_earliest(values: list[float], limit: int,
                                                                              data: st.DataObject) -> None:  # fmt: skip
    rows = sorted(data.draw(st.sets(st.integers(0, len(values) - 1))))
    expected = sorted(rows, key=lambda row: (-values[row], row))[:limit]
    got = kernels.best(np.array(values, dtype=np.float64), np.array(rows, dtype=np.intp), limit)
    assert got.tolist() == expected


@settings(max_examples=100, deadline=None)
@given(sessions=st.lists(st.integers(0, 4), min_size=1, max_size=30), data=st.data())
def test_each_value_is_lifted_by_its_conversations_best_few(sessions: list[int], data: st.DataObject) -> None:
    values = data.draw(st.lists(st.floats(0.01, 3.0), min_size=len(sessions), max_size=len(sessions)))
    strength = {s: sum(sorted((v for v, t in zip(values, sessions, strict=True) if t == s), reverse=True)[:SESSION_TOP])
                for s in set(sessions)}  # fmt: skip
    strongest = max(strength.values())
    got = kernels.with_session_prior(np.array(sessions, dtype=np.int32), np.array(values), 0.6, SESSION_TOP)
    expected = [v * (1 + 0.6 * strength[s] / strongest) for v, s in zip(values, sessions, strict=True)]
    assert np.allclose(got, expected, rtol=1e-12)


def test_building_a_persons_rows_compiles_every_step_a_recall_takes() -> None:
    # In a process of its own, so that no other test has compiled them: after the first build (a worker
    # thread's), each step `rows.ranking.rank_rows` calls has its compiled version. (That a recall then adds
    # none is tests/memory/test_recall_rows.py's.)
    script = """
from memory.recall.rows import kernels
from memory.recall.rows.keeper import _built
names = ("allowed_rows", "keyword_scores", "pool", "relevances", "with_session_prior", "scored")
steps = {name: getattr(kernels, name) for name in names}
assert steps and all(not f.signatures for f in steps.values()), "compiled before any build"
_built("someone", 4, [], None)
missing = [name for name, f in steps.items() if len(f.signatures) != 1]
assert not missing, missing
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
