"""What /mood and its chart say, in English and French (kept beside `bot.engine.texts.say`, same `say` rule)."""

from __future__ import annotations

from bot.engine.mood import MoodPattern
from bot.engine.texts.say import say_in

_TEXTS: dict[str, dict[str, str]] = {
    "mood_caption": {
        "en": "How your messages have felt over the last {days} days — only you can see this.",
        "fr": "Ce que tes messages laissaient sentir ces {days} derniers jours — toi seul·e peux voir ça.",
    },
    "mood_too_few": {
        "en": (
            "I don't have enough of your messages yet to draw how you've been feeling. "
            "Let's talk a little more first!"
        ),
        "fr": "Je n'ai pas encore assez de tes messages pour dessiner comment tu te sens. Parlons encore un peu !",
    },
    "mood_unavailable": {
        "en": "I can't draw your chart right now. Please try again in a moment.",
        "fr": "Je ne peux pas dessiner ton graphique pour l'instant. Réessaie dans un moment.",
    },
    "usage_mood": {
        "en": "Use /mood, /mood 30 or /mood 90 (days).",
        "fr": "Utilise /mood, /mood 30 ou /mood 90 (jours).",
    },
    "mood_saved": {"en": "Your mood chart: {path}", "fr": "Ton graphique d'humeur : {path}"},
    "chart_title": {"en": "How your messages felt — last {days} days", "fr": "Tes messages — {days} derniers jours"},
    "chart_valence": {"en": "lighter ↑  /  heavier ↓", "fr": "plus léger ↑  /  plus lourd ↓"},
    "chart_weekdays": {"en": "By day of the week", "fr": "Par jour de la semaine"},
    "chart_daily": {"en": "daily average", "fr": "moyenne du jour"},
    "chart_no_pattern": {"en": "No pattern stands out yet.", "fr": "Aucune tendance ne ressort pour l'instant."},
    "pattern_weekday_hard": {"en": "{day}s are often harder.", "fr": "Le {day} est souvent plus difficile."},
    "pattern_weekday_good": {"en": "{day}s are often lighter.", "fr": "Le {day} est souvent plus léger."},
    "pattern_hours_hard": {"en": "The {hours} is often harder.", "fr": "Le moment « {hours} » est souvent plus dur."},
    "pattern_trend_down": {
        "en": "Heavier than usual since {since}.",
        "fr": "Plus lourd que d'habitude depuis le {since}.",
    },
    "pattern_trend_up": {
        "en": "Lighter than usual since {since}.",
        "fr": "Plus léger que d'habitude depuis le {since}.",
    },
    "pattern_topic": {"en": "“{topic}” often comes with {mood}.", "fr": "« {topic} » vient souvent avec {mood}."},
}

WEEKDAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
}
_WEEKDAY_INDEX = {name.lower(): i for i, name in enumerate(WEEKDAYS["en"])}
MOOD_WORDS = {
    "en": {"joy": "joy", "calm": "calm", "sadness": "sadness", "anxiety": "worry", "anger": "anger",
           "tiredness": "tiredness", "neutral": "a neutral mood"},
    "fr": {"joy": "de la joie", "calm": "du calme", "sadness": "de la tristesse", "anxiety": "de l'inquiétude",
           "anger": "de la colère", "tiredness": "de la fatigue", "neutral": "une humeur neutre"},
}  # fmt: skip


def say_mood(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)


def describe_pattern(pattern: MoodPattern, language: str) -> str | None:
    """One line about a believed pattern, in the person's words (no scores)."""
    lang = language if language in WEEKDAYS else "en"
    hard = pattern.mood not in ("joy", "calm")
    if pattern.kind == "weekday" and pattern.weekday in _WEEKDAY_INDEX:
        day = WEEKDAYS[lang][_WEEKDAY_INDEX[pattern.weekday]]
        return say_mood("pattern_weekday_hard" if hard else "pattern_weekday_good", lang, day=day)
    if pattern.kind == "time_of_day" and pattern.hours and hard:
        return say_mood("pattern_hours_hard", lang, hours=pattern.hours)
    if pattern.kind == "trend" and pattern.direction:
        since = pattern.since.strftime("%d/%m" if lang == "fr" else "%B %d") if pattern.since else "?"
        return say_mood(f"pattern_trend_{pattern.direction}", lang, since=since)
    if pattern.kind == "topic" and pattern.topic and pattern.mood:
        return say_mood("pattern_topic", lang, topic=pattern.topic, mood=MOOD_WORDS[lang][pattern.mood])
    return None
