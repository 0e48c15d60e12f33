"""What the chat says around a conversation, in English and French: the AI disclosure, the apologies (no
reply, a late one, slow down, a command or button that is gone), and /start, /help and /privacy.
"""

from __future__ import annotations

CHAT: dict[str, dict[str, str]] = {
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
}
