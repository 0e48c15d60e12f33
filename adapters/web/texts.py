"""Every word the memory browser shows, in English and French, and when a memory was told, in words."""

from __future__ import annotations

from datetime import date, datetime

TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "My memories", "fr": "Mes souvenirs"},
    "known": {"en": "What I know about you", "fr": "Ce que je sais de toi"},
    "known_none": {"en": "Nothing yet.", "fr": "Rien pour l'instant."},
    "memories": {"en": "Memories", "fr": "Souvenirs"},
    "memories_none": {"en": "I keep no memory of you.", "fr": "Je ne garde aucun souvenir de toi."},
    "search": {"en": "Search my memories", "fr": "Chercher dans mes souvenirs"},
    "search_button": {"en": "Search", "fr": "Chercher"},
    "search_clear": {"en": "Show all", "fr": "Tout afficher"},
    "search_found": {"en": "{count} found", "fr": "{count} trouvé(s)"},
    "search_found_part": {
        "en": "{count} found: showing {first}–{last}, newest first",
        "fr": "{count} trouvés : de {first} à {last}, les plus récents d'abord",
    },
    "kind_all": {"en": "All kinds", "fr": "Tous les genres"},
    "kind": {"en": "Kind", "fr": "Genre"},
    "kind_semantic": {"en": "fact", "fr": "fait"},
    "kind_episodic": {"en": "message", "fr": "message"},
    "kind_emotional": {"en": "feeling", "fr": "ressenti"},
    "kind_temporal": {"en": "date", "fr": "date"},
    "told": {"en": "told {when}", "fr": "dit {when}"},
    "no_longer_true": {"en": "no longer true", "fr": "plus d'actualité"},
    "replaced_by": {"en": "replaced {when} by:", "fr": "remplacé {when} par :"},
    "history": {"en": "What was true, in turn", "fr": "Ce qui a été vrai, tour à tour"},
    "said_on": {"en": "said {when}", "fr": "dit le {when}"},
    "since": {"en": "since {when}", "fr": "depuis le {when}"},
    "correct": {"en": "Correct", "fr": "Corriger"},
    "correct_label": {"en": "What is true now", "fr": "Ce qui est vrai maintenant"},
    "correct_button": {"en": "Save the correction", "fr": "Enregistrer la correction"},
    "forget": {"en": "Forget this", "fr": "Oublier ceci"},
    "export": {"en": "Export everything (JSON)", "fr": "Tout exporter (JSON)"},
    "forget_all": {"en": "Forget everything", "fr": "Tout oublier"},
    "forget_all_help": {
        "en": "This erases everything I keep about you, everywhere, for good. Type {word} to confirm.",
        "fr": "Cela efface tout ce que je garde de toi, partout, pour de bon. Tape {word} pour confirmer.",
    },
    "forget_all_word": {"en": "FORGET", "fr": "OUBLIER"},
    "forget_all_label": {"en": "Confirmation", "fr": "Confirmation"},
    "forget_all_wrong": {
        "en": "Nothing was erased: the confirmation did not match.",
        "fr": "Rien n'a été effacé : la confirmation ne correspond pas.",
    },
    "notice_corrected": {
        "en": "Corrected. The old memory is kept as no longer true.",
        "fr": "Corrigé. L'ancien souvenir reste, marqué plus d'actualité.",
    },
    "notice_forgot": {"en": "Forgotten.", "fr": "Oublié."},
    "notice_none": {"en": "That memory is no longer there.", "fr": "Ce souvenir n'existe plus."},
    "notice_empty": {"en": "Write what is true now.", "fr": "Écris ce qui est vrai maintenant."},
    "erased": {"en": "Everything is erased", "fr": "Tout est effacé"},
    "erase_failed": {"en": "Not everything could be erased", "fr": "Tout n'a pas pu être effacé"},
    "receipt_when": {"en": "Erased on {when} (UTC).", "fr": "Effacé le {when} (UTC)."},
    "receipt_what": {"en": "What was erased", "fr": "Ce qui a été effacé"},
    "receipt_store": {"en": "{store}: {what}", "fr": "{store} : {what}"},
    "receipt_failed": {
        "en": "{store}: not erased (the store did not answer; forget everything again to finish)",
        "fr": "{store} : pas effacé (le stockage n'a pas répondu ; tout oublier à nouveau pour finir)",
    },
    "store_memories": {"en": "Memory index", "fr": "Index des souvenirs"},
    "erased_memories": {
        "en": "your memories and every message kept word for word",
        "fr": "tes souvenirs et chaque message gardé mot pour mot",
    },
    "erased_memories_n": {
        "en": "{count} memories and messages kept word for word",
        "en_1": "{count} memory or message kept word for word",
        "fr": "{count} souvenirs et messages gardés mot pour mot",
        "fr_1": "{count} souvenir ou message gardé mot pour mot",
    },
    "store_short_term": {"en": "Short-term state (Redis)", "fr": "État à court terme (Redis)"},
    "erased_short_term": {
        "en": "your recent messages, what was waiting to be written or sent to you, the conversation locks",
        "fr": "tes messages récents, ce qui attendait d'être écrit ou envoyé, les verrous de conversation",
    },
    "erased_recent_messages_n": {
        "en": "{count} recent messages (yours and my replies)",
        "en_1": "{count} recent message (yours or my reply)",
        "fr": "{count} messages récents (les tiens et mes réponses)",
        "fr_1": "{count} message récent (le tien ou ma réponse)",
    },
    "erased_waiting_writes_n": {
        "en": "{count} exchanges waiting to be kept as memories",
        "en_1": "{count} exchange waiting to be kept as a memory",
        "fr": "{count} échanges en attente d'être gardés en souvenirs",
        "fr_1": "{count} échange en attente d'être gardé en souvenir",
    },
    "erased_waiting_messages_n": {
        "en": "{count} messages waiting for a reply",
        "en_1": "{count} message waiting for a reply",
        "fr": "{count} messages en attente de réponse",
        "fr_1": "{count} message en attente de réponse",
    },
    "erased_answered_marks_n": {
        "en": "{count} marks of messages already answered",
        "en_1": "{count} mark of a message already answered",
        "fr": "{count} marques de messages déjà traités",
        "fr_1": "{count} marque de message déjà traité",
    },
    "erased_locks_n": {
        "en": "{count} conversation locks",
        "en_1": "{count} conversation lock",
        "fr": "{count} verrous de conversation",
        "fr_1": "{count} verrou de conversation",
    },
    "store_profile": {"en": "Profile (Redis)", "fr": "Profil (Redis)"},
    "erased_profile": {"en": "your profile and settings", "fr": "ton profil et tes réglages"},
    "store_reply_trail": {"en": "Reply trail (Redis)", "fr": "Fil des réponses (Redis)"},
    "erased_reply_trail": {"en": "what my last replies drew on", "fr": "ce dont mes dernières réponses partaient"},
    "erased_reply_trail_n": {
        "en": "what my last replies drew on ({count} replies)",
        "en_1": "what my last replies drew on ({count} reply)",
        "fr": "ce dont mes dernières réponses partaient ({count} réponses)",
        "fr_1": "ce dont mes dernières réponses partaient ({count} réponse)",
    },
    "store_schedule": {"en": "Schedule (Redis)", "fr": "Agenda (Redis)"},
    "erased_schedule": {"en": "your dates and the messages planned for you", "fr": "tes dates et les messages prévus"},
    "erased_schedule_n": {
        "en": "{count} dates and messages planned for you",
        "en_1": "{count} date or message planned for you",
        "fr": "{count} dates et messages prévus pour toi",
        "fr_1": "{count} date ou message prévu pour toi",
    },
    "store_moods": {"en": "Mood series (Redis)", "fr": "Série des humeurs (Redis)"},
    "erased_moods": {"en": "your mood readings", "fr": "tes humeurs"},
    "erased_moods_n": {
        "en": "{count} mood readings",
        "en_1": "{count} mood reading",
        "fr": "{count} humeurs relevées",
        "fr_1": "{count} humeur relevée",
    },
    "store_person_model": {"en": "Person model (Redis)", "fr": "Portrait (Redis)"},
    "erased_person_model": {"en": "what I knew about you", "fr": "ce que je savais de toi"},
    "store_files": {"en": "Files", "fr": "Fichiers"},
    "erased_files": {"en": "charts, voice notes, pictures kept for you", "fr": "graphiques, messages vocaux, images"},
    "erased_files_n": {
        "en": "{count} files (charts, voice notes, pictures)",
        "en_1": "{count} file (charts, voice notes, pictures)",
        "fr": "{count} fichiers (graphiques, messages vocaux, images)",
        "fr_1": "{count} fichier (graphiques, messages vocaux, images)",
    },
    "store_data_key": {"en": "Key store", "fr": "Coffre des clés"},
    "erased_data_key": {
        "en": "your data key: a copy of your words left in a backup can no longer be read",
        "fr": "ta clé de chiffrement : une copie de tes mots restée dans une sauvegarde ne peut plus être lue",
    },
    "store_pictures": {"en": "Pictures (Redis)", "fr": "Images (Redis)"},
    "erased_pictures": {"en": "how many pictures you asked for", "fr": "le compte des images demandées"},
    "store_sessions": {"en": "Memory browser", "fr": "Navigateur de souvenirs"},
    "erased_sessions": {"en": "your sessions, this one included", "fr": "tes sessions, celle-ci comprise"},
    "erased_sessions_n": {
        "en": "{count} sessions, this one included",
        "en_1": "{count} session: this one",
        "fr": "{count} sessions, celle-ci comprise",
        "fr_1": "{count} session : celle-ci",
    },
    "store_pseudonym": {"en": "Pseudonyms (Redis)", "fr": "Pseudonymes (Redis)"},
    "erased_pseudonym": {"en": "the pseudonym your data was kept under", "fr": "le pseudonyme de tes données"},
    "store_redis_file": {"en": "Redis file on disk", "fr": "Fichier Redis sur le disque"},
    "erased_redis_file": {"en": "rewritten without your data", "fr": "réécrit sans tes données"},
    "store_links": {"en": "Linked accounts (Redis)", "fr": "Comptes liés (Redis)"},
    "erased_links": {"en": "the links between your accounts", "fr": "les liens entre tes comptes"},
    "erased_links_n": {
        "en_0": "no other account of yours was linked",
        "fr_0": "aucun autre compte à toi n'était lié",
        "en": "the links to {count} other accounts of yours",
        "en_1": "the link to {count} other account of yours",
        "fr": "les liens vers {count} autres comptes à toi",
        "fr_1": "le lien vers {count} autre compte à toi",
    },
    "store_other": {"en": "Another store ({name})", "fr": "Un autre stockage ({name})"},
    "erased_other": {"en": "erased", "fr": "effacé"},
    "receipt_stays": {"en": "What stays, and why", "fr": "Ce qui reste, et pourquoi"},
    "receipt_marker": {
        "en": "For one day, a marker named by a one-way hash of your account, so that a memory being written at "
        "this very moment is undone. It holds none of your words.",
        "fr": "Pendant un jour, un repère nommé par une empreinte à sens unique de ton compte, pour qu'un souvenir "
        "en cours d'écriture à cet instant soit défait. Il ne contient aucun de tes mots.",
    },
    "receipt_backups": {
        "en": "Backups made before now keep your words until the operator deletes them (encryption at rest is off "
        "on this bot).",
        "fr": "Les sauvegardes faites avant maintenant gardent tes mots jusqu'à ce que l'opérateur les supprime (le "
        "chiffrement au repos n'est pas activé sur ce bot).",
    },
    "opening": {"en": "Opening your memories…", "fr": "Ouverture de tes souvenirs…"},
    "open_button": {"en": "Open my memories", "fr": "Ouvrir mes souvenirs"},
    "open_help": {
        "en": "This link is yours only, works once and for ten minutes.",
        "fr": "Ce lien n'est qu'à toi, ne sert qu'une fois et pendant dix minutes.",
    },
    "expired": {
        "en": "This link has expired or was already used. Ask for a new one with /memories web.",
        "fr": "Ce lien a expiré ou a déjà servi. Demande-en un nouveau avec /memories web.",
    },
    "launch_refused": {
        "en": "I could not check that this page was opened from Telegram. Close it and open it again.",
        "fr": "Je n'ai pas pu vérifier que cette page vient de Telegram. Ferme-la et rouvre-la.",
    },
    "signed_out": {
        "en": "Your session has ended. Open your memories again from the chat.",
        "fr": "Ta session est terminée. Rouvre tes souvenirs depuis la conversation.",
    },
    "too_many": {"en": "Too many requests; wait a minute.", "fr": "Trop de demandes ; attends une minute."},
    "bad_form": {"en": "This form has expired; reload the page.", "fr": "Ce formulaire a expiré ; recharge la page."},
    "dates": {"en": "Dates ahead", "fr": "Dates à venir"},
    "dates_none": {"en": "No date ahead that I know of.", "fr": "Aucune date à venir que je connaisse."},
    "your_birthday": {"en": "Your birthday", "fr": "Ton anniversaire"},
    "in_days": {"en": "in {n} days", "fr": "dans {n} jours"},
    "today": {"en": "today", "fr": "aujourd'hui"},
    "tomorrow": {"en": "tomorrow", "fr": "demain"},
    "why": {"en": "Why I said that", "fr": "Pourquoi j'ai dit ça"},
    "why_header": {"en": "My last reply drew on:", "fr": "Ma dernière réponse s'appuyait sur :"},
    "why_reply": {"en": " — my reply drew on:", "fr": " — ma réponse s'appuyait sur :"},
    "why_reply_none": {"en": "It drew on no memory of yours.", "fr": "Elle ne s'appuyait sur aucun de tes souvenirs."},
    "settings": {"en": "Your settings", "fr": "Tes réglages"},
    "settings_help": {
        "en": "Change them in the chat: /timezone, /language, /checkins, /groups, /voice, /birthday.",
        "fr": "Change-les dans la conversation : /timezone, /language, /checkins, /groups, /voice, /birthday.",
    },
    "setting_timezone": {"en": "Time zone", "fr": "Fuseau horaire"},
    "setting_language": {"en": "Language", "fr": "Langue"},
    "setting_checkins": {"en": "Check-ins", "fr": "Prises de nouvelles"},
    "setting_birthday_wishes": {"en": "Birthday wishes", "fr": "Vœux d'anniversaire"},
    "setting_groups": {"en": "Private memories in groups", "fr": "Souvenirs privés dans les groupes"},
    "setting_voice": {"en": "Voice replies", "fr": "Réponses vocales"},
    "on": {"en": "on", "fr": "activé"},
    "off": {"en": "off", "fr": "désactivé"},
    "language_en": {"en": "English", "fr": "anglais"},
    "language_fr": {"en": "French", "fr": "français"},
    "mood": {"en": "How you have been", "fr": "Comment tu vas"},
    "mood_show": {"en": "Show the chart of the last 30 days", "fr": "Voir le graphique des 30 derniers jours"},
    "mood_alt": {
        "en": "How your messages have felt over the last 30 days, and the patterns I believe I see.",
        "fr": "Ce que tes messages laissaient sentir ces 30 derniers jours, et les tendances que je crois voir.",
    },
    "newer": {"en": "‹ Newer", "fr": "‹ Plus récents"},
    "older": {"en": "Older ›", "fr": "Plus anciens ›"},
    "page_of": {"en": "Page {n} of {pages}", "fr": "Page {n} sur {pages}"},
    "skip": {"en": "Skip to my memories", "fr": "Aller à mes souvenirs"},
}

