"""What a setting command alone (/birthday, /checkins, /language, /timezone with nothing after it) says of
the current value, before its usage line, in English and French (kept beside `bot.engine.texts.say`)."""

from __future__ import annotations

from bot.engine.texts.say import say_in

_TEXTS: dict[str, dict[str, str]] = {
    "birthday_current": {"en": "Your birthday: {date}.", "fr": "Ton anniversaire : le {date}."},
    "birthday_none": {"en": "I don't know your birthday yet.", "fr": "Je ne connais pas encore ton anniversaire."},
    "checkins_current_on": {
        "en": "Check-ins are on: I write to you when we haven't talked for a while.",
        "fr": "Les nouvelles sont activées : je t'écris quand on ne s'est pas parlé depuis un moment.",
    },
    "checkins_current_off": {
        "en": "Check-ins are off.",
        "fr": "Les nouvelles sont désactivées.",
    },
    "language_current_chosen": {
        "en": "I speak English with you (you chose it).",
        "fr": "Je te parle en français (tu l'as choisi).",
    },
    "language_current_auto": {
        "en": "I answer in the language you write in; right now, English.",
        "fr": "Je te réponds dans la langue dans laquelle tu écris ; en ce moment, le français.",
    },
    "timezone_current": {
        "en": "Your time zone: {zone} (it's {time} there).",
        "fr": "Ton fuseau horaire : {zone} (il y est {time}).",
    },
    "timezone_current_default": {
        "en": "You haven't set a time zone: I use {zone} (it's {time} there).",
        "fr": "Tu n'as pas choisi de fuseau horaire : j'utilise {zone} (il y est {time}).",
    },
}


def say_setting(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)
