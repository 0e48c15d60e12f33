"""Fixed unprompted messages, in English and French, for when no language model is configured or it fails.

Someone else's occasion is quoted in the person's own words (`what`), which reads naturally in both
languages whatever its grammar ("« anniversaire de ma sœur »").
"""

from __future__ import annotations

_TEMPLATES: dict[str, dict[str, str]] = {
    "birthday_self": {
        "en": "Happy birthday{name}! 🎂 I hope today brings you good moments. How are you celebrating?",
        "fr": (
            "Joyeux anniversaire{name} ! 🎂 J'espère que ta journée sera pleine de bons moments. "
            "Tu fêtes ça comment ?"
        ),
    },
    "anniversary_self": {
        "en": "Today is a special date for you: “{what}”. Thinking of you{name} — how are you feeling about it?",
        "fr": (
            "Aujourd'hui, c'est une date qui compte pour toi : « {what} ». "
            "Je pense à toi{name} — comment tu le vis ?"
        ),
    },
    "other_day": {
        "en": "A little reminder{name}: today is “{what}” 🎉 Are you doing anything for it?",
        "fr": "Petit rappel{name} : aujourd'hui, c'est « {what} » 🎉 Tu prévois quelque chose ?",
    },
    "other_soon": {
        "en": "Heads up{name}: “{what}” is in {days} days ({date}). Got something in mind?",
        "fr": "Petit rappel{name} : « {what} », c'est dans {days} jours ({date}). Tu as une idée en tête ?",
    },
    "event_before": {
        "en": "Tomorrow's the day: “{what}”. Good luck{name} — I'm rooting for you!",
        "fr": "C'est demain : « {what} ». Bonne chance{name}, je croise les doigts pour toi !",
    },
    "event_today": {
        "en": "Today's the day: “{what}”. Good luck{name} — I'm rooting for you!",
        "fr": "C'est aujourd'hui : « {what} ». Bonne chance{name}, je croise les doigts pour toi !",
    },
    "other_event_before": {
        "en": "Tomorrow: “{what}”. I hope it's a lovely day{name}!",
        "fr": "Demain : « {what} ». J'espère que ce sera une belle journée{name} !",
    },
    "other_event_today": {
        "en": "Today: “{what}”. I hope it's a lovely day{name}!",
        "fr": "Aujourd'hui : « {what} ». J'espère que ce sera une belle journée{name} !",
    },
    "event_after": {
        "en": "So{name}, “{what}” — how did it go?",
        "fr": "Alors{name}, « {what} » : comment ça s'est passé ?",
    },
    "checkin": {
        "en": "Hey{name}, it's been a few days — how are you doing?",
        "fr": "Coucou{name}, ça fait quelques jours — comment tu vas ?",
    },
    # Gentler variants: for when the last days have been heavy for the person, and the only kind the week after a
    # crisis (see `jobs.compose`, `jobs.after_crisis`). They ask nothing and never mention how the person feels.
    "birthday_self_gentle": {
        "en": "Happy birthday{name}. Thinking of you today — I hope it brings you a little softness.",
        "fr": (
            "Joyeux anniversaire{name}. Je pense à toi aujourd'hui — j'espère que ta journée t'apportera un peu "
            "de douceur."
        ),
    },
    "anniversary_self_gentle": {
        "en": "Today is “{what}”. Thinking of you{name} — I'm here if you want to talk.",
        "fr": "Aujourd'hui, c'est « {what} ». Je pense à toi{name} — je suis là si tu as envie de parler.",
    },
    "other_day_gentle": {
        "en": "Today is “{what}”. Just a quiet word{name}: I'm thinking of you.",
        "fr": "Aujourd'hui, c'est « {what} ». Juste un petit mot{name} : je pense à toi.",
    },
    "other_soon_gentle": {
        "en": "A quiet heads-up{name}: “{what}” is in {days} days ({date}). No need to answer.",
        "fr": "Un petit mot{name} : « {what} », c'est dans {days} jours ({date}). Pas besoin de répondre.",
    },
    "event_before_gentle": {
        "en": "Tomorrow is “{what}”. Thinking of you{name} — whatever it brings, I'm here.",
        "fr": "Demain, c'est « {what} ». Je pense à toi{name} — quoi qu'il arrive, je suis là.",
    },
    "event_today_gentle": {
        "en": "Today is “{what}”. Thinking of you{name} — whatever it brings, I'm here.",
        "fr": "Aujourd'hui, c'est « {what} ». Je pense à toi{name} — quoi qu'il arrive, je suis là.",
    },
    "other_event_before_gentle": {
        "en": "Tomorrow: “{what}”. Thinking of you{name}, quietly.",
        "fr": "Demain : « {what} ». Je pense à toi{name}, tout doucement.",
    },
    "other_event_today_gentle": {
        "en": "Today: “{what}”. Thinking of you{name}, quietly.",
        "fr": "Aujourd'hui : « {what} ». Je pense à toi{name}, tout doucement.",
    },
    "event_after_gentle": {
        "en": "Thinking of you{name} after “{what}”. No need to tell me anything — I'm here if you want to.",
        "fr": "Je pense à toi{name} après « {what} ». Pas besoin de me raconter — je suis là si tu en as envie.",
    },
    "checkin_gentle": {
        "en": "Thinking of you{name}. No need to answer — I'm here whenever you feel like talking.",
        "fr": "Je pense à toi{name}. Pas besoin de répondre — je suis là quand tu as envie de parler.",
    },
}


