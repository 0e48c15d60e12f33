"""Turning the one reply call's text into what the person gets: the caption and a picture, or a kind text.

The model marks a picture request in its reply (`bot.engine.media.picture_requests`); this reads the mark, applies
the group rule and the daily limit (through `PictureMaker`), and never lets a marker reach the person.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date

from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.picture_requests import asks_for_picture, parse_reply
from bot.engine.media.pictures import Picture
from bot.engine.texts.pictures import say_picture

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AnsweredWithPicture:
    text: str  # what the person reads: the photo's caption, or the kind text when no picture was made
    picture: Picture | None = None
    said: str = ""  # what the conversation window keeps of it (the model sees it next time)


async def answer_with_picture(
    maker: PictureMaker | None,
    *,
    reply_text: str,
    message_text: str,
    user_key: str,
    language: str,
    day: date,
    in_group: bool,
    forced_scene: str | None = None,
    explicit_allowed: bool = False,
) -> AnsweredWithPicture:
    """`reply_text` as the model wrote it; `forced_scene` when the person used /picture."""
    parsed = parse_reply(reply_text)
    scene = parsed.scene or forced_scene
    if scene is None:
        return AnsweredWithPicture(parsed.text, said=parsed.text)
    if in_group and forced_scene is None and not asks_for_picture(message_text):
        # In a group a picture goes out only when asked for there, whatever the model made of the message.
        log.info("no picture in a group chat: the message did not ask for one")
        return AnsweredWithPicture(parsed.text, said=parsed.text)
    if maker is None:
        text = say_picture("picture_off", language)
        return AnsweredWithPicture(text, said=text)
    outcome = await maker.make(user_key, day, scene, explicit_allowed=explicit_allowed)
    if outcome.picture is None:
        text = say_picture(outcome.refusal, language)
        return AnsweredWithPicture(text, said=text)
    caption = parsed.text or say_picture("picture_caption", language)
    return AnsweredWithPicture(caption, outcome.picture, said=f"[[picture: {scene}]] {caption}")
