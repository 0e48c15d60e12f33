"""Memory: what Souvenir keeps about each person, how it is written, recalled, shown and erased.

At the top, memory's face: `service` (long-term memory at the engine's ports), `factory` and `index_factory`
(which open it on the configured backends and embedder), with the values and ports they share (`records`,
`items`, `ports`, `store`). The rest lives in rooms by concern, each saying in its own `__init__` what it is for
and what it may import: `person`, `recall`, `writing`, `redis`, `privacy` and `words` (layered in that order),
beside `qdrant` (the index), `embedding`, `mood`, `crisis` and `evaluation`.

Memory fills the engine's ports: it imports the engine's plain values and ports (`bot.engine`) and `bot.llm` for
an OpenAI-compatible embedder; never a platform library, the adapters, the jobs or the wiring (`bot.app`). The
rooms never import memory's face (contracts in pyproject.toml)."""