_UNITS = {
    "en": {"day": ("day", "days"), "week": ("week", "weeks"), "month": ("month", "months"), "year": ("year", "years")},
    "fr": {"day": ("jour", "jours"), "week": ("semaine", "semaines"), "month": ("mois", "mois"),
           "year": ("an", "ans")},
}  # fmt: skip


def language(code: str | None) -> str:
    return "fr" if (code or "").lower().startswith("fr") else "en"


def say(key: str, lang: str, **values: object) -> str:
    entry = TEXTS[key]
    return entry.get(lang, entry["en"]).format(**values)


def say_count(key: str, lang: str, count: int) -> str:
    """A text with a count in it: its form for none or one (`en_0`, `fr_1`, ...) where it has one."""
    entry = TEXTS[key]
    return entry.get(f"{lang}_{count}" if count in (0, 1) else "", entry.get(lang, entry["en"])).format(count=count)


def days_away(on: date, today: date, lang: str) -> str:
    """ "today", "tomorrow", "in 12 days"."""
    days = (on - today).days
    return say("today", lang) if days <= 0 else say("tomorrow", lang) if days == 1 else say("in_days", lang, n=days)


_MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
}  # fmt: skip


def on_day(moment: datetime, now: datetime, lang: str) -> str:
    """ "3 May" / "3 mai" (with the year when it is not this one's: "3 May 2025")."""
    day = moment.astimezone(now.tzinfo).date()
    months = _MONTHS[lang if lang in _MONTHS else "en"]
    shown = f"{day.day} {months[day.month - 1]}"
    if lang == "fr" and day.day == 1:
        shown = f"1er {months[day.month - 1]}"
    return shown if day.year == now.astimezone(now.tzinfo).year else f"{shown} {day.year}"


def relative(moment: datetime, now: datetime, lang: str) -> str:
    """ "today", "yesterday", "3 weeks ago" / "aujourd'hui", "hier", "il y a 3 semaines"."""
    days = (now.date() - moment.astimezone(now.tzinfo).date()).days
    if days <= 0:
        return "aujourd'hui" if lang == "fr" else "today"
    if days == 1:
        return "hier" if lang == "fr" else "yesterday"
    count, unit = (
        (days, "day") if days < 14 else (days // 7, "week") if days < 61 else
        (days // 30, "month") if days < 365 else (days // 365, "year")
    )  # fmt: skip
    words = _UNITS[lang if lang in _UNITS else "en"][unit][0 if count == 1 else 1]
    return f"il y a {count} {words}" if lang == "fr" else f"{count} {words} ago"
