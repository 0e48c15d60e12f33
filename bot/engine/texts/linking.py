"""What /link and /unlink say, in English and French (the rules are in `bot.engine.commands.linking`).
"""

from __future__ import annotations

LINKING: dict[str, dict[str, str]] = {
    # One person, two platforms (/link, /unlink): rules in bot.engine.commands.linking.
    "link_code": {
        "en": (
            "Your link code: {code}\nOn your other account (Telegram or Discord), send me /link {code} within "
            "10 minutes. It works once. Keep it to yourself: whoever sends it gets your memories."
        ),
        "fr": (
            "Ton code de liaison : {code}\nSur ton autre compte (Telegram ou Discord), envoie-moi /link {code} "
            "dans les 10 minutes. Il ne sert qu'une fois. Garde-le pour toi : qui l'envoie reçoit tes souvenirs."
        ),
    },
    "link_code_limited": {
        "en": "That's a lot of link codes for one hour. Use the last one, or try again later.",
        "fr": "Ça fait beaucoup de codes de liaison en une heure. Utilise le dernier, ou réessaie plus tard.",
    },
    "link_linked": {
        "en": "Linked! This account now shares your memories, settings and schedule with your other one.",
        "fr": "C'est lié ! Ce compte partage maintenant tes souvenirs, réglages et rendez-vous avec l'autre.",
    },
    "link_invalid": {
        "en": "That code doesn't work (wrong, or already used). Ask for a new one with /link on your other account.",
        "fr": "Ce code ne marche pas (erroné ou déjà utilisé). Demandes-en un nouveau avec /link sur ton autre compte.",
    },
    "link_expired": {
        "en": "That code has expired (10 minutes). Ask for a new one with /link on your other account.",
        "fr": "Ce code a expiré (10 minutes). Demandes-en un nouveau avec /link sur ton autre compte.",
    },
    "link_same_platform": {
        "en": "A link code is for your account on the other platform; this one is on the same one. It is used up.",
        "fr": "Un code de liaison sert sur ton compte de l'autre plateforme, pas sur celle-ci. Il est épuisé.",
    },
    "link_already_linked": {
        "en": "This account is already linked. /unlink first if you want to link it elsewhere.",
        "fr": "Ce compte est déjà lié. Fais d'abord /unlink si tu veux le lier ailleurs.",
    },
    "link_platform_taken": {
        "en": "That person already has an account linked on this platform. The code is used up.",
        "fr": "Cette personne a déjà un compte lié sur cette plateforme. Le code est épuisé.",
    },
    "link_has_memories": {
        "en": (
            "This account already has memories of its own, and I never mix two sets. Link the other way "
            "round (/link here, then /link CODE on the other account), or /export and /forget all here first."
        ),
        "fr": (
            "Ce compte a déjà ses propres souvenirs, et je ne mélange jamais deux ensembles. Lie dans l'autre "
            "sens (/link ici, puis /link CODE sur l'autre compte), ou fais /export puis /forget all ici d'abord."
        ),
    },
    "link_tries_limited": {
        "en": "Too many link codes tried for one hour. Try again later.",
        "fr": "Trop de codes de liaison essayés en une heure. Réessaie plus tard.",
    },
    "link_unavailable": {
        "en": "Linking accounts works between Telegram and Discord, not in the terminal chat.",
        "fr": "La liaison de comptes marche entre Telegram et Discord, pas dans le chat du terminal.",
    },
    "unlink_done": {
        "en": (
            "Unlinked. Your memories stay with the account where you first asked for the link code; the "
            "other account starts afresh."
        ),
        "fr": (
            "C'est délié. Tes souvenirs restent avec le compte où tu avais demandé le code de liaison ; "
            "l'autre compte repart de zéro."
        ),
    },
    "unlink_not_linked": {
        "en": "This account isn't linked to another one.",
        "fr": "Ce compte n'est lié à aucun autre.",
    },
}
