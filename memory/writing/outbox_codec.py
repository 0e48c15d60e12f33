"""The one JSON form of an `Exchange` (an outbox entry): pydantic at the edge, frozen dataclasses inside.

A codec is handed to the outbox, so an entry can be sealed (encrypted at rest) by wrapping this one."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC
from typing import Protocol

from pydantic import TypeAdapter, ValidationError

from bot.engine.model import ChatTurn, Exchange, IncomingMessage
from bot.errors import InvalidInput

_EXCHANGE = TypeAdapter(Exchange)


class ExchangeCodec(Protocol):
    """Bytes for an outbox entry and back. `decode` raises InvalidInput for bytes it cannot read."""

    def encode(self, exchange: Exchange) -> bytes: ...

    def decode(self, data: bytes) -> Exchange: ...


class JsonExchangeCodec:
    def encode(self, exchange: Exchange) -> bytes:
        # A picture's or a voice note's bytes are not memory (what is remembered is the text), and JSON cannot
        # hold them: the entry keeps the reply without its media.
        reply = replace(exchange.reply, picture=None, voice=None)
        return _EXCHANGE.dump_json(replace(exchange, reply=reply))

    def decode(self, data: bytes) -> Exchange:
        try:
            exchange = _EXCHANGE.validate_json(data)
        except ValidationError as exc:
            raise InvalidInput(f"an outbox entry is not a readable exchange: {exc.error_count()} error(s)") from None
        return _in_utc(exchange)


def _in_utc(exchange: Exchange) -> Exchange:
    """Datetimes as the engine makes them (datetime.UTC), not pydantic's own fixed-offset zone: ids derived
    from them (episode ids) must not change across a round trip."""
    message: IncomingMessage = replace(exchange.message, sent_at=exchange.message.sent_at.astimezone(UTC))
    turns: tuple[ChatTurn, ...] = tuple(replace(t, at=t.at.astimezone(UTC)) for t in exchange.previous_turns)
    return replace(exchange, message=message, previous_turns=turns)
