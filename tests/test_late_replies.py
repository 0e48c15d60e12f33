"""Which overdue messages get a late reply, through which account, and which are only remembered."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, nullcontext
from datetime import timedelta

from bot.engine.conversation.inbox import Overdue
from bot.engine.model import ChatKind, IncomingMessage, Reply, UserRef
from bot.errors import UserUnreachable
from bot.late_replies import LateReplies
from tests.conftest import FakeClock


class ListedInbox:
    def __init__(self, *overdue: Overdue) -> None:
        self.waiting = list(overdue)
        self.asked: list[tuple[str, ...]] = []

    async def receive(self, message: IncomingMessage) -> bool:
        return True

    def held(self, message: IncomingMessage) -> AbstractAsyncContextManager[None]:
        return nullcontext()

    async def done(self, message: IncomingMessage) -> None:
        return None

    async def overdue(self, limit: int, platforms: tuple[str, ...]) -> list[Overdue]:
        self.asked.append(platforms)
        found = [o for o in self.waiting if o.message.user.platform in platforms][:limit]
        self.waiting = [o for o in self.waiting if o not in found]
        return found


class Answers:
    def __init__(self) -> None:
        self.answered: list[str] = []
        self.kept: list[str] = []

    async def answer_late(self, message: IncomingMessage) -> Reply | None:
        self.answered.append(message.text)
        return Reply(f"Sorry for the late reply. echo: {message.text}", "en")

    async def keep_unanswered(self, message: IncomingMessage) -> None:
        self.kept.append(message.text)


class Sent:
    def __init__(self, unreachable: bool = False) -> None:
        self.sent: list[tuple[str, str]] = []
        self._unreachable = unreachable

    async def send_direct(self, user_key: str, text: str) -> None:
        if self._unreachable:
            raise UserUnreachable("blocked")
        self.sent.append((user_key, text))


def _overdue(clock: FakeClock, text: str, *, minutes_ago: float = 1, group: bool = False, attempts: int = 1,
             platform: str = "telegram") -> Overdue:  # fmt: skip
    user = UserRef(platform, "4242", "Léa", person_key="person:lea")  # linked: the reply goes to the account
    kind = ChatKind.GROUP if group else ChatKind.PRIVATE
    at = clock.now() - timedelta(minutes=minutes_ago)
    return Overdue(IncomingMessage(user, f"{platform}:dm:4242", text, text, at, chat_kind=kind), attempts)


async def test_a_recent_private_message_is_answered_late_to_the_account_that_wrote() -> None:
    clock, answers, telegram = FakeClock(), Answers(), Sent()
    inbox = ListedInbox(_overdue(clock, "my cat Miso"))
    late = LateReplies(inbox=inbox, engine=answers, clock=clock, answer_within=timedelta(hours=1), every_s=30)
    assert await late.sweep() == 0  # no front end running here: left for one that can answer
    with late.through("telegram", telegram):
        assert await late.sweep() == 1
    assert telegram.sent == [("telegram:4242", "Sorry for the late reply. echo: my cat Miso")]
    assert (answers.answered, answers.kept) == (["my cat Miso"], [])


async def test_old_group_and_failing_messages_are_only_remembered() -> None:
    clock, answers, telegram = FakeClock(), Answers(), Sent()
    inbox = ListedInbox(
        _overdue(clock, "too old", minutes_ago=61),
        _overdue(clock, "in a group", group=True),
        _overdue(clock, "failed thrice", attempts=4),
        _overdue(clock, "from discord", platform="discord"),
    )
    late = LateReplies(inbox=inbox, engine=answers, clock=clock, answer_within=timedelta(hours=1), every_s=30)
    with late.through("telegram", telegram):
        assert await late.sweep() == 3
    assert telegram.sent == [] and answers.answered == []
    assert answers.kept == ["too old", "in a group", "failed thrice"]
    assert [o.message.text for o in inbox.waiting] == ["from discord"]  # another process runs Discord


async def test_a_person_who_blocked_the_bot_gets_nothing_and_nothing_fails() -> None:
    clock, answers = FakeClock(), Answers()
    inbox = ListedInbox(_overdue(clock, "hello"))
    late = LateReplies(inbox=inbox, engine=answers, clock=clock, answer_within=timedelta(hours=1), every_s=30)
    with late.through("telegram", Sent(unreachable=True)):
        assert await late.sweep() == 1
    assert answers.answered == ["hello"]
