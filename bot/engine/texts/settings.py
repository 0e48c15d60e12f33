"""What the setting commands say when a value is set or refused, in English and French: /birthday,
/timezone, /checkins, /groups, /language and /profile (what one says alone is in `texts.current_settings`).
"""

from __future__ import annotations

SETTINGS: dict[str, dict[str, str]] = {
    "usage_birthday": {
        "en": "Usage: /birthday <date>, e.g. /birthday March 14",
        "fr": "Usage : /birthday <date>, ex. /birthday 14 mars",
    },
    "usage_timezone": {
        "en": "Usage: /timezone <zone or city>, e.g. /timezone Europe/Paris or /timezone Montreal",
        "fr": "Usage : /timezone <fuseau ou ville>, ex. /timezone Europe/Paris ou /timezone Montréal",
    },
    "usage_checkins": {
        "en": "Usage: /checkins on or /checkins off",
        "fr": "Usage : /checkins on ou /checkins off",
    },
    "usage_groups": {
        "en": "Usage: /groups on or /groups off",
        "fr": "Usage : /groups on ou /groups off",
    },
    "groups_on": {
        "en": "Okay: in group chats I may now draw on what you've told me in private. /groups off to undo.",
        "fr": "D'accord : dans les groupes, je peux maintenant m'appuyer sur ce que tu m'as dit en privé. "
        "/groups off pour annuler.",
    },
    "groups_off": {
        "en": "What you tell me in private stays out of group chats.",
        "fr": "Ce que tu me dis en privé reste hors des groupes.",
    },
    "usage_language": {
        "en": "Usage: /language en, /language fr, or /language auto to follow the language you write in",
        "fr": "Usage : /language fr, /language en, ou /language auto pour suivre la langue dans laquelle tu écris",
    },
    "language_set": {
        "en": "Okay, I'll speak English with you from now on.",
        "fr": "D'accord, je te parlerai en français désormais.",
    },
    "language_auto": {
        "en": "Okay, I'll answer in the language you write in.",
        "fr": "D'accord, je te répondrai dans la langue dans laquelle tu m'écris.",
    },
    "birthday_set": {
        "en": "Noted: your birthday is {date}. 🎂",
        "fr": "C'est noté : ton anniversaire est le {date}. 🎂",
    },
    "birthday_invalid": {
        "en": "I couldn't read “{text}” as a real date. Try something like /birthday March 14.",
        "fr": "Je n'ai pas pu lire « {text} » comme une vraie date. Essaie par exemple /birthday 14 mars.",
    },
    "timezone_set": {
        "en": "Your time zone is now {zone} (it's {time} there).",
        "fr": "Ton fuseau horaire est maintenant {zone} (il y est {time}).",
    },
    "timezone_unknown": {
        "en": "I don't know the time zone “{text}”. Try a city or a name like Europe/Paris.",
        "fr": "Je ne connais pas le fuseau « {text} ». Essaie une ville ou un nom comme Europe/Paris.",
    },
    "checkins_on": {
        "en": "Check-ins are on: if we haven't talked for a while, I'll write to you (never at night).",
        "fr": (
            "Les nouvelles sont activées : si on ne s'est pas parlé depuis un moment, je t'écrirai "
            "(jamais la nuit)."
        ),
    },
    "checkins_off": {
        "en": "Check-ins are off. I'll only write first for your birthday and the big days you tell me about.",
        "fr": (
            "Les nouvelles sont désactivées. Je n'écrirai en premier que pour ton anniversaire et les grands "
            "jours dont tu me parles."
        ),
    },
    # /profile: how the person wants to be addressed.
    "usage_profile": {
        "en": (
            "Usage: /profile name <name> — what I call you (/profile name alone: your account name again)\n"
            "/profile pronouns <pronouns> — e.g. she/her, they/them\n"
            "/profile tu|vous — in French, whether I say « tu » or « vous » to you"
        ),
        "fr": (
            "Usage : /profile name <prénom> — comment je t'appelle (/profile name seul : le nom de ton compte)\n"
            "/profile pronouns <pronoms> — ex. elle, il, iel\n"
            "/profile tu|vous — si je te dis « tu » ou « vous »"
        ),
    },
    "profile_shown": {
        "en": "I call you {name}; pronouns: {pronouns}; in French: {form}.",
        "fr": "Je t'appelle {name} ; pronoms : {pronouns} ; en français : {form}.",
    },
    "profile_unset": {"en": "not set", "fr": "non précisé"},
    "profile_name_set": {"en": "Got it, I'll call you {name}.", "fr": "C'est noté, je t'appellerai {name}."},
    "profile_name_cleared": {
        "en": "Okay, I'll use your account name again.",
        "fr": "D'accord, je reprends le nom de ton compte.",
    },
    "profile_name_invalid": {
        "en": "A name of 1 to {max} letters, please (e.g. /profile name Max).",
        "fr": "Un prénom de 1 à {max} caractères, s'il te plaît (ex. /profile name Max).",
    },
    "profile_pronouns_set": {"en": "Noted: {pronouns}.", "fr": "C'est noté : {pronouns}."},
    "profile_pronouns_cleared": {"en": "Okay, no pronouns noted.", "fr": "D'accord, aucun pronom noté."},
    "profile_tu": {"en": "In French I'll say « tu » to you.", "fr": "OK, on se tutoie !"},
    "profile_vous": {
        "en": "In French I'll say « vous » to you.",
        "fr": "Entendu, je vous vouvoierai désormais.",
    },
}
