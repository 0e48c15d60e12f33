"""Qdrant payloads with their words sealed: what the backends filter, index or order on stays clear, the rest
goes into one sealed field.

Clear: the person key, kind, scope, the memory id an episode is hidden by, the creation and end-of-validity
times (ISO and float) and the payload version — ids and times, no words, and every filter needs them.
Sealed in `sealed`: the text, its language, label and subject, its source (platform, conversation, message ids),
dates, recurrence, time zone, importance and use counts, attributes and the ids it supersedes.
"""

from __future__ import annotations

import json
from typing import Any

from memory.privacy.crypto import Sealer
from memory.qdrant.payload import FLOAT_FIELDS, KEYWORD_FIELDS

SEALED = "sealed"
CLEAR_FIELDS = frozenset((*KEYWORD_FIELDS, *FLOAT_FIELDS, "v", "created_at", "valid_to"))


def seal_payload(payload: dict[str, Any], sealer: Sealer) -> dict[str, Any]:
    clear = {k: v for k, v in payload.items() if k in CLEAR_FIELDS}
    words = {k: v for k, v in payload.items() if k not in CLEAR_FIELDS}
    clear[SEALED] = sealer.seal(json.dumps(words, ensure_ascii=False, separators=(",", ":")))
    return clear


def open_payload(payload: dict[str, Any], opener: Sealer) -> dict[str, Any]:
    """The payload as `record_to_payload` made it (one written before encryption was on is returned as is);
    raises UnreadableText when the person's data key is gone."""
    sealed = payload.get(SEALED)
    if sealed is None:
        return payload
    words: dict[str, Any] = json.loads(opener.open(str(sealed)))
    return {**{k: v for k, v in payload.items() if k != SEALED}, **words}
