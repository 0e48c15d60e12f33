"""A person's memories kept as rows of arrays, so a recall ranks them in place of two searches of the index.

`person_rows` holds one person's rows (vectors, the words the ranking reads, what fades them), `dense` their vectors
in half precision and the search for the highest cosines (faiss, imported there only), `keeper` keeps them
for the people who write and recall in this process, as the index tells it of every write and deletion, and
`ranking` is `memory.recall.ranking` over those rows: the same pool and scores, as array operations. Only where this
process is the index's one writer (the embedded engine, as the record cache); with a server, recall searches.

It reads the keyword terms the index stores (`memory.qdrant.keywords`) and recall's own facts of a memory.
"""
