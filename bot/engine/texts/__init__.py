"""Everything Souvenir says in its own voice (not the LLM's), in English and French, and which of the two a
person gets (`bot.engine.texts.language`). `say(key, language)` is in `bot.engine.texts.say`.

Texts are data: they import plain values (`bot.engine.model`, `bot.engine.mood`) and nothing else of the
engine.
"""
