"""What /timezone says when a city name fits several zones, and the one offer of a zone made in conversation
("I live in Lyon"), in English and French (kept beside `bot.engine.texts.say`, same `say` rule)."""

from __future__ import annotations

from bot.engine.texts.say import say_in

_TEXTS: dict[str, dict[str, str]] = {
    "timezone_choices": {
        "en": "There's more than one “{text}”, in different time zones. Which one is yours?\n{choices}",
        "fr": "Il y a plusieurs « {text} », dans des fuseaux différents. Lequel est le tien ?\n{choices}",
    },
    # One line per zone: "/timezone America/Los_Angeles — Portland, Oregon (US), 05:00 there".
    "timezone_choice": {
        "en": "/timezone {zone} — {city} ({country}), {time} there",
        "fr": "/timezone {zone} — {city} ({country}), il y est {time}",
    },
    "timezone_offer": {
        "en": "Shall I use {place} time for you? /timezone {zone}",
        "fr": "Veux-tu que j'utilise l'heure {of_place} pour toi ? /timezone {zone}",
    },
    "timezone_offer_vous": {
        "en": "Shall I use {place} time for you? /timezone {zone}",
        "fr": "Voulez-vous que j'utilise l'heure {of_place} pour vous ? /timezone {zone}",
    },
}


def say_zone(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)
