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
    # Gentler variants, for when the last days have been heavy for the person (see `jobs.compose`).
    "checkin_gentle": {
        "en": "Thinking of you{name}. No need to answer — I'm here whenever you feel like talking.",
        "fr": "Je pense à toi{name}. Pas besoin de répondre — je suis là quand tu as envie de parler.",
    },
    "birthday_self_gentle": {
        "en": "Happy birthday{name}. I know things have been heavy lately — I hope today brings you a little softness.",
        "fr": (
            "Joyeux anniversaire{name}. Je sais que ces derniers temps ont été lourds — j'espère que ta journée "
            "t'apportera un peu de douceur."
        ),
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
