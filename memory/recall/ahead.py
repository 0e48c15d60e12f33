"""Recall's reading of a memory's words, done as the memory is written rather than when a reply waits for it.

The first time a memory is among a recall's ~250 candidates, its words are analysed: stems and keyword counts
with what else the ranking reads of it (every candidate), whether it says anything, its tokens and its sentences,
and all the selection reads of it (`memory.recall.shown_facts`, the few dozen it weighs).
(The date a message gave is already read on writing: it is stored with the episode.) A recall whose candidates
were all new (a person's first questions after telling a lot) took 10-20 ms instead of ~6, waited for by the
reply. The embedded index (one process writes, keeps the records and
answers) hands each memory it writes here, in a worker thread of the write (the outbox's, in the background), and
the analyses wait in the per-process caches of `memory.words.text_caches`, which forgetting and erasure empty.
Whether its words touch pain is read too (~65 µs a memory, two patterns tried at every word): recall reads the
text it shows only of a memory whose words do (`memory.recall.selection`), where a recall of 20-odd shown memories
read each one's every time, ~0.4 ms of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory.recall.facts import recall_facts
from memory.recall.shown_facts import shown_facts
from memory.records import MemoryRecord
from memory.words.text_caches import cache_generation, forget_cached_texts


def read_ahead(records: Sequence[MemoryRecord]) -> None:
    """Analyse `records` as recall will (CPU only: run it in a worker thread). Best given the very objects
    recall will meet (the index's kept records): what is read per record is kept for that object."""
    generation = cache_generation()
    for record in records:
        recall_facts(record)  # its keyword counts and own words with it
        shown_facts(record)  # what the selection reads of it: worth, tokens, sentences, pain, links, date
    if cache_generation() != generation:
        forget_cached_texts()  # something was forgotten meanwhile: what was just read may be its words
