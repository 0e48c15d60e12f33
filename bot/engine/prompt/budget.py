"""Keeping a reply's prompt within the model's context: history goes first (oldest first), then memories.

The persona (its description, example dialogue within its own share, lore) and the new message always stay,
however long the conversation has run. Token counts are rough (characters / 4), which is enough to stay clear
of the limit when SOUVENIR_LLM_CONTEXT_TOKENS leaves some margin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.engine.model import ChatTurn
from bot.engine.prompt.system import PromptContext, build_system_prompt
from bot.engine.prompt.tokens import rough_tokens

# What each message costs beyond its text (role markers), in tokens.
_PER_TURN = 4


def turn_tokens(turn: ChatTurn) -> int:
    return rough_tokens(turn.text) + _PER_TURN


def prompt_tokens(system: str, turns: Sequence[ChatTurn]) -> int:
    return rough_tokens(system) + sum(turn_tokens(t) for t in turns)


def fit_prompt(
    context: PromptContext, turns: Sequence[ChatTurn], context_tokens: int, reply_tokens: int
) -> tuple[str, tuple[ChatTurn, ...]]:
    """The system prompt and the turns, trimmed to leave `reply_tokens` of `context_tokens` for the answer."""
    budget = context_tokens - reply_tokens
    system = build_system_prompt(context)
    kept = list(turns)
    used = prompt_tokens(system, kept)
    while used > budget and len(kept) > 1:  # the last turn is the new message
        used -= turn_tokens(kept.pop(0))
    memories = list(context.memories)
    while used > budget and memories:  # recall ranks best first: the last ones matter least
        memories.pop()
        system = build_system_prompt(replace(context, memories=memories))
        used = prompt_tokens(system, kept)
    return system, tuple(kept)
