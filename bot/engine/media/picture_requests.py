"""How the one reply call says "this is a picture request": a marker the model puts in its reply.

The system prompt asks the model to start its reply with `[[picture: <scene>]]` when the person asks for a
picture, and to write the rest as the photo's caption. No extra call: the engine reads the marker off the reply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MARKER = re.compile(r"\[\[\s*(?:picture|photo|image)\s*:\s*(?P<scene>.*?)\s*\]\]", re.IGNORECASE | re.DOTALL)
# Words that make a message in a group an explicit ask for a picture (plain words, English and French).
_ASKS = re.compile(
    r"\b(pictures?|photos?|pics?|selfies?|images?|snapshots?|portraits?|dessins?|dessine|clich[ée]s?)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ParsedReply:
    text: str  # the reply without the marker: the caption when there is a scene
    scene: str | None = None  # what the picture should show, when the model decided it is a picture request


def picture_instructions(*, in_group: bool, forced_scene: str | None = None) -> str:
    """What the system prompt says about pictures."""
    if forced_scene is not None:
        return (
            "They used /picture: they asked for a picture of you showing: "
            f"{forced_scene}\nStart your reply with [[picture: <the scene, in English, one or two sentences: "
            "where you are, what you do, what you wear, the light>]] and then write ONLY the short caption "
            "that goes on the photo, in your voice and their language (one sentence, with a detail you "
            "remember about them when it fits). If the scene asks for something you must not show "
            "(nudity, sexual content, a real person), do not add the marker and kindly say no."
        )
    group = (
        " This is a group: only if this very message explicitly asks you for a picture." if in_group else ""
    )
    return (
        "You can send a picture of yourself. Only when the person asks you for a picture or photo of you "
        f"(in any words, any language){group}, start your reply with [[picture: <the scene, in English, one or "
        "two sentences: where you are, what you do, what you wear, the light>]] and then write only the "
        "short caption that goes on the photo, in your voice and their language (one sentence, woven from "
        "something you remember about them when it fits). Never add the marker otherwise. Never make a "
        "picture of a real person (them, someone they know, a celebrity) or from a photo they send; never "
        "nudity or sexual content: kindly say no instead, without the marker."
    )


def parse_reply(text: str) -> ParsedReply:
    """The reply without any marker, and the scene of the first one."""
    match = _MARKER.search(text)
    if match is None:
        return ParsedReply(text)
    caption = _MARKER.sub("", text).strip()
    return ParsedReply(caption, match.group("scene").strip() or None)


def asks_for_picture(text: str) -> bool:
    """Whether the message itself names a picture (how a group chat must ask for one)."""
    return _ASKS.search(text) is not None
