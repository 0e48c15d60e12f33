"""Which recalled messages are worth a line in the prompt.

Every message is kept as an episode and stays searchable, but some say nothing about the person: small talk
("ok", "lol", "merci !"), a question asking the companion about themself ("what's my cat's name again?",
"c'est quoi déjà le nom de mon chat ?"), or text trying to give the companion orders ("ignore previous
instructions…"). Shown as background, they would read as facts and take the place of ones that are. Facts
read from messages are always worth showing: extraction already decided they say something.
"""

from __future__ import annotations

import re

from memory.records import MemoryKind, MemoryRecord
from memory.words.sparse import tokenize
from memory.words.text_caches import TEXTS_KEPT, text_cache
from memory.writing.episodes import shown_text
from memory.writing.extraction.offline import sentences

# Words that carry no content on their own: acknowledgements, greetings, laughter, interjections.
_FILLER = frozenset(
    "ok okay okey k kk lol lmao haha hahaha hehe hihi mdr ptdr xd thanks thank thx ty merci cool nice great "
    "yes yeah yep yup no nope nah oui ouais non nan daccord accord bien super top génial genial parfait sure "
    "right alright fine good bon hmm hm mmh wow oh ah eh uh euh bah ben bye hi hello hey salut coucou bonjour "
    "bonsoir yo sorry pardon désolé désolée lovely awesome amazing indeed vraiment grave trop exactly exactement "
    "true vrai same pareil "
    # Greetings and goodbyes: "Take care and have a good one!", "Haha I will. Talk later!", "bonne nuit !"
    "take care talk later soon one ttyl ttys cya bye goodbye see night morning evening weekend gn gm np xoxo "
    "welcome bonne bon nuit journée journee soirée soiree bientôt bientot plus ciao tchao bisous bises biz "
    "bisou tomorrow demain".split()
)
# Goodbyes and how-are-yous whose words carry content elsewhere ("I can't sleep", "my day was awful"):
# "Sleep well!", "Have a nice day!", "Catch you later!", "hi! how are you today?", « dors bien », « à plus tard ».
_PLEASANTRIES = re.compile(
    r"(?<!n't )(?<!not )(?<!je )(?<!ne )\b(?:sleep (?:well|tight)|sweet dreams|"
    r"catch (?:you|ya|u) (?:later|soon|tomorrow)|"
    r"have an? (?:nice|great|good|lovely|wonderful|fun) (?:day|night|evening|afternoon|morning|weekend|week|time)|"
    r"how (?:are|r) (?:you|u)(?: doing)?(?: today| tonight)?|how's it going|"
    r"dors bien|fais de beaux rêves|à plus tard|a plus tard|à tout à l'heure|à la prochaine|"
    r"prends soin de toi|passe une bonne (?:journée|soirée|nuit|semaine)|"
    r"comment (?:ça|ca) va(?: aujourd'hui)?|comment vas-tu|tu vas bien)\b",
    re.I,
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|me|my|mine|je|j'\w*|moi|mon|ma|mes|m'\w*)\b", re.I)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|you're|u|tu|toi|ton|ta|tes|vous|votre|vos|t'\w*)\b", re.I)
_INSTRUCTIONS = re.compile(
    r"\b(?:ignore|disregard|forget) (?:all |any |the |your )?(?:previous|prior|above|earlier) "
    r"(?:instructions|prompts?|rules)|\bsystem prompt\b|\byou are now (?:a|an|my|dan)\b|\bdeveloper mode\b|\bjailbreak|"
    r"\bignore (?:toutes )?(?:tes|vos|les) (?:instructions|consignes|règles)|\boublie (?:tes|vos|les) "
    r"(?:instructions|consignes|règles)|\bprompt système\b|\btu es maintenant (?:un|une|mon|ma)\b",
    re.I,
)


def content_words(text: str) -> list[str]:
    """The words that carry something: no stopwords, no acknowledgements, greetings, goodbyes or how-are-yous."""
    return [token for token in tokenize(_PLEASANTRIES.sub(" ", text)) if token not in _FILLER]


def _content_free(text: str) -> bool:
    return not content_words(text)


def _asks_about_themself(text: str) -> bool:
    """Only questions, about the person ("what's my cat's name again?"), none about the other."""
    said = sentences(text)
    return (
        bool(said)
        and all(s.endswith("?") for s in said)
        and _FIRST_PERSON.search(text) is not None
        and _SECOND_PERSON.search(text) is None
    )


@text_cache(maxsize=TEXTS_KEPT)
def _worth(text: str) -> bool:
    return not (_content_free(text) or _asks_about_themself(text) or _INSTRUCTIONS.search(text))


def says_something(text: str) -> bool:
    """A message worth picking a conversation up from: worth showing, and not only questions ("how are you?")."""
    said = [s for s in sentences(text) if not _content_free(s)]
    return _worth(text) and bool(said) and not all(s.endswith("?") for s in said)


def worth_showing(record: MemoryRecord) -> bool:
    """False for a message that would only take a fact's place in the prompt (it stays stored and searchable)."""
    return record.kind is not MemoryKind.EPISODIC or _worth(shown_text(record))
