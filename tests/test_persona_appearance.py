"""The persona's appearance, for pictures: our file's `appearance`, a card's `data.extensions.appearance`, else
the card's description; every picture prompt starts from it."""

from __future__ import annotations

import json

from bot.engine.media.picture_rules import base_prompt, picture_prompt, picture_prompt_rules
from bot.persona_file import load_persona, persona_from_bytes
from bot.persona_store import card_v2


def test_our_persona_file_carries_an_appearance() -> None:
    text = b"name: Mia\npersonality: Warm.\nappearance: short auburn hair, freckles\n"
    persona = persona_from_bytes(text, "mia.yaml").persona
    assert persona.appearance == "short auburn hair, freckles"
    assert "short auburn hair, freckles" in base_prompt(persona)


def _card(extensions: dict[str, object]) -> bytes:
    data = {"name": "Lune", "description": "A tall woman with silver hair.", "extensions": extensions}
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


def test_a_card_appearance_extension_wins_over_the_description() -> None:
    persona = persona_from_bytes(_card({"appearance": "round glasses, a yellow raincoat"}), "lune.json").persona
    prompt = base_prompt(persona)
    assert "round glasses, a yellow raincoat" in prompt and "silver hair" not in prompt


def test_a_card_without_one_is_drawn_from_its_description() -> None:
    persona = persona_from_bytes(_card({}), "lune.json").persona
    assert persona.appearance == "" and "A tall woman with silver hair." in base_prompt(persona)


def test_every_prompt_has_the_same_base_and_the_safety_rules() -> None:
    persona = persona_from_bytes(_card({}), "lune.json").persona
    beach, club = picture_prompt(persona, "at the beach"), picture_prompt(persona, "at a jazz club")
    assert beach.startswith(base_prompt(persona)) and club.startswith(base_prompt(persona))
    assert beach.endswith(picture_prompt_rules()) and "No nudity" in picture_prompt_rules()


def test_exporting_our_persona_as_a_card_keeps_the_appearance() -> None:
    packaged = load_persona(None)
    card = card_v2(None, "SOUVENIR_PERSONA_FILE")  # the packaged persona, which has one
    again = persona_from_bytes(json.dumps(card).encode(), "export.json").persona
    assert packaged.appearance.startswith("A young adult")
    assert again.appearance == packaged.appearance


def test_a_long_card_description_gives_its_look_not_its_backstory_or_dialogue() -> None:
    description = (
        "{{char}} is a 28-year-old barista from Lyon who loves jazz. She has short copper hair, green eyes and "
        "freckles, and usually wears an oversized grey sweater. " + "She grew up by the sea, and then more. " * 30
        + "\n<START>\n{{user}}: Hi!\n{{char}}: Oh hello there, welcome to my café!"
    )
    data = {"name": "Lune", "description": description, "extensions": {}}
    card = json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()
    prompt = base_prompt(persona_from_bytes(card, "lune.json").persona)
    assert "Lune is a 28-year-old barista" in prompt and "short copper hair, green eyes" in prompt
    assert "grew up by the sea" not in prompt and "welcome to my café" not in prompt and "<START>" not in prompt
    assert "grey sweater.\n" in prompt  # whole sentences, never cut mid-word
