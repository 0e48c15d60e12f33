"""What the memory commands say, in English and French: /remember, /memories and its buttons, /memories why,
/forget (one memory or everything) and /export.
"""

from __future__ import annotations

MEMORIES: dict[str, dict[str, str]] = {
    "usage_remember": {
        "en": "Usage: /remember <something to remember>",
        "fr": "Usage : /remember <ce que je dois retenir>",
    },
    "usage_forget": {
        "en": "Usage: /forget <number from /memories>, /forget <memory id> or /forget all",
        "fr": "Usage : /forget <numéro dans /memories>, /forget <id du souvenir> ou /forget all",
    },
    "usage_memories": {
        "en": "Usage: /memories, or /memories <page number> such as /memories 2",
        "fr": "Usage : /memories, ou /memories <numéro de page> comme /memories 2",
    },
    "memories_no_page": {
        "en": "There's no page {page}: the last one is {pages} (/memories {pages}).",
        "fr": "Il n'y a pas de page {page} : la dernière est la {pages} (/memories {pages}).",
    },
    "memory_superseded": {"en": "(no longer true)", "fr": "(plus d'actualité)"},
    "forget_no_number": {
        "en": "There's no number {n} on the last page I showed you (it had {count}). /memories shows it again.",
        "fr": "Il n'y a pas de numéro {n} sur la dernière page que je t'ai montrée (elle en avait {count}). "
        "/memories la remontre.",
    },
    "forget_no_such_number": {
        "en": "I have no memory number {n}: /memories shows them with their numbers.",
        "fr": "Je n'ai pas de souvenir numéro {n} : /memories les montre avec leurs numéros.",
    },
    "forgot_this": {"en": "Forgotten: “{text}”", "fr": "Oublié : « {text} »"},
    "forgot_already": {"en": "That one is already forgotten.", "fr": "Celui-là est déjà oublié."},
    "remembered": {"en": "Got it, I'll remember that.", "fr": "C'est noté, je m'en souviendrai."},
    "memories_empty": {
        "en": "I don't remember anything about you yet.",
        "fr": "Je ne me souviens encore de rien sur toi.",
    },
    "memories_header": {
        "en": "What I remember ({first}–{last} of {total}):",
        "fr": "Ce dont je me souviens ({first}–{last} sur {total}) :",
    },
    "forgot_one": {"en": "Forgotten.", "fr": "Oublié."},
    "forgot_none": {"en": "I have no memory with that id.", "fr": "Je n'ai aucun souvenir avec cet identifiant."},
    "forget_all_confirm": {
        "en": "Forget everything I know about you? This can't be undone.",
        "fr": "Tout oublier de ce que je sais sur toi ? C'est irréversible.",
    },
    "forgot_all": {"en": "Done. I've forgotten everything about you.", "fr": "C'est fait. J'ai tout oublié de toi."},
    "forget_all_failed": {
        "en": "I couldn't erase everything just now. Please try again in a moment.",
        "fr": "Je n'ai pas pu tout effacer pour l'instant. Réessaie dans un moment.",
    },
    "forget_cancelled": {"en": "Okay, I've kept everything.", "fr": "D'accord, je garde tout."},
    "export_caption": {"en": "Everything I keep about you.", "fr": "Tout ce que je garde sur toi."},
    "button_next": {"en": "Next ›", "fr": "Suivant ›"},
    "button_previous": {"en": "‹ Previous", "fr": "‹ Précédent"},
    "button_forget_this": {"en": "Forget #{n}", "fr": "Oublier n°{n}"},
    "button_confirm_forget_all": {"en": "Yes, forget everything", "fr": "Oui, tout oublier"},
    "button_cancel": {"en": "Cancel", "fr": "Annuler"},
    "why_header": {
        "en": "My last reply drew on these memories of you:",
        "fr": "Ma dernière réponse s'appuyait sur ces souvenirs de toi :",
    },
    "why_footer": {
        "en": "Something wrong or private? /forget <number> forgets it.",
        "fr": "Quelque chose de faux ou de privé ? /forget <numéro> l'oublie.",
    },
    "why_nothing": {
        "en": "My last reply didn't draw on anything I remember about you.",
        "fr": "Ma dernière réponse ne s'appuyait sur aucun de mes souvenirs de toi.",
    },
    "why_no_reply": {
        "en": "I haven't replied to you here lately. After my next reply, /memories why shows what it drew on.",
        "fr": "Je ne t'ai pas répondu ici récemment. Après ma prochaine réponse, /memories why montre sur quoi "
        "elle s'appuyait.",
    },
    "why_kind_semantic": {"en": "fact", "fr": "fait"},
    "why_kind_episodic": {"en": "something you said", "fr": "ce que tu m'as dit"},
    "why_kind_emotional": {"en": "feeling", "fr": "ressenti"},
    "why_kind_temporal": {"en": "date", "fr": "date"},
    "export_not_written": {
        "en": "I couldn't write the export to {path}: {reason}. Try another path, or /export alone to print it.",
        "fr": (
            "Je n'ai pas pu écrire l'export dans {path} : {reason}. Essaie un autre chemin, "
            "ou /export seul pour l'afficher."
        ),
    },
}
