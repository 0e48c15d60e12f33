"""A long message cut down to what bears on the question: its sentences that share a word with it.

A message of sixty words about a day out spends a fifth of the recall's word budget; the sentence that
answers ("we adopted a puppy last week") is often a tenth of it. Cut to those sentences (in their order,
"…" where something was left out), more of what was said fits the budget. A message none of whose
sentences shares a word with the question is kept whole: it was recalled for its meaning, not its words.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memory.recall.lexical import stems
from memory.words.text_caches import TEXTS_KEPT, text_cache

FOCUS_OVER = 12  # words: a message this long or shorter is shown whole
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


Sentences = tuple[tuple[str, frozenset[str], int], ...]  # each with its stems and its words


class Analysed(NamedTuple):
    words: int
    shortest: int  # the words of its shortest sentence
    sentences: Sentences

    def fewest_words(self, over: int = FOCUS_OVER) -> int:
        """The fewest words `focused` can show of the text, whatever the question: those of its shortest sentence
        when it may be cut down. Once the budget is nearly spent, most candidates are known too long by this alone."""
        return self.words if self.words <= over or len(self.sentences) < 2 else self.shortest

    def focused(self, question_terms: frozenset[str], over: int = FOCUS_OVER) -> tuple[str, int] | None:
        """What `focused` shows of the text when it is cut down, with its words (`cut`); None when it is shown
        whole: `over` words or fewer, one sentence, or all or none of its sentences bear on the question."""
        if self.words <= over or len(self.sentences) < 2:
            return None
        return cut(self.sentences, question_terms)


@text_cache(maxsize=TEXTS_KEPT)
def analysed_sentences(text: str) -> Analysed:
    """A text's word count, and its sentences each with its stems. Cached: a recall weighs ~170 candidates, and
    the same messages come back for many questions; stemming every sentence of each was a third of selecting."""
    sentences = _SENTENCE_END.split(text)
    analysed = tuple((sentence, frozenset(stems(sentence)), len(sentence.split())) for sentence in sentences)
    return Analysed(len(text.split()), min(words for _, _, words in analysed), analysed)


def fewest_words(text: str, over: int = FOCUS_OVER) -> int:
    """`Analysed.fewest_words` of `text`."""
    return analysed_sentences(text).fewest_words(over)


def focused(text: str, question_terms: frozenset[str], over: int = FOCUS_OVER) -> str:
    """`text`, or only its sentences that share a stem with the question when it is longer than `over` words."""
    if not question_terms:
        return text
    found = analysed_sentences(text).focused(question_terms, over)
    return text if found is None else found[0]


def cut(sentences: Sentences, question_terms: frozenset[str]) -> tuple[str, int] | None:
    """The sentences (`Analysed.sentences`) that share a stem with the question, "…" where some were left out, and
    the words that shows ("…" counted as one, as `str.split` would); None when all or none of them do (the text is
    shown whole)."""
    keep = [not question_terms.isdisjoint(terms) for _, terms, _ in sentences]
    if not any(keep) or all(keep):
        return None
    out: list[str] = []
    words = 0
    for (sentence, _, count), kept in zip(sentences, keep, strict=True):
        if kept:
            out.append(sentence)
            words += count
        elif not out or out[-1] != "…":
            out.append("…")
            words += 1
    return " ".join(out), words
