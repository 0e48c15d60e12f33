"""A Mini App launch is taken only when Telegram signed it for this bot, recently, for a named user."""

from __future__ import annotations

import json
from datetime import timedelta
from urllib.parse import parse_qsl, urlencode

from adapters.web.launch_data import read_launch_data, sign_launch_data
from tests.conftest import FakeClock

TOKEN = "123456:bot-token"
ANA = 5151


def _launch(clock: FakeClock, *, user_id: int = ANA, token: str = TOKEN, ago: timedelta = timedelta()) -> str:
    fields = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps({"id": user_id, "first_name": "Ana", "language_code": "fr"}, separators=(",", ":")),
        "auth_date": str(int((clock.now() - ago).timestamp())),
    }
    return sign_launch_data(fields, token)


def test_a_fresh_launch_signed_for_this_bot_names_the_account(clock: FakeClock) -> None:
    launch = read_launch_data(_launch(clock), TOKEN, clock)

    assert launch is not None
    assert launch.user_id == str(ANA) and launch.language_code == "fr"


def test_a_forged_hash_opens_nothing(clock: FakeClock) -> None:
    fields = dict(parse_qsl(_launch(clock)))
    forged = urlencode({**fields, "hash": "0" * 64})
    signed_elsewhere = _launch(clock, token="999:another-bot")

    assert read_launch_data(forged, TOKEN, clock) is None
    assert read_launch_data(signed_elsewhere, TOKEN, clock) is None
    assert read_launch_data("", TOKEN, clock) is None


def test_another_accounts_id_swapped_in_breaks_the_signature(clock: FakeClock) -> None:
    fields = dict(parse_qsl(_launch(clock)))
    fields["user"] = fields["user"].replace(str(ANA), "6262")

    assert read_launch_data(urlencode(fields), TOKEN, clock) is None
    other = read_launch_data(_launch(clock, user_id=6262), TOKEN, clock)
    assert other is not None and other.user_id == "6262"  # a genuine launch of another account is theirs only


def test_a_stale_launch_opens_nothing(clock: FakeClock) -> None:
    launch = _launch(clock)
    clock.advance(minutes=6)

    assert read_launch_data(launch, TOKEN, clock) is None
    assert read_launch_data(_launch(clock, ago=timedelta(minutes=4)), TOKEN, clock) is not None


def test_a_launch_without_a_user_opens_nothing(clock: FakeClock) -> None:
    fields = {"auth_date": str(int(clock.now().timestamp())), "query_id": "x"}

    assert read_launch_data(sign_launch_data(fields, TOKEN), TOKEN, clock) is None
