"""Reading LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0): conversations, session times, scored questions.

Evidence strings need light cleaning ("D8:6; D9:17", "D:11:26", "D30:05"); evidence that points at no
turn of the conversation is dropped, and a question left with none is not scored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_SESSION = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    speaker: str
    text: str  # with the shared photo's caption, when there is one
    at: datetime  # the session's time, aware UTC


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    evidence: tuple[str, ...]
    category: int


@dataclass(frozen=True, slots=True)
class Conversation:
    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]

    @property
    def asked_at(self) -> datetime:
        """Questions are asked the day after the last session."""
        return max(t.at for t in self.turns) + timedelta(days=1)


def clean_evidence(raw: list[Any]) -> tuple[str, ...]:
    out: list[str] = []
    for item in raw:
        for session, turn in _EVIDENCE.findall(str(item)):
            out.append(f"D{int(session)}:{int(turn)}")
    return tuple(dict.fromkeys(out))


def session_time(raw: str) -> datetime:
    """ "1:56 pm on 8 May, 2023" as aware UTC (LoCoMo gives no zone)."""
    cleaned = " ".join(raw.replace(",", ", ").split()).replace(" ,", ",")
    for pattern in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%H:%M on %d %B, %Y"):
        try:
            return datetime.strptime(cleaned, pattern).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unreadable LoCoMo session time {raw!r}")


def _turn_text(turn: dict[str, Any]) -> str:
    text = str(turn.get("text", "")).strip()
    caption = turn.get("blip_caption")
    return f"{text} [shares {caption}]" if caption else text


def _conversation(sample: dict[str, Any]) -> Conversation:
    body = sample["conversation"]
    sessions = sorted(int(m.group(1)) for key in body if (m := _SESSION.match(key)))
    turns: list[Turn] = []
    for number in sessions:
        at = session_time(body[f"session_{number}_date_time"])
        for turn in body[f"session_{number}"]:
            turns.append(Turn(str(turn["dia_id"]), str(turn["speaker"]), _turn_text(turn), at))
    known = {t.dia_id for t in turns}
    questions: list[Question] = []
    for qa in sample.get("qa", []):
        category = int(qa.get("category", 0))
        evidence = tuple(e for e in clean_evidence(qa.get("evidence") or []) if e in known)
        if category in CATEGORIES and evidence:
            questions.append(Question(str(qa["question"]), evidence, category))
    return Conversation(str(sample.get("sample_id", f"conv-{len(turns)}")), tuple(turns), tuple(questions))


def load_locomo(path: Path) -> list[Conversation]:
    return [_conversation(sample) for sample in json.loads(path.read_text(encoding="utf-8"))]
