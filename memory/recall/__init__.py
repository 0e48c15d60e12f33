"""Recall: which of a person's memories come back for a message, and how they are shown.

Candidates from the index are ranked (`ranking`: relevance, then recency, importance and time), weighed by their
own words against the question (`lexical`), cut to what answers (`focus`) and chosen for the prompt, each thing
said once (`selection`, `worth_showing`). Where the embedded index is this process's own, a person's memories are
kept as rows of arrays (`rows`) and ranked there, without a search of the index.

It reads what writing made (the shape of an episode, the kinds extraction gives) and the words room; it never
writes, and imports neither the person model nor the Redis stores (contracts in pyproject.toml).
"""
