"""`souvenir chat` fed hostile lines as raw bytes — invalid UTF-8, an encoded lone surrogate, escapes,
invisible and reordering characters, a 100,000-character paste, impossible dates, unknown zones, wrong
arguments, an export path that cannot be written: every line gets a plain answer (or, when nothing visible
was typed, none), in the person's language, and the session never shows a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from tests.adapters.test_terminal_chat import _chat_bytes
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import souvenir_env as _env

LINES = [
    b"hello \xff\xfe there",  # invalid UTF-8
    b"/remember \xed\xa0\x80 \x1b[31mred\x1b[0m\x00 note",  # a lone surrogate encoded, escapes, a NUL
    b"/birthday 30 f\xc3\xa9vrier",
    b"/birthday Feb 29 2027",
    b"/timezone Mars/Olympus",
    b"/forget abc",
    b"/memories -3",
    b"/mood -5",
    "\u200b\u200b\ufeff".encode(),  # nothing visible: no reply, nothing stored
    "\u202eevil\u202c twin".encode(),  # a right-to-left override: dropped
    "\u05e9\u05dc\u05d5\u05dd \u200f!".encode(),  # Hebrew with a right-to-left mark: kept as written
    "\U0001f431\u200d\U0001f464".encode(),  # emoji only, joined by ZWJ
    b"\x00\x01\x02\x7f",
    b"A" * 100_000,
    b"/export /nonexistent-souvenir-dir/x.json",
    b"/language fr",
    b"/timezone Mars/Olympus",
    b"/export /nonexistent-souvenir-dir/x.json",
    b"/export",
]


async def test_hostile_lines_get_plain_answers_and_nothing_unreadable_is_stored(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    code, out, err = await _chat_bytes(b"\n".join(LINES) + b"\n", _env(data_dir, fake_llm.base_url, redis_url))

    assert code == 0, err
    assert "Traceback" not in err and "went wrong" not in out, err
    assert "echo: hello \ufffd\ufffd there" in out
    assert "“30 février” as a real date" in out and "“Feb 29 2027” as a real date" in out
    assert "I don't know the time zone “Mars/Olympus”" in out
    assert "I have no memory with that id." in out
    assert "Usage: /memories" in out and "Use /mood" in out
    assert "echo: evil twin" in out and "\u202e" not in out
    assert "echo: \u05e9\u05dc\u05d5\u05dd \u200f!" in out
    assert "echo: \U0001f431\u200d\U0001f464" in out
    assert "this message was 100000 characters long" in out
    assert "I couldn't write the export to /nonexistent-souvenir-dir/x.json" in out
    assert "Je ne connais pas le fuseau « Mars/Olympus »" in out
    assert "Je n'ai pas pu écrire l'export dans /nonexistent-souvenir-dir/x.json" in out
    echoes = [line for line in out.splitlines() if line.startswith("echo:")]
    assert len(echoes) == 5  # hello, evil twin, Hebrew, emoji, the long paste: nothing for the invisible lines

    export = json.loads(out[out.index('{\n  "user"') :])
    texts = [m["text"] for m in export["memories"]]
    assert "\ufffd\ufffd\ufffd red note" in texts  # the note kept, cleaned (one U+FFFD a bad byte)
    assert export["profile"]["birthday"] is None and export["profile"]["timezone"] is None
    for text in texts:
        assert len(text) <= 4000 and text.strip("\u200b\ufeff\u200d ")
        assert not any(c in text for c in "\x00\x1b\u202e\u200b\ufeff")
    turns = export["recent_private_messages"]
    assert turns and all(len(turn["text"]) <= 4000 for turn in turns if turn["role"] == "user")
