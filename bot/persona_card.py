"""Character Card V2 (and V3): the persona format SillyTavern and most companion front ends share.

A card is JSON (`spec: chara_card_v2`, fields under `data`) or a PNG whose `chara` tEXt chunk holds that
JSON in base64; a V3 card's `ccv3` chunk is preferred when present. Validated with pydantic here, at the
edge; the engine only sees the `Persona` made from it. The card itself is kept as read, so exporting it
writes back every field, unknown `extensions` included.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.engine.prompt.lore import LoreEntry
from bot.engine.prompt.persona import Persona
from bot.errors import ConfigError
from bot.png_text import is_png, png_text_chunks

CARD_SPECS = ("chara_card_v2", "chara_card_v3")


class InvalidCard(ConfigError):
    """The file is not a usable character card; the message names the problem in one line."""


class _Lenient(BaseModel):
    """Cards in the wild write null for "not set" and carry fields of their own: both are accepted."""

    model_config = ConfigDict(extra="allow")

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, value: Any) -> Any:
        return {k: v for k, v in value.items() if v is not None} if isinstance(value, dict) else value


class _BookEntry(_Lenient):
    keys: list[str] = []
    content: str = ""
    extensions: dict[str, Any] = {}
    enabled: bool = True
    insertion_order: int = 0
    case_sensitive: bool = False
    use_regex: bool = False
    constant: bool = False
    selective: bool = False
    secondary_keys: list[str] = []
    priority: int = 0


class _Book(_Lenient):
    token_budget: int | None = Field(default=None, ge=0)
    entries: list[_BookEntry] = []


class _CardData(_Lenient):
    name: str = Field(min_length=1, max_length=128)
    description: str = ""
    personality: str = ""
    scenario: str = ""
    first_mes: str = ""
    mes_example: str = ""
    creator_notes: str = ""  # for people browsing cards: never in the prompt
    system_prompt: str = ""
    post_history_instructions: str = ""
    alternate_greetings: list[str] = []
    character_book: _Book | None = None
    tags: list[str] = []  # never in the prompt
    creator: str = ""  # never in the prompt
    extensions: dict[str, Any] = {}


class _Card(_Lenient):
    spec: Literal["chara_card_v2", "chara_card_v3"]
    data: _CardData


@dataclass(frozen=True, slots=True)
class Card:
    persona: Persona
    raw: dict[str, Any]  # the card as read (V2 or V3 JSON)
    avatar: bytes | None = None  # the PNG the card came in

    def as_v2(self) -> dict[str, Any]:
        """The card as Character Card V2 JSON: every field kept, unknown extensions included."""
        return {**self.raw, "spec": "chara_card_v2", "spec_version": "2.0", "data": self.raw["data"]}


def looks_like_card(document: object) -> bool:
    return isinstance(document, dict) and "spec" in document


def card_from_bytes(content: bytes, boundaries: tuple[str, ...] = ()) -> Card:
    """The card in a PNG or JSON file's bytes; `InvalidCard` names what is wrong."""
    avatar = None
    if is_png(content):
        chunks = png_text_chunks(content)
        encoded = chunks.get("ccv3") or chunks.get("chara")
        if encoded is None:
            raise InvalidCard("a PNG without a character card (no 'chara' or 'ccv3' text chunk)")
        try:
            text = base64.b64decode("".join(encoded.split()), validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            raise InvalidCard("the PNG's card chunk is not valid base64") from None
        avatar = content
    else:
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InvalidCard("neither a PNG nor UTF-8 JSON text") from None
    try:
        document = json.loads(text)
    except ValueError:
        raise InvalidCard("the card is not valid JSON") from None
    return card_from_document(document, boundaries, avatar)


def card_from_document(document: Any, boundaries: tuple[str, ...] = (), avatar: bytes | None = None) -> Card:
    if not isinstance(document, dict):
        raise InvalidCard("the card is not a JSON object")
    spec = document.get("spec")
    if spec not in CARD_SPECS:
        raise InvalidCard(f"unsupported card spec {spec!r} (expected chara_card_v2 or chara_card_v3)")
    try:
        card = _Card.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])) or "card"
        raise InvalidCard(f"field '{where}': {first['msg']}") from None
    return Card(persona=_persona(card.data, boundaries), raw=document, avatar=avatar)


def _persona(data: _CardData, boundaries: tuple[str, ...]) -> Persona:
    book = data.character_book
    greetings = [g.strip() for g in (data.first_mes, *data.alternate_greetings) if g.strip()]
    return Persona(
        name=data.name.strip(),
        personality=data.personality.strip(),
        boundaries=boundaries,
        description=data.description.strip(),
        scenario=data.scenario.strip(),
        system_prompt=data.system_prompt.strip(),
        post_history_instructions=data.post_history_instructions.strip(),
        example_dialogue=data.mes_example.strip(),
        greetings=tuple(greetings),
        lore=tuple(_lore(entry) for entry in (book.entries if book else []) if entry.enabled),
        lore_token_budget=book.token_budget if book else None,
        appearance=_appearance(data),
    )


def _appearance(data: _CardData) -> str:
    """`data.extensions.appearance` when the card has one (a string), else the description is used for pictures."""
    appearance = data.extensions.get("appearance")
    return appearance.strip() if isinstance(appearance, str) else ""


def _lore(entry: _BookEntry) -> LoreEntry:
    whole_words = entry.extensions.get("match_whole_words")  # SillyTavern's per-entry switch; null = default
    return LoreEntry(
        keys=tuple(k for k in entry.keys if k.strip()),
        content=entry.content.strip(),
        insertion_order=entry.insertion_order,
        constant=entry.constant,
        case_sensitive=entry.case_sensitive,
        whole_words=whole_words if isinstance(whole_words, bool) else True,
        use_regex=entry.use_regex,
        selective=entry.selective,
        secondary_keys=tuple(k for k in entry.secondary_keys if k.strip()),
        priority=entry.priority,
    )


def describe_card(card: Card) -> list[str]:
    """What an import found, as lines for the operator."""
    persona = card.persona
    fields = [name for name in ("description", "personality", "scenario", "system_prompt",
                                "post_history_instructions") if getattr(persona, name)]  # fmt: skip
    if persona.example_dialogue:
        fields.append("mes_example")
    alternates = max(0, len(persona.greetings) - 1)
    greeting = persona.greetings[0] if persona.greetings else ""
    shown = greeting if len(greeting) <= 100 else greeting[:99] + "…"
    return [
        f"name: {persona.name}",
        f"spec: {card.raw.get('spec')}{' (PNG)' if card.avatar else ''}",
        f"fields: {', '.join(fields) or 'none besides the name'}",
        f"lore entries: {len(persona.lore)}"
        + (f" ({sum(e.constant for e in persona.lore)} always on)" if persona.lore else ""),
        f"greeting: {shown!r}{f' (+{alternates} alternate)' if alternates else ''}" if greeting else "greeting: none",
    ]
