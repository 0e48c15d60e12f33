"""Turning what a person says into candidate memories: offline patterns always, an LLM when available.

Part of the writing room: it imports memory's record kinds (`memory.records`), the words' text caches, the
engine's values and ports (the LLM through the `LanguageModel` port), the dates people write
(`bot.engine.when.dates`) and how a person says their name (`bot.engine.conversation.stated_name`); never recall,
the person model or the Redis stores."""

from memory.writing.extraction.candidates import Candidate

__all__ = ["Candidate"]
