"""Writing long-term memory: what a person says becomes memories, and what is old fades or expires.

An answered exchange waits in the durable outbox (`outbox`, `outbox_codec`, `outbox_worker`), then its message
becomes an episode (`episodes`, its dense vector made of parts: `dense_parts`), facts are extracted
(`extraction`) and consolidated against older ones (`consolidation`), written one exchange at a time or in a
batch (`writer`, `ingest`, `write_behind`), with the model's gist of the conversation (`thread_gist`). Old
episodes fade into digests (`fading`) and expire (`retention`); `reindex` rebuilds the index under a new
embedder.

It may import the words, Redis and privacy rooms and the index (`memory.qdrant`), never recall or the person
model (contracts in pyproject.toml).
"""
