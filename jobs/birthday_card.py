"""A birthday card to go with the birthday message, when pictures are on: the companion holding a card made
for the person, with touches that fit what it remembers of them (never a painful memory, never the person)."""

from __future__ import annotations

import logging
from datetime import datetime

from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.pictures import Picture
from bot.engine.model import DM_SCOPE, RecallQuery, UserProfile, without_sensitive
from bot.engine.ports import LongTermMemory
from jobs.after_crisis import in_week_after_crisis
from jobs.unprompted import Occasion, first_name

log = logging.getLogger(__name__)

BIRTHDAY_OCCASION = "birthday_self"  # the person's own birthday: the one message that comes with a card
_MAX_TOUCHES = 3
_RECALL_TEXT = "what they love, hobbies, favourite things, music, places, food, pets"


class BirthdayCards:
    def __init__(self, pictures: PictureMaker, memory: LongTermMemory | None) -> None:
        self._pictures = pictures
        self._memory = memory

    async def card_for(self, occasion: Occasion, profile: UserProfile, now: datetime, zone: str) -> Picture | None:
        """The card, or None (not a birthday, pictures off, or the endpoint failed: the message goes alone).
        None the week after a crisis too: a festive card with a cake is exactly the party talk to leave out."""
        if occasion.template_key != BIRTHDAY_OCCASION or not self._pictures.enabled:
            return None
        if in_week_after_crisis(profile, now):
            return None
        touches = await self._touches(profile, now, zone)
        outcome = await self._pictures.draw(birthday_scene(first_name(profile), touches))
        if outcome.picture is None:
            log.info("no birthday card for %s (%s); the message goes alone", profile.user_key, outcome.refusal)
        return outcome.picture

    async def _touches(self, profile: UserProfile, now: datetime, zone: str) -> list[str]:
        if self._memory is None:
            return []
        query = RecallQuery(profile.user_key, _RECALL_TEXT, now, (DM_SCOPE,), zone, limit=_MAX_TOUCHES, max_words=80)
        try:
            found = await self._memory.recall(query)
        except Exception:
            log.exception("recall failed for a birthday card; a plain card then")
            return []
        return [m.text for m in without_sensitive(found)][:_MAX_TOUCHES]


def birthday_scene(name: str, touches: list[str]) -> str:
    """What the card shows. The person is named on nothing and never drawn: only the companion and the card."""
    scene = (
        "Holding up a handmade birthday card and a small cake with lit candles, smiling warmly at the camera, "
        "festive and cosy"
    )
    if touches:
        scene += "; the card and the setting have touches inspired by what they love: " + "; ".join(touches)
    return scene + (f" (the card is for {name}, no writing on it)" if name else "")
