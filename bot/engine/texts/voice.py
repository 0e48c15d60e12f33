"""What the companion says about voice notes, in English and French (see `bot.engine.texts.say`)."""

from __future__ import annotations

from bot.engine.texts.say import say_in

_TEXTS: dict[str, dict[str, str]] = {
    "voice_too_long": {
        "en": "That voice note is a bit long for me — I can listen to {minutes} minutes at most. Could you "
        "send a shorter one, or type it?",
        "fr": "Ce message vocal est un peu long pour moi — j'écoute {minutes} minutes au plus. Tu peux m'en "
        "envoyer un plus court, ou l'écrire ?",
    },
    "voice_too_large": {
        "en": "That audio file is too big for me to open ({megabytes} MB at most). Could you send a shorter "
        "one, or type it?",
        "fr": "Ce fichier audio est trop gros pour que je l'ouvre ({megabytes} Mo au plus). Tu peux en "
        "envoyer un plus court, ou l'écrire ?",
    },
    "voice_unavailable": {
        "en": "I can't listen to voice notes right now, sorry. Could you type it for me?",
        "fr": "Je ne peux pas écouter les messages vocaux pour l'instant, désolé. Tu peux me l'écrire ?",
    },
    "voice_silent": {
        "en": "I couldn't make out any words in that voice note. Could you try again, or type it?",
        "fr": "Je n'ai entendu aucun mot dans ce message vocal. Tu réessaies, ou tu me l'écris ?",
    },
    "usage_voice": {
        "en": "Usage: /voice on (I answer with voice notes) or /voice off (text only)",
        "fr": "Usage : /voice on (je réponds par messages vocaux) ou /voice off (texte seulement)",
    },
    "voice_on": {
        "en": "Voice is on: I'll answer you with voice notes, the words written alongside (long answers stay "
        "text).",
        "fr": "La voix est activée : je te réponds par messages vocaux, avec le texte à côté (les longues "
        "réponses restent écrites).",
    },
    "voice_on_unavailable": {
        "en": "Noted — but this companion can't speak yet (no speech service is set up), so I'll keep writing "
        "for now.",
        "fr": "C'est noté — mais je ne peux pas encore parler (aucun service de voix n'est configuré), donc "
        "je continue à écrire pour l'instant.",
    },
    "voice_off": {
        "en": "Voice is off: I'll answer in writing.",
        "fr": "La voix est désactivée : je te réponds par écrit.",
    },
}


def say_voice(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)
