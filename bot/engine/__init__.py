"""The platform-free core: plain data, ports, and the conversation engine.

At the top, the engine's face: plain values that cross its boundary (`model`, `mood`), its ports (`ports`,
`metrics`) and the stand-ins for parts switched off (`noop`). The rest lives in rooms by concern:
`conversation` (one message in, one reply out), `commands` (what a person asks outside of conversation),
`prompt` (what the model is told), `safety` (what every reply respects), `media` (voice notes and pictures),
`when` (dates, time zones, occasions), `texts` (what Souvenir says in its own voice) and `browser` (what the
memory browser shows and changes). The engine imports no platform, storage or scheduler library (see the
import contracts in pyproject.toml).
"""
