"""Offline evaluations of the memory pipeline (LoCoMo evidence recall) and of the mood reader
(`souvenir eval locomo|mood|patterns`, or `python -m memory.evaluation`).

An evaluation runs memory as the app does, so it may import any of memory (its face, its rooms, the mood
reader), the engine's values and ports, numpy and rich; `__main__` hands over to the CLI (`bot.cli`). Only
`souvenir eval` imports it, never the running bot."""
