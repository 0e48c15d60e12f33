"""Words: tokenising, keyword ids, BM25 and the per-process caches of texts and their words.

The tokens and sparse vectors (`sparse`), BM25's saturation and IDF (`bm25`) and the caches an erasure empties
(`text_caches`) are shared by the index, recall, writing and the evaluation.

It imports nothing else of memory (contracts in pyproject.toml).
"""
