"""One reply put together from what was read: the context the system prompt is written from, the turns the
model reads, the picture a reply may carry, and what the person is shown (the disclosure, the crisis lines, a
time zone offer after it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

from bot.engine.conversation.message_text import CleanText
from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.picture_reply import answer_with_picture
from bot.engine.media.picture_requests import picture_instructions
from bot.engine.media.pictures import Picture
from bot.engine.model import ChatTurn, IncomingMessage, RecalledMemory, Reply, UserProfile
from bot.engine.prompt.lore import LoreEntry
from bot.engine.prompt.person import PersonBlock
from bot.engine.prompt.persona import Persona
from bot.engine.prompt.system import PromptContext
from bot.engine.safety.crisis import CrisisLevel
from bot.engine.safety.disclosure import DisclosurePolicy
from bot.engine.safety.rules import SafetyCheck
from bot.engine.texts.say import say
from bot.engine.when.upcoming import Occasion
from bot.engine.when.zone_offer import ZoneOffer, with_zone_offer


@dataclass(frozen=True, slots=True)
class ReplyPlan:
    """How one message is to be answered, decided before the model is called."""

    language: str
    tone: str  # guidance from how they have been feeling ("" in a group)
    person: PersonBlock  # what a friend knows of them, and the thread of the last conversation
    memories: list[RecalledMemory]  # recalled, less what the window and the person block say already
    crisis_hinted: bool  # the model read a crisis in an earlier message: this reply answers as to one
    safety: SafetyCheck


def prompt_context(
    persona: Persona,
    message: IncomingMessage,
    profile: UserProfile,
    safety: SafetyCheck,
    *,
    local_now: datetime,
    zone: str,
    language: str,
    in_group: bool,
    memories: Sequence[RecalledMemory],
    person: str,
    occasions: Sequence[Occasion],
    lore: Sequence[LoreEntry],
    tone: str,
    context_tokens: int,
    pictures: bool,
    picture_of: str | None,
) -> PromptContext:
    """What the system prompt is written from. `pictures`: the companion can send one (never to someone in
    crisis); `picture_of`: the scene the person asked for with /picture."""
    return PromptContext(
        persona=persona,
        user_name=profile.preferred_name or message.user.display_name,
        local_now=local_now,
        timezone=zone,
        language=language,
        in_group=in_group,
        memories=memories,
        person=person,
        occasions=occasions,
        user_key=message.user.key,
        lore=lore,
        first_meeting=profile.first_seen_at is None and not safety.crisis,  # a crisis is answered, not greeted
        context_tokens=context_tokens,
        preferred_name=profile.preferred_name,
        pronouns=profile.pronouns,
        address_form=profile.address_form,
        tone=tone,
        pictures=picture_instructions(in_group=in_group, forced_scene=picture_of)
        if pictures and not safety.crisis
        else "",
        safety=safety.guidance,
        crisis=safety.crisis_guidance,
        in_character=safety.level is not CrisisLevel.IMMINENT,
    )


def model_turns(
    history: Sequence[ChatTurn], user_turn: ChatTurn, cleaned: CleanText, *, in_group: bool, max_chars: int
) -> tuple[ChatTurn, ...]:
    """The window's turns and this message as the model reads them: capped, named in a group, and a message
    cut short says so."""
    turns = tuple(_for_model(t, in_group, max_chars) for t in [*history, user_turn])
    if cleaned.cut:
        turns = (*turns[:-1], replace(turns[-1], text=turns[-1].text + _cut_note(cleaned, max_chars)))
    return turns


@dataclass(frozen=True, slots=True)
class Written:
    """The model's reply as the person gets it before the finishing touches, and what the conversation keeps of
    it (`said`: the caption of a picture, without the marker that asked for it)."""

    text: str
    said: str
    picture: Picture | None


async def with_picture(
    pictures: PictureMaker | None,
    text: str,
    *,
    fallback: bool,
    message: IncomingMessage,
    language: str,
    day: date,
    in_group: bool,
    safety: SafetyCheck,
    picture_of: str | None,
) -> Written:
    """The model's text with the picture it asked for (or a kind text instead); the apology when it gave none."""
    if fallback:
        apology = say("fallback", language)
        return Written(apology, apology, None)
    answered = await answer_with_picture(
        pictures, reply_text=text, message_text=message.text, user_key=message.user.key,
        language=language, day=day, in_group=in_group, forced_scene=picture_of,
        explicit_allowed=safety.explicit_allowed,  # the adult-content setting and the minors rule
    )  # fmt: skip
    return Written(answered.text, answered.said, answered.picture)


@dataclass(frozen=True, slots=True)
class Shown:
    reply: Reply
    profile: UserProfile  # marked as offered a time zone
    offered: tuple[str, ...]  # the profile's fields the offer changed
    disclosed: bool


def shown_reply(
    written: Written,
    profile: UserProfile,
    safety: SafetyCheck,
    *,
    fallback: bool,
    language: str,
    offer: ZoneOffer | None,
    disclosure: DisclosurePolicy,
    now: datetime,
) -> Shown:
    """What the person is shown: the AI disclosure when due, the crisis lines, and a time zone offer."""
    disclose = disclosure.due(profile.last_disclosed_at, profile.last_seen_at, now)
    picture = None if safety.crisis else written.picture  # someone in crisis gets care and the lines, not a picture
    # "I live in Lyon": the zone offered once, after the reply (not to someone in crisis, nor in an apology).
    text, profile, offered = with_zone_offer(
        written.text, profile, None if fallback or safety.crisis else offer, language
    )
    shown = safety.finish(disclosure.shown(text, language, disclose), language)
    reply = Reply(text=shown, language=language, disclosed=disclose, fallback=fallback, crisis=bool(safety.lines),
                  picture=picture)  # fmt: skip
    return Shown(reply, profile, offered, disclose)


def _for_model(turn: ChatTurn, in_group: bool, max_chars: int) -> ChatTurn:
    if len(turn.text) > max_chars:  # stored before messages were capped
        turn = replace(turn, text=turn.text[:max_chars] + " […]")
    if in_group and turn.role == "user" and turn.author_name:
        return replace(turn, text=f"{turn.author_name}: {turn.text}")
    return turn


def _cut_note(cleaned: CleanText, max_chars: int) -> str:
    return (
        f"\n\n(Note: this message was {cleaned.original_chars} characters long; only its first {max_chars} "
        "are shown. Say so if the rest matters.)"
    )
