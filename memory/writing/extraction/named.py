"""Who is named in what a person says of their own life, and as what: "my sister Léa", "we have a cat named
Pickles", "we just had a baby girl, her name is Zara", "we adopted a golden retriever called Mango", "we have
two cats, Pixel and Nougat", « on vient d'avoir un petit garçon, il s'appelle Gaspard », « j'ai deux lapins,
Cannelle et Muscade ».

Only the person's own: "my friend's dog is called Rex", « le chat de ma copine s'appelle Filou » or "my friend
adopted a dog called Rex" name no one of theirs.
"""

from __future__ import annotations

import re

from memory.writing.extraction.lexicon import NAMED_RELATION, PETS, RELATIONS

_NAME = r"[A-ZÀ-Ý][a-zà-ÿ-]+"
# Having someone: "we have", "I've got", « j'ai », « on a ».
_HAVE = r"(?:i|we)(?: also| still| now)? (?:have|have got|got)|(?:i|we)'ve (?:also |still )?got|j'ai|on a|nous avons"
# Someone new in a life: a birth, an adoption, a rescue ("we just had", "I rescued", « on vient d'avoir »).
_NEW = (
    r"(?:i|we)(?:'ve| have)? (?:just |recently |finally |also )?(?:adopted|rescued|welcomed|took in|brought home)|"
    r"(?:i|we)(?:'ve| have)? (?:just|recently) had|"
    r"(?:j'ai|on a|nous avons) (?:aussi |également |enfin )?(?:adopté|recueilli|sauvé|accueilli|eu)|"
    r"(?:je viens|on vient|nous venons) d'(?:avoir|adopter|accueillir|recueillir)"
)
_CHILD = r"baby|girl|boy|bébé|fille|garçon"
_ONE = r"(?:a|an|un|une|another|our|notre)\s+"
_ADJ = (
    r"(?:(?:little|new|old|big|baby|younger|older|tiny|sweet|rescue|petite?|vieux|vieille|grande?|jeune|nouvelle|"
    r"nouveau)\s+)?"
)
_ALSO = r"(?:\s+(?:too|as well|also|aussi))?"
# What names them: "named", "called", « qui s'appelle », « qu'on a appelé ».
_NAMING = (
    r"\s+(?:named|called|who's called|who is called|we (?:called|named)|qui s'appelle|nommée?|appelée?|"
    r"prénommée?|qu'on a (?:appelée?|nommée?)|que j'ai (?:appelée?|nommée?)|que nous avons (?:appelée?|nommée?))\s+"
)
# Said after them: ", her name is Zara", ", she's called Maple", « , elle s'appelle Lou » (a few words before).
_LATER = (
    r"(?:\s+[\wà-ÿ'-]+){0,3}?,\s*(?:(?:her|his|its|their) name(?:'s| is)|(?:she|he|it)(?:'s| is) called|"
    r"(?:elle|il) s'appelle|(?:elle|il) se nomme)\s+"
)
# Someone one has or who is new: a relative, a pet or a child, by their name.
_HAS_NAMED = re.compile(
    rf"\b(?i:(?:{_HAVE})(?:\s+(?:also|aussi|également))?|{_NEW})\s+(?i:{_ONE}{_ADJ})"
    rf"(?P<who>(?i:{RELATIONS}|{PETS}|{_CHILD})){_ALSO}(?:(?i:{_NAMING}|{_LATER})|,\s*)(?P<name>{_NAME})\b"
)
# Someone new one names, whatever they are: "we adopted a three-legged cat named Tripod", "a rescue greyhound".
_NEW_NAMED = re.compile(
    rf"\b(?i:{_NEW})\s+(?i:{_ONE})(?P<who>(?:[a-zà-ÿ'-]+\s+){{0,2}}?[a-zà-ÿ'-]+){_ALSO}(?i:{_NAMING}|{_LATER})"
    rf"(?P<name>{_NAME})\b"
)
_MANY = r"two|three|four|five|2|3|4|5|deux|trois|quatre|cinq"
_PLURALS = (
    r"cats|dogs|kittens|puppies|rabbits|bunnies|hamsters|guinea pigs|ferrets|budgies|birds|fish|goldfish|"
    r"tortoises|turtles|horses|ponies|goats|chickens|hens|kids|children|sons|daughters|boys|girls|sisters|brothers|"
    r"chats|chattes|chiens|chiennes|chatons|chiots|lapins|cochons d'inde|furets|perruches|tortues|chevaux|poneys|"
    r"poules|enfants|fils|filles|garçons|sœurs|soeurs|frères"
)
# Several at once: "we have two cats, Pixel and Nougat", « on a trois enfants : Léo, Ava et Malo ».
_MANY_NAMED = re.compile(
    rf"\b(?i:(?:{_HAVE})(?:\s+(?:also|aussi|également))?)\s+(?i:{_MANY})\s+(?i:{_ADJ})(?P<who>(?i:{_PLURALS}))"
    rf"(?:\s*[,:—–-]|(?i:\s+(?:named|called|qui s'appellent|nommés|appelés)))?\s+"
    rf"(?P<names>{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?i:and|et|&)\s+{_NAME})\b"
)
# "le chat de ma copine s'appelle Filou": the name is the cat's, not the friend's.
_SOMEONE_ELSES = re.compile(r"\b(?:de|d'|du|of)\s*$", re.I)
_NAMED_BY_VERB = re.compile(r"(?:called|named|s'appelle|nommée?)\s+\S+$", re.I)

_AS_RELATION = {
    "girl": "daughter", "boy": "son", "garçon": "fils",
    "children": "child", "puppies": "puppy", "bunnies": "bunny", "ponies": "pony", "chevaux": "cheval",
    "soeurs": "sœur", "fils": "fils", "fish": "fish", "goldfish": "goldfish",
}  # fmt: skip
_KNOWN = re.compile(rf"(?:{RELATIONS}|{PETS}|{_CHILD})", re.I)


def _one(word: str) -> str:
    """A word of a plural as one of them: "cats" "cat", "puppies" "puppy", "chevaux" "cheval"."""
    return _AS_RELATION.get(word, word[:-1] if word.endswith("s") else word)


def _relation(said: str, *, many: bool = False) -> str:
    """Who someone is, in a word or two: "greyhound" of "rescue greyhound", "guinea pig" of "guinea pigs",
    "son" of "boy"; as they said it when it is no word the lexicon knows ("axolotl")."""
    words = [_one(w) if many else w for w in said.lower().split()]
    for end in range(len(words), 0, -1):
        for size in (2, 1):  # "guinea pig", "cochon d'inde" before a word of them
            if end >= size and _KNOWN.fullmatch(known := " ".join(words[end - size : end])):
                return _AS_RELATION.get(known, known)
    return _AS_RELATION.get(words[-1], words[-1])


def named_people(text: str) -> list[tuple[str, str]]:
    """(name, relation) of each relative, child or pet of the person's own that `text` names, each name once."""
    found: list[tuple[str, str]] = []
    for m in NAMED_RELATION.finditer(text):
        if _SOMEONE_ELSES.search(text, 0, m.start()) and _NAMED_BY_VERB.search(m.group(0)):
            continue
        found.append((m["name"], m["who"].lower()))
    for pattern in (_HAS_NAMED, _NEW_NAMED):
        found += [(m["name"], _relation(m["who"])) for m in pattern.finditer(text)]
    for m in _MANY_NAMED.finditer(text):
        relation = _relation(m["who"], many=True)
        found += [(name, relation) for name in re.findall(_NAME, m["names"])]
    once: dict[str, str] = {}
    for name, relation in found:
        once.setdefault(name, relation)
    return list(once.items())
