"""The command menu Telegram shows next to the input field, in English (default) and French; and the chat's menu
button, which opens the memory browser when it is set up."""

from __future__ import annotations

import logging

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeDefault, MenuButtonWebApp, WebAppInfo
from telegram.error import TelegramError

from bot.engine.texts.browser import say_browser

log = logging.getLogger(__name__)

# Commands that read or change a person's own data only work in private chats.
PRIVATE_COMMANDS = (
    "memories", "forget", "remember", "birthday", "timezone", "checkins", "groups", "language", "mood", "profile",
    "export", "link", "unlink", "age", "voice"
)  # fmt: skip
GROUP_COMMANDS = ("start", "help", "privacy")

_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "en": {
        "start": "Who I am and what I remember",
        "help": "What I can do",
        "memories": "What I remember about you",
        "forget": "Forget one memory, or everything",
        "remember": "Ask me to remember something",
        "birthday": "Tell me your birthday",
        "timezone": "Set your time zone",
        "checkins": "Let me check in on you (on/off)",
        "groups": "Private memories in group chats (on/off)",
        "language": "The language I use with you (en/fr/auto)",
        "mood": "A chart of how you've been feeling",
        "profile": "How to address you (name, pronouns, tu/vous)",
        "age": "Tell me your age",
        "export": "Get a copy of your data",
        "link": "Be one person on Telegram and Discord",
        "unlink": "Undo /link",
        "voice": "Answer me with voice notes (on/off)",
        "privacy": "What is stored and where",
        "picture": "A picture of me (e.g. /picture at the beach)",
    },
    "fr": {
        "start": "Qui je suis et ce dont je me souviens",
        "help": "Ce que je sais faire",
        "memories": "Ce dont je me souviens sur toi",
        "forget": "Oublier un souvenir, ou tout",
        "remember": "Me demander de retenir quelque chose",
        "birthday": "Me dire ton anniversaire",
        "timezone": "Régler ton fuseau horaire",
        "checkins": "Prendre de tes nouvelles (on/off)",
        "groups": "Souvenirs privés dans les groupes (on/off)",
        "language": "La langue que j'utilise avec toi (fr/en/auto)",
        "mood": "Un graphique de ton humeur",
        "profile": "Comment m'adresser à toi (prénom, pronoms, tu/vous)",
        "age": "Me dire ton âge",
        "export": "Recevoir une copie de tes données",
        "link": "Être une seule personne sur Telegram et Discord",
        "unlink": "Annuler /link",
        "voice": "Me répondre par messages vocaux (on/off)",
        "privacy": "Ce qui est stocké et où",
        "picture": "Une photo de moi (par ex. /picture à la plage)",
    },
}
_MENU_ORDER = (
    "start",
    "help",
    "memories",
    "remember",
    "forget",
    "birthday",
    "timezone",
    "checkins",
    "groups",
    "language",
    "mood",
    "profile",
    "age",
    "export",
    "link",
    "unlink",
    "voice",
    "privacy",
    "picture",
)


def menu(language: str, *, groups: bool = False) -> list[BotCommand]:
    names = GROUP_COMMANDS if groups else _MENU_ORDER
    return [BotCommand(name, _DESCRIPTIONS[language][name]) for name in _MENU_ORDER if name in names]


async def register_menu(bot: Bot) -> None:
    """setMyCommands for private chats (every command) and groups (the harmless ones), EN and FR.
    A failure only costs the menu, so it is logged, not raised."""
    for language in ("en", "fr"):
        code = None if language == "en" else language  # English is the fallback for every other language
        try:
            await bot.set_my_commands(menu(language), scope=BotCommandScopeDefault(), language_code=code)
            await bot.set_my_commands(
                menu(language, groups=True), scope=BotCommandScopeAllGroupChats(), language_code=code
            )
        except TelegramError:
            log.exception("Could not register the %s command menu", language)


async def register_browser_button(bot: Bot, url: str) -> None:
    """The chat's menu button opens the memory browser as a Mini App (the commands stay a "/" away). A failure
    only costs the button, so it is logged, not raised."""
    try:
        await bot.set_chat_menu_button(menu_button=MenuButtonWebApp(say_browser("browser_menu", "en"), WebAppInfo(url)))
    except TelegramError:
        log.warning("Could not set the chat's menu button to the memory browser")
