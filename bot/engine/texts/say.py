"""Everything Souvenir says in its own voice (not the LLM's), in English and French.

`say(key, language, **values)` picks the language, falling back to English.
"""

from __future__ import annotations

_TEXTS: dict[str, dict[str, str]] = {
    "disclosure": {
        "en": "(Just so you know: I'm an AI companion, not a person.)",
        "fr": "(Pour que tu le saches : je suis une IA, pas une personne.)",
    },
    "fallback": {
        "en": "Sorry, I can't think straight right now. Give me a moment and write to me again?",
        "fr": "Désolé, je n'arrive pas à réfléchir pour l'instant. Tu me réécris dans un moment ?",
    },
    "late_reply": {
        "en": "Sorry for the late reply, I was away for a moment.",
        "fr": "Désolé pour ce retard, je me suis absenté un moment.",
    },
    "rate_limited": {
        "en": "You're writing faster than I can think! Give me a minute to catch up, then I'm all yours.",
        "fr": "Tu écris plus vite que je ne réfléchis ! Laisse-moi une minute pour suivre, et je suis tout à toi.",
    },
    "command_gone": {
        "en": "That command no longer exists — /help lists the ones I have.",
        "fr": "Cette commande n'existe plus — /help liste celles que j'ai.",
    },
    "button_expired": {
        "en": "This button has expired. Run the command again (/help lists them all).",
        "fr": "Ce bouton a expiré. Relance la commande (/help les liste toutes).",
    },
    "start": {
        "en": (
            "Hi{name}! I'm {bot}, an AI companion. I remember what you share with me — the people and "
            "things you care about, dates that matter — so we can pick up where we left off. "
            "You stay in control: /memories shows what I keep, /forget erases it, /export gives you a copy, "
            "/privacy explains where it lives. /help lists everything."
        ),
        "fr": (
            "Salut{name} ! Je suis {bot}, une IA de compagnie. Je me souviens de ce que tu me confies — les "
            "gens et les choses qui comptent pour toi, les dates importantes — pour qu'on reprenne là où on "
            "en était. Tu gardes la main : /memories montre ce que je garde, /forget l'efface, /export t'en "
            "donne une copie, /privacy explique où c'est stocké. /help liste tout."
        ),
    },
    "help": {
        "en": (
            "Just talk to me. Commands:\n"
            "/memories [page] — what I remember about you\n"
            "/memories why — the memories my last reply drew on\n"
            "/remember <text> — ask me to remember something\n"
            "/forget <number>|all — forget one memory (its number in /memories), or everything\n"
            "/birthday <date> — tell me your birthday\n"
            "/timezone <zone or city> — your time zone, e.g. Europe/Paris\n"
            "/checkins on|off — let me check in when we haven't talked for a while\n"
            "/groups on|off — whether what you tell me in private may come up in group chats (off by default)\n"
            "/language en|fr|auto — the language I use with you (auto: the one you write in)\n"
            "/mood [days] — a chart of how your messages have felt (only you see it)\n"
            "/profile name|pronouns|tu|vous — how you want me to address you\n"
            "/age <years> — your age (under 18: conversations suited to your age)\n"
            "/voice on|off — I answer you with voice notes (off by default)\n"
            "/picture <what> — a picture of me (when the operator turned pictures on)\n"
            "/link [code] — be the same person to me on Telegram and Discord; /unlink undoes it\n"
            "/export — a copy of everything I keep about you\n"
            "/privacy — what is stored, where, and how to erase it"
        ),
        "fr": (
            "Parle-moi simplement. Commandes :\n"
            "/memories [page] — ce dont je me souviens sur toi\n"
            "/memories why — les souvenirs sur lesquels s'appuyait ma dernière réponse\n"
            "/remember <texte> — me demander de retenir quelque chose\n"
            "/forget <numéro>|all — oublier un souvenir (son numéro dans /memories), ou tout\n"
            "/birthday <date> — me dire ton anniversaire\n"
            "/timezone <fuseau ou ville> — ton fuseau horaire, ex. Europe/Paris\n"
            "/checkins on|off — me laisser prendre de tes nouvelles quand on ne s'est pas parlé depuis un moment\n"
            "/groups on|off — si ce que tu me dis en privé peut ressortir dans les groupes (non par défaut)\n"
            "/language fr|en|auto — la langue que j'utilise avec toi (auto : celle dans laquelle tu écris)\n"
            "/mood [jours] — un graphique de ce que tes messages laissaient sentir (toi seul·e le vois)\n"
            "/profile name|pronouns|tu|vous — comment tu veux que je m'adresse à toi\n"
            "/age <années> — ton âge (moins de 18 ans : des conversations adaptées à ton âge)\n"
            "/voice on|off — je te réponds par messages vocaux (désactivé par défaut)\n"
            "/picture <quoi> — une photo de moi (si l'hébergeur a activé les images)\n"
            "/link [code] — être la même personne pour moi sur Telegram et Discord ; /unlink l'annule\n"
            "/export — une copie de tout ce que je garde sur toi\n"
            "/privacy — ce qui est stocké, où, et comment l'effacer"
        ),
    },
    "privacy": {
        "en": (
            "What I keep: nothing outside the server of whoever runs this bot.\n"
            "• in its Redis database: your settings (name, language, time zone, birthday, age, check-ins, group "
            "sharing, the accounts you linked with /link), our recent messages in each chat (they expire after "
            "{window_hours} hours of silence), "
            "which of your memories my last replies drew on (/memories why; kept as long), how each of your "
            "messages felt (kept 400 days, for you alone: /mood) and the schedule of my unprompted messages;\n"
            "• in its Qdrant memory index: memories drawn from what you tell me (your messages, facts, dates, "
            "moods).\n"
            "Voice notes you send are turned into text and kept as text; the audio is not kept unless the "
            "operator chose to. Of the pictures I send, only a daily count and what they showed are kept.\n"
            "The language model it is configured with sees the messages and memories needed to answer. "
            "Memories from our private chats come up in group chats only if you turn that on with /groups on.\n"
            "/export gives you a copy. Forgetting one memory (/memories, /forget) also forgets the message it "
            "was drawn from (or, for a message, what I drew from it) and takes its words out of the memories "
            "around it and out of our recent messages. /forget all erases all of the above, "
            "including your messages in group chats and my replies to them; what was still being written "
            "when you asked is dropped too. What stays: for a day, a counter and the ids of forgotten memories "
            "under a one-way hash of your id (so that nothing in flight comes back); the ids of group messages "
            "already answered, for a week, without their text; and the deleted text inside the memory index's "
            "files until its storage is next rewritten. Backups the operator makes and the language model "
            "provider's own logs are out of my reach."
        ),
        "fr": (
            "Ce que je garde : rien en dehors du serveur de la personne qui héberge ce bot.\n"
            "• dans sa base Redis : tes réglages (nom, langue, fuseau, anniversaire, âge, nouvelles, partage dans "
            "les groupes, les comptes liés avec /link), nos messages récents de chaque conversation (ils expirent "
            "après {window_hours} heures de "
            "silence), les souvenirs sur lesquels s'appuyaient mes dernières réponses (/memories why ; gardés "
            "aussi longtemps), ce que chacun de tes messages laissait sentir (gardé 400 jours, pour toi seul·e : "
            "/mood) et le calendrier de mes messages spontanés ;\n"
            "• dans son index de souvenirs Qdrant : les souvenirs tirés de ce que tu me racontes (tes messages, "
            "faits, dates, humeurs).\n"
            "Tes messages vocaux sont transcrits et gardés en texte ; l'audio n'est gardé que si l'hébergeur l'a "
            "choisi. Des images que je t'envoie, je ne garde qu'un compte par jour et ce qu'elles montraient.\n"
            "Le modèle de langage configuré voit les messages et souvenirs nécessaires pour répondre. Les "
            "souvenirs de nos conversations privées ne ressortent dans les groupes que si tu l'actives avec "
            "/groups on.\n"
            "/export t'en donne une copie. Oublier un souvenir (/memories, /forget) oublie aussi le message d'où "
            "il vient (ou, pour un message, ce que j'en ai tiré) et retire ses mots des souvenirs voisins et de "
            "nos messages récents. /forget all efface tout cela, y compris tes messages "
            "dans les groupes et mes réponses à ceux-ci ; ce qui était encore en cours d'écriture au moment de "
            "ta demande est abandonné aussi. Ce qui reste : pendant un jour, un compteur et les identifiants des "
            "souvenirs oubliés sous une empreinte irréversible de ton identifiant (pour que rien en cours ne "
            "revienne) ; les identifiants des messages de groupe déjà traités, pendant une semaine, sans leur "
            "texte ; et le texte effacé dans les fichiers de l'index de souvenirs jusqu'à sa prochaine "
            "réécriture. Les sauvegardes faites par l'hébergeur et les journaux du fournisseur du modèle de "
            "langage échappent à mon contrôle."
        ),
    },
    "usage_remember": {
        "en": "Usage: /remember <something to remember>",
        "fr": "Usage : /remember <ce que je dois retenir>",
    },
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
    "remembered": {"en": "Got it, I'll remember that.", "fr": "C'est noté, je m'en souviendrai."},
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
    "export_not_written": {
        "en": "I couldn't write the export to {path}: {reason}. Try another path, or /export alone to print it.",
        "fr": (
            "Je n'ai pas pu écrire l'export dans {path} : {reason}. Essaie un autre chemin, "
            "ou /export seul pour l'afficher."
        ),
    },
}


def say_in(table: dict[str, dict[str, str]], key: str, language: str | None, /, **values: object) -> str:
    """`key`'s text from `table` in `language` (English when there is none), with `values` filled in."""
    variants = table[key]
    text = variants.get(language or "en") or variants["en"]
    return text.format(**values) if values else text


def say(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_TEXTS, key, language, **values)
