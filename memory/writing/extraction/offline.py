"""Offline extraction (French and English patterns): always runs, needs no model, never fails.

It proposes facts (names, likes, dislikes, who is who, what the person does), mood observations and
sensitive topics, and dated things (via `bot.engine.when.dates`). Patterns stay conservative: a missed fact
still lives in the episodic memory of the message, a wrong one would be recalled as truth.
"""

from __future__ import annotations

import re
from datetime import datetime

from bot.engine.conversation.stated_name import NAME_STATEMENT, introduced_name
from memory.records import MemoryKind
from memory.words.text_caches import text_cache
from memory.writing.extraction.candidates import Candidate, unique
from memory.writing.extraction.dated import extract_dated
from memory.writing.extraction.lexicon import CHANGE, SENSITIVE
from memory.writing.extraction.named import named_people

# The people and animals closest to someone, said without a name: "my husband and I", "our kids", « mes enfants ».
_FAMILY = re.compile(
    r"\b(?:my|our|mon|ma|mes|nos|notre)\s+(?P<who>husband|wife|partner|boyfriend|girlfriend|kids|children|son|"
    r"daughter|mom|mum|mother|dad|father|sister|brother|dog|cat|puppy|kitten|mari|femme|copain|copine|enfants|"
    r"fils|fille|mère|père|sœur|soeur|frère|chien|chienne|chat|chatte)\b(?!'s\b|\s+(?:is called|named|called|"
    r"s'appelle|qui s'appelle)\b|,?\s+(?-i:[A-ZÀ-Ý]))",
    re.I,
)
_NAMED_BEFORE = re.compile(r"(?-i:[A-ZÀ-Ý])[\w'-]*,\s*$")  # "Miso, my cat, …": named already
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_MAX_FACT_WORDS = 30

