"""Provider-neutral shaping of a `CompletionRequest` into chat messages, and of replies back into text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.model import Role
from bot.engine.ports import CompletionRequest

JSON_INSTRUCTION = "Answer with one JSON object only, no other text."

# Local models often wrap JSON in a Markdown fence despite being told not to.
_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n?(?P<body>.*?)\n?```$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Role
    text: str


def system_prompt(request: CompletionRequest) -> str:
    """The system prompt, asking for JSON when the request wants it and does not say so already.

    OpenAI refuses `response_format=json_object` unless the word "JSON" appears in the messages.
    """
    system = request.system.strip()
    if request.json_output and "json" not in system.lower():
        return f"{system}\n\n{JSON_INSTRUCTION}".strip()
    return system


def alternating_messages(request: CompletionRequest, opening: str = "…") -> list[ChatMessage]:
    """The turns as strictly alternating user/assistant messages, starting with a user one.

    Consecutive turns of one role are merged (Anthropic and several local chat templates reject
    repeats), empty turns are dropped, and a conversation that starts with the companion (an unprompted
    message) gets a neutral `opening` user message so the companion's words stay in context.
    """
    messages: list[ChatMessage] = []
    for turn in request.turns:
        text = turn.text.strip()
        if not text:
            continue
        if messages and messages[-1].role == turn.role:
            messages[-1] = ChatMessage(turn.role, f"{messages[-1].text}\n\n{text}")
        else:
            messages.append(ChatMessage(turn.role, text))
    if not messages or messages[0].role != "user":
        messages.insert(0, ChatMessage("user", opening))
    return messages


def clean_reply(text: str, json_output: bool) -> str:
    """The reply without surrounding blanks, and without a Markdown fence around requested JSON."""
    text = text.strip()
    if json_output:
        fenced = _FENCE.match(text)
        if fenced:
            text = fenced.group("body").strip()
    return text
