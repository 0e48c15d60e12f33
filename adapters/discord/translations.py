"""French names and descriptions for the slash commands, handed to Discord when the command tree syncs.

Command names stay the same in every language on purpose: the French help text and the bot's own
messages refer to /memories, /forget… so a French user must see those names in the command picker too.
Descriptions, option names and choice names are translated.
"""

from __future__ import annotations

import discord
from discord import app_commands

FRENCH: dict[str, str] = {
    # command descriptions
    "What I remember about you": "Ce dont je me souviens sur toi",
    "Forget one memory, or everything": "Oublier un souvenir, ou tout",
    "Ask me to remember something": "Me demander de retenir quelque chose",
    "Tell me your birthday": "Me dire ton anniversaire",
    "Set your time zone": "Choisir ton fuseau horaire",
    "Let me check in when we haven't talked for a while": "Me laisser prendre de tes nouvelles de temps en temps",
    "Answer me with voice messages": "Me répondre par messages vocaux",
    "Whether what you tell me in private may come up in groups": (
        "Si ce que tu me dis en privé peut ressortir dans les groupes"
    ),
    "A copy of everything I keep about you": "Une copie de tout ce que je garde sur toi",
    "What is stored, where, and how to erase it": "Ce qui est stocké, où, et comment l'effacer",
    "What I can do": "Ce que je sais faire",
    "A chart of how your messages have felt (only you see it)": (
        "Un graphique de ce que tes messages laissaient sentir (toi seul·e le vois)"
    ),
    "The language I use with you": "La langue que j'utilise avec toi",
    "How I address you: name, pronouns, tu or vous": "Comment je m'adresse à toi : prénom, pronoms, tu ou vous",
    "Be one person on Telegram and Discord": "Être une seule personne sur Telegram et Discord",
    "Undo /link": "Annuler /link",
    "Tell me your age": "Me dire ton âge",
    "A picture of me": "Une photo de moi",
    "what": "quoi",
    "What the picture shows, e.g. at the beach at sunset": (
        "Ce que montre la photo, par ex. à la plage au coucher du soleil"
    ),
    # option names (lowercase, no spaces: Discord's rule for names)
    "memory": "souvenir",
    "text": "texte",
    "date": "date",
    "zone": "fuseau",
    "state": "etat",
    "page": "page",
    "language": "langue",
    "days": "jours",
    "setting": "reglage",
    "value": "valeur",
    "code": "code",
    "name": "prénom",
    "pronouns": "pronoms",
    "years": "annees",
    # option descriptions
    "A number from /memories, a memory id, or “all” to forget everything": (
        "Un numéro de /memories, un id de souvenir, ou « all » pour tout oublier"
    ),
    "A page number (1 is the newest), or “why” for what my last reply drew on": (
        "Un numéro de page (1 : les plus récents), ou « why » : sur quoi s'appuyait ma dernière réponse"
    ),
    "English, French, or the language you write in": "Anglais, français, ou la langue dans laquelle tu écris",
    "What I should remember": "Ce que je dois retenir",
    "Your birthday, e.g. March 14": "Ton anniversaire, ex. 14 mars",
    "A city or a zone such as Europe/Paris": "Une ville ou un fuseau comme Europe/Paris",
    "On or off": "Activées ou non",
    "How many days back (30 unless you say)": "Combien de jours en arrière (30 sinon)",
    "What to set": "Ce que tu veux régler",
    "The code /link gave you on your other account (empty: get a code here)": (
        "Le code que /link t'a donné sur ton autre compte (vide : obtenir un code ici)"
    ),
    "Your name or pronouns (empty: back to none)": "Ton prénom ou tes pronoms (vide : aucun)",
    "Your age in years": "Ton âge en années",
    # choice names
    "on": "activer",
    "off": "désactiver",
    "English": "Anglais",
    "French": "Français",
    "The one I write in": "Celle dans laquelle j'écris",
}


class FrenchTranslator(app_commands.Translator):
    """Answers Discord's French locale from `FRENCH`; every other locale keeps the English text."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.french:
            return None
        return FRENCH.get(string.message)
