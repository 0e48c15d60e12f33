"""Which picture becomes the bot's avatar: SOUVENIR_PERSONA_AVATAR, else the PNG card's own image."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.avatar import bot_avatar
from bot.errors import ConfigError
from bot.persona_file import read_persona

CARD = Path(__file__).parent / "data" / "maelle_card_v2.png"


def test_a_png_card_brings_its_image_and_the_setting_wins(tmp_path: Path) -> None:
    loaded = read_persona(CARD)
    card_image = loaded.card.avatar if loaded.card else None
    from_card = bot_avatar(None, card_image, tmp_path)
    assert from_card is not None and from_card.image == CARD.read_bytes() and from_card.format == "png"

    jpeg = tmp_path / "me.jpg"
    jpeg.write_bytes(b"\xff\xd8\xff\xe0" + bytes(20))
    chosen = bot_avatar(jpeg, card_image, tmp_path)
    assert chosen is not None and chosen.format == "jpeg"
    assert bot_avatar(None, read_persona(None).card, tmp_path) is None  # our own persona format has no image


def test_an_avatar_that_is_not_an_image_stops_start_up_in_one_line(tmp_path: Path) -> None:
    text = tmp_path / "avatar.png"
    text.write_text("not an image")
    with pytest.raises(ConfigError, match=r"SOUVENIR_PERSONA_AVATAR: .* is not a PNG, JPEG or GIF image"):
        bot_avatar(text, None, tmp_path)
    with pytest.raises(ConfigError, match="cannot read"):
        bot_avatar(tmp_path / "missing.png", None, tmp_path)