_LIKE = re.compile(
    r"\b(?:i (?:really |absolutely |just )?(?:love|adore|like|enjoy|am into|'m into|am a fan of|'m a fan of|"
    r"am passionate about)|i'm (?:really )?into|"
    # A new hobby: "I've really gotten into woodworking", "I took up running", « je me suis mise à la poterie »
    # ("I got into Oxford", "I took up the offer" and « je me suis mis à pleurer » are none).
    r"i(?:'ve| have)? (?:really |recently |lately |kind of |kinda |totally |properly )?gotten (?:really |so |"
    r"super |kind of |kinda |totally |properly )?into|i(?:'ve| have)? got (?:really|so|super|totally|properly|"
    r"kind of|kinda) into|i (?:really|totally|properly) got into|i'm (?:really |slowly )?getting into|"
    r"i(?:'ve| have) been getting into|i(?:'ve| have)? (?:just |recently |finally )?(?:took|taken) up"
    r"(?!\s+(?:the|a|an|my|your|too|so|much|space|time|room)\b)|"
    r"je me suis (?:re)?mise? (?:à(?= la | l')|au|aux)|je me suis (?:lancée?|mise?) dans(?= la | le | l'| les )|"
    r"je me passionne pour|i'm (?:so |totally |really |kind of |kinda )?(?:obsessed with|"
    r"hooked on|addicted to|crazy about|a (?:big |huge )?fan of)|j'adore|j'aime(?: beaucoup| bien)?|je kiffe|"
    r"je suis (?:une? )?(?:grande? )?fan d[e']|je suis (?:trop |complètement )?(?:accro|addict) (?:à|au|aux)|"
    r"je suis dingue d[e']|je raffole d[e']|je suis passionnée? (?:de|par))\s+(?P<topic>[^,;]+)",
    re.I,
)
_DISLIKE = re.compile(
    r"\b(?:i (?:really )?(?:hate|dislike|can't stand|cannot stand|don't like|do not like|don't enjoy)|"
    r"i'm allergic to|i am allergic to|je déteste|je n'aime pas|j'aime pas|je supporte pas|"
    r"je ne supporte pas|je suis allergique (?:à|au|aux))\s+(?P<topic>[^,;]+)",
    re.I,
)
_NOT_ANYMORE = re.compile(
    r"\b(?:i (?:don't|do not) (?:like|love|enjoy|eat|drink) |je n'aime plus |j'aime plus |je ne mange plus |"
    r"je mange plus )(?P<topic>[^,;]+?)(?: anymore| any more)?\b",
    re.I,
)
_ABOUT = re.compile(
    r"\b(?:i'm (?:a |an )?(?:vegetarian|vegan|pescatarian)|i am (?:a |an )?(?:vegetarian|vegan)|"
    r"i(?:'m| am) (?:a|an) [a-z]+(?:ist|er|or|ian|ant|ent|nurse|doctor|chef|student|teacher)\b|"
    r"i work (?:as|at|in|for)|"
    # Teaching for a living ("I teach third grade", « j'enseigne le français »), not oneself or one's son.
    r"i(?:'m| am|'ve been| have been)? teach(?:ing)?\b(?!\s+(?:myself|yourself|himself|herself|themselves|"
    r"me|him|her|them|us|you|my (?:son|daughter|kids?|children|boy|girl|little|brother|sister|dog|cat|puppy|"
    r"nephew|niece))\b)|j'enseigne\b(?! à (?:mon|ma|mes)\b)|je suis (?:enseignante?|instit\w*|professeure?)|"
    r"je donne (?:des )?cours|i'm from|i am from|i study|i have (?:a|an|two|three) |i've got (?:a|an) |"
    r"we have (?:a|an|two|three) |we've got (?:a|an|two) |"
    # Studies and work said the way people say them: "I'm in my second year of law school", "I'm doing an
    # internship", « je suis en troisième année de médecine », « je fais un stage ».
    r"i(?:'m| am) (?:in|doing) (?:my |a |an )?(?:first|second|third|fourth|final|last|\w+th) year|"
    r"i(?:'m| am) (?:studying|doing (?:a|an|my) (?:internship|phd|master'?s|masters|degree|apprenticeship|residency))|"
    r"i(?:'m| am) (?:in|at) (?:law|med|medical|grad|nursing|art|business|high) school|"
    r"i (?:just )?(?:started|got) (?:a |my )?(?:new )?(?:job|internship|position)|"
    r"je suis en (?:première|deuxième|seconde|troisième|quatrième|cinquième|dernière|\w+ème) année|"
    r"je fais (?:un stage|une thèse|un master|une licence|un doctorat|des études|médecine|droit|une alternance)|"
    r"je suis (?:en stage|stagiaire|en alternance|en thèse|en master|en licence)|je bosse (?:comme|chez|à|dans)|"
    r"j'ai (?:commencé|trouvé|décroché) (?:un |mon |une )?(?:nouveau |nouvelle )?(?:boulot|job|travail|stage|poste)|"
    r"je suis (?:végétarien|végétalien|vegan|végane|infirmi|médecin|prof|étudiant|développeu|ingénieu|"
    r"avocat|artiste|retraité)|je travaille|je viens d|j'étudie|j'ai (?:un|une|deux|trois) )",
    re.I,
)
# Where the person lives: one place at a time, so a new one replaces the old ("I moved to Lyon").
_HOME = re.compile(
    r"\b(?:i (?:now |still )?live in|i'm living in|i am living in|i(?:'ve| have)? (?:just |recently )?moved to|"
    r"we(?:'ve| have)? (?:just |recently )?moved to|j'habite (?:maintenant |désormais )?(?:à|a|en|au|aux)|"
    r"je vis (?:maintenant |désormais )?(?:à|a|en|au|aux)|j'ai (?:déménagé|emménagé) (?:à|a|en|au|aux|sur)|"
    r"on a déménagé (?:à|a|en|au|aux)|je me suis installée? (?:à|a|en|au|aux)|je viens d'emménager (?:à|a|en|au))"
    r"\s+(?P<place>[^,;.!?]+)",
    re.I,
)
_MOVED = re.compile(r"\b(?:moved|déménagé|emménagé|installée?|emménager)\b", re.I)
_MOOD = re.compile(
    r"\b(?:i(?:'m| am)|i feel|i've been feeling|i'm feeling|je suis|je me sens)\s+(?:so |really |very |a bit |"
    r"kind of |tellement |très |trop |un peu |vraiment )?(?P<mood>sad|lonely|alone|depressed|anxious|stressed|"
    r"down|tired|exhausted|overwhelmed|scared|afraid|angry|upset|heartbroken|happy|excited|grateful|proud|"
    r"triste|seule?|déprimée?|angoissée?|stressée?|fatiguée?|épuisée?|perdue?|heureu(?:x|se)|contente?|"
    r"fière?|en colère|anxieu(?:x|se))\b",
    re.I,
)
_HARD_TIMES = re.compile(
    r"\b(?P<when>\w+days|weekends|nights|evenings|mornings|holidays|christmas|les \w+|le \w+|les soirées|"
    r"les nuits)\s+(?:are|is|sont|est)\s+(?:so |really |always |toujours |vraiment |si )?(?P<how>hard|tough|"
    r"difficult|rough|lonely|awful|durs?|dures?|difficiles?|compliquée?s?|horribles?)\b",
    re.I,
)
_TOPIC_END = re.compile(r"\s+(?:because|but|and i|when|parce que|mais|quand|car)\b.*$", re.I)
# When it started or how long it has been, said after a like: "running in January", « la poterie cet été ».
_WHEN_SAID = re.compile(
    r"\s+(?:anymore|any more|now|lately|these days|recently|at the moment|right now|désormais|maintenant|"
    r"en ce moment|ces temps-ci|depuis peu|(?:this|last) (?:year|summer|winter|spring|autumn|fall|month|week)|"
    r"(?:in|since) (?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"the (?:summer|winter|spring|autumn|fall))|cette année|cet (?:été|hiver|automne)|ce printemps|"
    r"(?:en|depuis) (?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre))$",
    re.I,
)
_SELF_TOPICS = re.compile(r"^(?:you|it|that|this|toi|te|ça|ca|cela)\b", re.I)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def _fact_text(sentence: str) -> str:
    words = sentence.split()
    return " ".join(words[:_MAX_FACT_WORDS])


