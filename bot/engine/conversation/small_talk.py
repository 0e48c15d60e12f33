"""Small talk is not a query: "Good morning!", "lol", "I'm so tired.", « coucou, ça va ? ».

Such a message carries nothing to search for: recall would fill the prompt with whatever happens to match
"good" or "tired". For it the engine skips recall; the prompt holds what a friend knows (the person model),
what is going on for them and, after a pause, where the last conversation left off. A message with one
word that says something ("tired of my job", "Rex is sick") is a query like any other.
"""

from __future__ import annotations

import re

_MAX_WORDS = 10
_WORD = re.compile(r"[a-zà-ÿ']+")
# Greetings, how-are-yous, laughter, thanks, how tired or fine they are, and the little words around them.
_LIGHT = frozenset(
    """
    hi hii hiii hello hey heya hiya yo sup morning good evening afternoon night day gm gn re there all everyone
    how are you doing today going what's whats up wyd wbu hbu and u ya ok okay okey k kk fine great well alright
    not bad too so very really quite just a bit kinda kind of little pretty super tired exhausted sleepy bored
    meh lol lmao haha hahaha hehe xd thanks thank thx ty cool nice yes yeah yep no nope nah sure i i'm im am is
    it's its was me my the this that been feeling feel sorry back again oh ah wow hmm also still now
    bonjour bonsoir salut coucou cc slt hello ça ca va vas comment et toi tu tout le monde quoi de neuf bien
    mal bof pas trop très tres vraiment un peu fatigué fatiguée fatigue crevé crevée épuisé épuisée naze
    je suis me sens sens moi mdr ptdr merci oui ouais non nan super cool top journée matin soir aujourd'hui
    encore aussi là la
    """.split()
)


def is_small_talk(text: str) -> bool:
    """A short message made only of greetings, feelings in passing and little words."""
    words = _WORD.findall(text.lower().replace("’", "'"))
    return len(words) <= _MAX_WORDS and all(word in _LIGHT for word in words)
