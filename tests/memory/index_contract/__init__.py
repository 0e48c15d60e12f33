"""One contract for the memory index, run against both backends.

"edge" is the embedded Qdrant Edge shard (the default); "server" is qdrant-client's API, here in its
local in-memory mode, which speaks the same client API as a real Qdrant server. The real USE
embedder is used throughout (loaded once per session).
"""