def _topic(raw: str) -> str | None:
    topic = _TOPIC_END.sub("", raw).strip(" .!?\"'")
    topic = _WHEN_SAID.sub("", topic)
    if not topic or _SELF_TOPICS.match(topic) or len(topic.split()) > 8:
        return None
    return topic


def _facts(sentence: str) -> list[Candidate]:
    text = _fact_text(sentence)
    change = CHANGE.search(sentence) is not None
    found: list[Candidate] = []
    if name := (match["name"] if (match := NAME_STATEMENT.search(sentence)) else introduced_name(sentence)):
        found.append(Candidate(MemoryKind.SEMANTIC, text, "name", None, 0.9, topic=name, change=True))
    for name, who in named_people(sentence):
        found.append(Candidate(MemoryKind.SEMANTIC, text, "relationship", who, 0.8, topic=name))
    if (
        not found and not SENSITIVE.search(sentence) and (match := _FAMILY.search(sentence))
        and not _NAMED_BEFORE.search(sentence[: match.start()])
    ):
        found.append(Candidate(MemoryKind.SEMANTIC, text, "family", match["who"].lower(), 0.6))
    if (match := _NOT_ANYMORE.search(sentence)) and (topic := _topic(match["topic"])):
        found.append(Candidate(MemoryKind.SEMANTIC, text, "dislikes", None, 0.6, topic=topic, change=True))
    elif (match := _DISLIKE.search(sentence)) and (topic := _topic(match["topic"])):
        found.append(Candidate(MemoryKind.SEMANTIC, text, "dislikes", None, 0.6, topic=topic, change=change))
    elif (match := _LIKE.search(sentence)) and (topic := _topic(match["topic"])):
        found.append(Candidate(MemoryKind.SEMANTIC, text, "likes", None, 0.6, topic=topic, change=change))
    if match := _HOME.search(sentence):
        place = _TOPIC_END.sub("", match["place"]).strip(" .!?\"'")
        moved = change or _MOVED.search(match.group(0)) is not None
        found.append(Candidate(MemoryKind.SEMANTIC, text, "home", None, 0.8, topic=place or None, change=moved))
    if _ABOUT.search(sentence):
        found.append(Candidate(MemoryKind.SEMANTIC, text, "about", None, 0.7, change=change))
    return found


def _feelings(sentence: str) -> list[Candidate]:
    text = _fact_text(sentence)
    found: list[Candidate] = []
    if SENSITIVE.search(sentence):
        found.append(Candidate(MemoryKind.EMOTIONAL, text, "sensitive", None, 0.8, sensitive=True))
    elif match := _HARD_TIMES.search(sentence):
        found.append(Candidate(MemoryKind.EMOTIONAL, text, "hard times", None, 0.7, topic=match["when"]))
    elif match := _MOOD.search(sentence):
        found.append(Candidate(MemoryKind.EMOTIONAL, text, "mood", None, 0.5, topic=match["mood"].lower()))
    return found


def extract_offline(text: str, at: datetime, timezone: str, language: str) -> list[Candidate]:
    """Candidate memories in one message; questions are not statements of fact."""
    found: list[Candidate] = list(extract_dated(text, at, timezone, language))
    for sentence in sentences(text):
        if sentence.endswith("?"):
            continue
        found.extend(_facts(sentence))
        found.extend(_feelings(sentence))
    # "ma sœur se marie le mois prochain": the dated event already says who; no second memory for "sœur".
    dated_for = {c.subject for c in found if c.kind is MemoryKind.TEMPORAL}
    return unique([c for c in found if not (c.label == "family" and c.subject in dated_for)])


@text_cache(maxsize=256)
def offline_candidates(text: str, at: datetime, timezone: str, language: str) -> tuple[Candidate, ...]:
    """`extract_offline`, kept for the latest messages: a batch reads each message ahead (to embed what it
    will search for) and again as it writes it."""
    return tuple(extract_offline(text, at, timezone, language))
