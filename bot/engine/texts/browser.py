"""What the chat says about the memory browser (the page where a person sees and corrects their memories), in
English and French, and the words that ask for it ("/memories web")."""

from __future__ import annotations

from bot.engine.texts.say import say_in

_WEB_WORDS = {"web", "page", "site", "browser", "navigateur"}

_TEXTS: dict[str, dict[str, str]] = {
    "browser_off": {
        "en": "The memory page is not set up on this bot; /memories lists them here.",
        "fr": "La page des souvenirs n'est pas configurée sur ce bot ; /memories les liste ici.",
    },
    "browser_button": {"en": "Open my memories", "fr": "Ouvrir mes souvenirs"},
    "browser_menu": {"en": "Memories", "fr": "Souvenirs"},  # the chat's menu button: one word
    "browser_open": {
        "en": "Your memories, to see, correct or erase:",
        "fr": "Tes souvenirs, pour les voir, les corriger ou les effacer :",
    },
    "browser_link": {
        "en": "Your memories, to see, correct or erase: {url}\nThis link is yours only; it works once, for 10 minutes.",
        "fr": "Tes souvenirs, pour les voir, les corriger ou les effacer : {url}\n"
        "Ce lien n'est qu'à toi ; il ne sert qu'une fois, pendant 10 minutes.",
    },
}


def asks_browser(argument: str) -> bool:
    """ "/memories web": the person asks for the memory page rather than a page of the listing."""
    return argument.strip().lower() in _WEB_WORDS


def say_browser(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)
