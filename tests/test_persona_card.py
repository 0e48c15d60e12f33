"""Character cards (V2 JSON, V2 PNG, V3 PNG) as SOUVENIR_PERSONA_FILE, and damaged cards refused in one line."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.persona_file import load_persona, read_persona
from bot.png_text import MAX_TEXT_BYTES, png_chunk, png_text_chunks, png_with_text, tiny_png
from tests.data.make_cards import card_png

DATA = Path(__file__).parent / "data"
CARD = json.loads((DATA / "maelle_card_v2.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("file", ["maelle_card_v2.json", "maelle_card_v2.png", "maelle_card_v3.png"])
def test_a_card_file_loads_as_the_persona(file: str) -> None:
    persona = load_persona(DATA / file)

    assert persona.name == "Maëlle"
    assert "lighthouse at Pointe du Raz" in persona.description
    assert persona.scenario and persona.system_prompt and persona.post_history_instructions
    assert "<START>" in persona.example_dialogue
    assert persona.greetings[0].startswith("*wipes the salt") and len(persona.greetings) == 2
    # Disabled lore is dropped at load; the other four entries stay.
    assert len(persona.lore) == 4 and all("DISABLED" not in e.content for e in persona.lore)
    # A card keeps the packaged safety boundaries.
    assert any("never claim to be human" in b for b in persona.boundaries)


def test_a_png_with_both_chunks_is_read_from_its_v3_chunk(tmp_path: Path) -> None:
    v2 = card_png({**CARD, "data": {**CARD["data"], "name": "Old V2 name"}})
    v3 = {**CARD, "spec": "chara_card_v3", "spec_version": "3.0"}
    path = tmp_path / "card.png"
    path.write_bytes(png_with_text(v2, {"ccv3": base64.b64encode(json.dumps(v3).encode()).decode()}))

    assert load_persona(path).name == "Maëlle"


def test_a_png_card_no_longer_ends_in_a_decoding_traceback() -> None:
    loaded = read_persona(DATA / "maelle_card_v2.png")
    assert loaded.card is not None and loaded.card.avatar is not None


def _truncated() -> bytes:
    return (DATA / "maelle_card_v2.png").read_bytes()[:200]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (_truncated(), "truncated PNG"),
        (tiny_png(), "no 'chara' or 'ccv3' text chunk"),
        (png_with_text(tiny_png(), {"chara": "not base64 at all!!"}), "not valid base64"),
        (card_png({**CARD, "spec": "chara_card_v9"}), "unsupported card spec 'chara_card_v9'"),
        (json.dumps({**CARD, "spec": "character_card"}).encode(), "unsupported card spec"),
        (json.dumps({"spec": "chara_card_v2", "data": {"description": "no name"}}).encode(), "data.name"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "truncated PNG"),
        (b"\xff\xfe\x00garbage", "neither a PNG card nor UTF-8 text"),
    ],
)
def test_a_damaged_card_is_refused_with_one_line_naming_the_problem(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    path = tmp_path / "card.png"
    path.write_bytes(content)
    with pytest.raises(ConfigError) as error:
        load_persona(path)
    message = str(error.value)
    assert message.startswith("SOUVENIR_PERSONA_FILE: ") and problem in message and "\n" not in message


def test_a_card_chunk_whose_checksum_fails_is_refused(tmp_path: Path) -> None:
    content = bytearray((DATA / "maelle_card_v2.png").read_bytes())
    at = content.index(b"tEXtchara") + 20
    content[at] ^= 0x01  # one flipped bit in the card text
    path = tmp_path / "card.png"
    path.write_bytes(bytes(content))
    with pytest.raises(ConfigError, match="fails its checksum"):
        load_persona(path)


@pytest.mark.parametrize("kind", [b"zTXt", b"iTXt"])
def test_a_text_chunk_that_inflates_beyond_the_cap_is_refused_without_inflating_it(tmp_path: Path, kind: bytes) -> None:
    bomb = zlib.compress(b"A" * (MAX_TEXT_BYTES + 1), 9)  # ~8 kB that would inflate to over 8 MB
    body = b"chara\0" + (b"\0" + bomb if kind == b"zTXt" else b"\1\0\0\0" + bomb)
    png = tiny_png()
    path = tmp_path / "card.png"
    path.write_bytes(png[:-12] + png_chunk(kind, body) + png[-12:])
    with pytest.raises(ConfigError, match="inflates to more than 8 MB"):
        load_persona(path)


def test_a_large_compressed_card_text_under_the_cap_is_read() -> None:
    text = "x" * (MAX_TEXT_BYTES - 10)
    body = b"chara\0\0" + zlib.compress(text.encode(), 9)
    png = tiny_png()
    assert png_text_chunks(png[:-12] + png_chunk(b"zTXt", body) + png[-12:])["chara"] == text
