"""Inline-button payloads: compact, round-tripping, and forged ones rejected."""

from __future__ import annotations

import pytest

from adapters.telegram.callbacks import (
    ForgetAll,
    ForgetItem,
    ShowPage,
    fingerprint,
    forget_all_data,
    forget_item_data,
    parse_callback,
    show_page_data,
)


def test_payloads_round_trip_and_fit_telegrams_64_bytes() -> None:
    memory_id = "3f2b8c1e-9a77-4d2c-b1aa-0c5e6f7a8b9c"
    assert parse_callback(show_page_data(10)) == ShowPage(10)
    forget = forget_item_data(10, 3, memory_id)
    assert parse_callback(forget) == ForgetItem(10, 3, fingerprint(memory_id))
    assert parse_callback(forget_all_data(True)) == ForgetAll(True)
    assert parse_callback(forget_all_data(False)) == ForgetAll(False)
    assert all(len(data.encode()) <= 64 for data in (show_page_data(999_999), forget))


def test_a_negative_or_huge_offset_is_clamped_when_building() -> None:
    assert parse_callback(show_page_data(-5)) == ShowPage(0)
    assert parse_callback(show_page_data(10**12)) == ShowPage(999_999)


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "m:p:",
        "m:p:-1",
        "m:p:1234567",
        "m:p:1 ",
        "m:p:1;DROP",
        "m:f:0:0:abcdef12",
        "m:f:0:21:abcdef12",
        "m:f:0:1:ABCDEF12",
        "m:f:0:1:telegram:99",
        "fa:maybe",
        "fa:yes\n",
        "x" * 65,
    ],
)
def test_anything_else_is_rejected(data: str | None) -> None:
    assert parse_callback(data) is None
