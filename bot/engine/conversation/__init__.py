"""The conversation: one incoming message in, one reply out (`bot.engine.conversation.engine.Engine`), with what
it needs on the way: cleaning what was typed, the per-conversation locks, the inbox and outbox handovers,
the window of recent messages, how a person wants to be addressed, and the rate limit.

It is the one room that brings the others together (prompt, safety, media, when, texts); no other room
imports it.
"""
