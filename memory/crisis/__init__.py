"""The learned crisis reader: a small head over the message's sentence embedding (the one recall computes) and
the phrase cues' signals, trained on a broad labelled set, French and English (`python -m memory.crisis.train`).

It gives probabilities only; `bot.engine.safety.crisis.read_crisis` decides with them and the phrase cues.
Imports numpy, the embedding port and the engine's cue words; no platform or storage library.
"""
