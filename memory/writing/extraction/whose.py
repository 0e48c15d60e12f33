"""Whose a dated thing is: the person's own ("my birthday"), someone's they name ("my sister's wedding", "her
birthday" after "my grandmother Zoé"), or nobody's we can tell ("sa fête est le 3 mars", no one named).

It matters most for birthdays: one taken for the person's own gets them a "happy birthday" on someone
else's day. So a birthday or anniversary is theirs only when they say so ("my", "mon", "our"); one that
belongs to someone not named is left to the message's episode rather than stored as anybody's date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.writing.extraction.lexicon import MY_RELATION, NAME_POSSESSIVE, NAMED_RELATION, PETS, RELATIONS


@dataclass(frozen=True, slots=True)
class Owner:
    subject: str | None  # None: the person themself (when `known`)
    known: bool = True  # False: someone else's, but whose the message does not say


OWN = Owner(None)
UNKNOWN = Owner(None, known=False)

# A possessive right before the label, a couple of words allowed between ("my 30th birthday", "sa grande fête").
_MINE = re.compile(r"\b(?:my|mon|ma|our|notre|nos)\s+(?P<between>(?:[\w'-]+\s+){0,2})$", re.I)
_THEIRS = re.compile(r"\b(?:her|his|their|sa|son|ses|leur|leurs)\s+(?:[\w-]+\s+){0,2}$", re.I)
_SOMEONE = re.compile(rf"^(?:{RELATIONS}|{PETS})\b|'s\b", re.I)  # "my sister's birthday" is not "my birthday"


def _last_named(before: str) -> str | None:
    """The person a "her"/"sa" points back to: the last relative named in the message, by their name when
    given ("my grandmother Zoé" → "Zoé"), else by who they are ("my mum" → "mum")."""
    named = [(m.start(), m["name"]) for m in NAMED_RELATION.finditer(before)]
    related = [(m.start(), m["who"].lower()) for m in MY_RELATION.finditer(before)]
    if not named and not related:
        return None
    # A relation and its name start at the same "my": the name wins.
    return max(named + related, key=lambda found: (found[0], found in named))[1]


def whose(text: str, window_start: int, label_at: int, *, yearly: bool) -> Owner:
    """The owner of the dated thing whose label starts at `label_at` in `text`; the relative or name nearest
    before the label ("my sister's wedding", "Marc's birthday") is looked for from `window_start`, else
    after it ("l'anniversaire de ma mère")."""
    before, after = text[window_start:label_at], text[label_at:]
    mine = _MINE.search(before)
    if mine is not None and not _SOMEONE.search(mine["between"]):
        return OWN
    if _THEIRS.search(before):
        subject = _last_named(text[:label_at])
        return Owner(subject) if subject is not None else UNKNOWN
    candidates = list(MY_RELATION.finditer(before))
    if candidates:
        return Owner(candidates[-1]["who"].lower())
    names = [m for m in NAME_POSSESSIVE.finditer(before) if m["who"]]
    if names and names[-1].end() >= len(before) - 2:
        return Owner(names[-1]["who"])
    if match := MY_RELATION.search(after[:40]):
        return Owner(match["who"].lower())
    if (match := NAME_POSSESSIVE.search(after[:30])) and match["who2"]:
        return Owner(match["who2"])
    # "Birthday on March 3" says neither whose nor that it is theirs; an exam or an interview is theirs.
    return UNKNOWN if yearly else OWN


_YEARLY_WORDS = re.compile(r"\b(?:birthday|b-?day|anniversary|anniversaire|anniv|(?<=\b[ms]a )fête)\b", re.I)
_MINE_ALONE = re.compile(r"\b(?:mine|le mien|la mienne|moi|me)\b", re.I)  # "and mine is on May 5"


def whose_yearly(text: str, *, near: int = 60) -> Owner | None:
    """Whose the birthdays and anniversaries a message speaks of are, for a model that said one is about
    nobody: someone else's ("my grandmother Zoé … her birthday") when every one the message names is; None
    (the model is trusted) when one is the person's, when "mine" may be, or when it names none ("I turn 30
    on March 3")."""
    if _MINE_ALONE.search(text):
        return None
    owners = [whose(text, max(0, m.start() - near), m.start(), yearly=True) for m in _YEARLY_WORDS.finditer(text)]
    if not owners or OWN in owners:
        return None
    return owners[0]
