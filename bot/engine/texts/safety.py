"""What Souvenir says in its own voice about safety (crisis lines, breaks, /age), in English and French."""

from __future__ import annotations

from bot.engine.texts.say import say_in

_TEXTS: dict[str, dict[str, str]] = {
    "crisis_lines": {
        "en": (
            "If you are thinking about ending your life or hurting yourself, you don't have to go through it "
            "alone. You can talk to someone right now:\n{lines}\n"
            "If you are in immediate danger, call your local emergency number (112 in Europe, 911 in North America)."
        ),
        "fr": (
            "Si tu penses à mettre fin à tes jours ou à te faire du mal, tu n'as pas à traverser ça seul·e. "
            "Tu peux parler à quelqu'un dès maintenant :\n{lines}\n"
            "En cas de danger immédiat, appelle les urgences (112 en Europe, 911 en Amérique du Nord)."
        ),
    },
    # The opening of the crisis lines sent after a reply, when the model read a crisis the reply did not answer.
    "crisis_follow_up": {
        "en": "I've been thinking about what you wrote, and I want to make sure you're okay.",
        "fr": "J'ai repensé à ce que tu m'as écrit, et je veux m'assurer que tu vas bien.",
    },
    "emergency_first": {
        "en": (
            "⚠️ If you are in danger right now, please call your local emergency number now (112 in Europe, "
            "911 in North America), or ask someone near you to stay with you."
        ),
        "fr": (
            "⚠️ Si tu es en danger maintenant, appelle tout de suite les urgences (112 en Europe, 911 en Amérique "
            "du Nord), ou demande à quelqu'un près de toi de rester avec toi."
        ),
    },
    "break_reminder": {
        "en": "(We've been talking for a while now: how about a little break? I'll be here when you come back.)",
        "fr": "(Ça fait un moment qu'on discute : et si tu faisais une petite pause ? Je serai là à ton retour.)",
    },
    "usage_age": {
        "en": "Tell me your age with /age followed by your age in years, e.g. /age 25.",
        "fr": "Dis-moi ton âge avec /age suivi de ton âge en années, par ex. /age 25.",
    },
    "age_invalid": {
        "en": "“{text}” isn't an age I can take: write it in years, e.g. /age 25.",
        "fr": "« {text} » n'est pas un âge que je peux prendre : écris-le en années, par ex. /age 25.",
    },
    "age_is": {
        "en": "I have you down as {age}. /age <years> changes it.",
        "fr": "J'ai noté que tu as {age} ans. /age <années> le change.",
    },
    "age_set_adult": {
        "en": "Noted: you're {age}.",
        "fr": "C'est noté : tu as {age} ans.",
    },
    # An adult /age from someone marked under 18: applied only when they send it again.
    "age_confirm_adult": {
        "en": (
            "You told me earlier that you are under 18. If you really are {age}, send /age {age} again "
            "within {minutes} minutes to confirm it."
        ),
        "fr": (
            "Tu m'as dit plus tôt que tu avais moins de 18 ans. Si tu as vraiment {age} ans, renvoie /age {age} "
            "dans les {minutes} minutes pour le confirmer."
        ),
    },
    "age_set_minor": {
        "en": (
            "Noted: you're {age}. I'll keep our conversations suitable for your age, and remind you to take a "
            "break now and then."
        ),
        "fr": (
            "C'est noté : tu as {age} ans. Je garderai nos conversations adaptées à ton âge, et je te rappellerai "
            "de faire une pause de temps en temps."
        ),
    },
}


def say_safety(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)
