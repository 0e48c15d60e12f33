"""The conversation: one incoming message in, one reply out (`bot.engine.conversation.engine.Engine`): what a
reply reads (`reads`), how it is put together (`reply`) and what it leaves behind (`writes`), with what it
needs on the way: cleaning what was typed, pseudonyms, the per-conversation locks, the inbox and outbox
handovers, how a person wants to be addressed, small talk, what an answered message changes on the profile,
and the rate limit.

It is the one room that brings the others together (prompt, safety, media, when, texts). No other part of the
engine imports the engine itself; the commands share its intake (cleaning, pseudonyms, addressing).
"""