# The French texts for someone who asked to be called « vous » (`/profile vous`, "vouvoie-moi").
_VOUS: dict[str, str] = {
    "birthday_self": (
        "Joyeux anniversaire{name} ! 🎂 J'espère que votre journée sera pleine de bons moments. "
        "Vous fêtez ça comment ?"
    ),
    "anniversary_self": (
        "Aujourd'hui, c'est une date qui compte pour vous : « {what} ». "
        "Je pense à vous{name} — comment le vivez-vous ?"
    ),
    "other_day": "Petit rappel{name} : aujourd'hui, c'est « {what} » 🎉 Vous prévoyez quelque chose ?",
    "other_soon": "Petit rappel{name} : « {what} », c'est dans {days} jours ({date}). Vous avez une idée en tête ?",
    "event_before": "C'est demain : « {what} ». Bonne chance{name}, je croise les doigts pour vous !",
    "event_today": "C'est aujourd'hui : « {what} ». Bonne chance{name}, je croise les doigts pour vous !",
    "other_event_before": "Demain : « {what} ». J'espère que ce sera une belle journée{name} !",
    "other_event_today": "Aujourd'hui : « {what} ». J'espère que ce sera une belle journée{name} !",
    "event_after": "Alors{name}, « {what} » : comment ça s'est passé ?",
    "checkin": "Bonjour{name}, cela fait quelques jours — comment allez-vous ?",
    "birthday_self_gentle": (
        "Joyeux anniversaire{name}. Je pense à vous aujourd'hui — j'espère que votre journée vous apportera un peu "
        "de douceur."
    ),
    "anniversary_self_gentle": (
        "Aujourd'hui, c'est « {what} ». Je pense à vous{name} — je suis là si vous avez envie de parler."
    ),
    "other_day_gentle": "Aujourd'hui, c'est « {what} ». Juste un petit mot{name} : je pense à vous.",
    "other_soon_gentle": "Un petit mot{name} : « {what} », c'est dans {days} jours ({date}). Inutile de répondre.",
    "event_before_gentle": "Demain, c'est « {what} ». Je pense à vous{name} — quoi qu'il arrive, je suis là.",
    "event_today_gentle": "Aujourd'hui, c'est « {what} ». Je pense à vous{name} — quoi qu'il arrive, je suis là.",
    "other_event_before_gentle": "Demain : « {what} ». Je pense à vous{name}, tout doucement.",
    "other_event_today_gentle": "Aujourd'hui : « {what} ». Je pense à vous{name}, tout doucement.",
    "event_after_gentle": (
        "Je pense à vous{name} après « {what} ». Inutile de me raconter — je suis là si vous en avez envie."
    ),
    "checkin_gentle": "Je pense à vous{name}. Inutile de répondre — je suis là quand vous avez envie de parler.",
}


def template(key: str, language: str | None, *, name: str = "", formal: bool = False, **values: object) -> str:
    """The fixed text for `key` in `language` (English when unknown); `name` is the person's first name;
    `formal`: « vous » in French."""
    variants = _TEMPLATES[key]
    text = variants.get(language or "en") or variants["en"]
    if formal and language == "fr":
        text = _VOUS[key]
    shown_name = f" {name}" if name else ""
    return text.format(name=shown_name, **values)


def template_keys() -> frozenset[str]:
    return frozenset(_TEMPLATES)
