"""`souvenir chat` as a person would run it: a subprocess, a fake OpenAI-compatible server, real stores."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from memory.privacy.person_files import PersonFiles
from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import ROOT, run_souvenir
from tests.fakes.souvenir_process import run_chat as _chat
from tests.fakes.souvenir_process import souvenir_env as _env


async def test_chat_replies_through_the_llm_and_remembers_within_the_session(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    code, out, err = await _chat(
        ["Hello, I'm Léa and I have a cat named Miso", "/timezone Paris", "/memories", "What's my cat called?"],
        _env(data_dir, fake_llm.base_url, redis_url),
        "--user", "lea",
    )

    assert code == 0, err
    assert "echo: Hello, I'm Léa and I have a cat named Miso" in out
    assert "AI companion" in out  # the first reply carries the disclosure
    assert "Europe/Paris" in out
    assert "echo: What's my cat called?" in out
    # The second message went to the model with the first exchange as context.
    chats = [r for r in fake_llm.requests if "response_format" not in r.body]  # not memory extraction
    last = chats[-1].body["messages"]
    assert any("Miso" in str(m.get("content")) for m in last[:-1])


async def test_chat_on_embedded_redis_leaves_no_server_behind(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    code, out, err = await _chat(["hi"], _env(data_dir, fake_llm.base_url, None))

    assert code == 0, err
    assert "echo: hi" in out
    assert (data_dir / "redis").is_dir()
    leftovers = await asyncio.to_thread(
        subprocess.run, ["pgrep", "-f", str(data_dir / "redis")], capture_output=True, text=True
    )
    assert leftovers.stdout.strip() == ""


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_dead_llm_gives_a_kind_reply_a_hint_at_start_and_one_failure_line(
    redis_url: str, data_dir: Path
) -> None:
    dead = f"http://127.0.0.1:{_closed_port()}/v1"
    code, out, err = await _chat(["Bonjour, ça va ?"], _env(data_dir, dead, redis_url))

    assert code == 0
    assert "Désolé" in out  # the fallback, in the person's language
    assert "Traceback" not in err
    # Said once, at start: nothing answers there, and what to do about it.
    assert err.count(f"Nothing answers at {dead}") == 1
    assert "ollama serve" in err and "SOUVENIR_LLM_PROVIDER" in err
    # The failed calls (the reply, then memory extraction) fail the same way: one warning for both.
    assert err.count("LLM call failed") == 1 and err.count("WARNING") == 2, err
    assert "provider=openai-compatible" in err and "connection failed" in err


async def test_sigterm_stops_chat_cleanly_and_stops_the_embedded_redis(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "chat",
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **_env(data_dir, fake_llm.base_url, None)},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"hello\n")
    await process.stdin.drain()
    seen = b""
    while b"echo: hello" not in seen:
        chunk = await asyncio.wait_for(process.stdout.readline(), 120)
        assert chunk, "chat exited before answering"
        seen += chunk
    process.terminate()  # stdin stays open: the chat is waiting for the next line
    assert await asyncio.wait_for(process.wait(), 30) == 143
    leftovers = await asyncio.to_thread(
        subprocess.run, ["pgrep", "-f", str(data_dir / "redis")], capture_output=True, text=True
    )
    assert leftovers.stdout.strip() == ""


async def test_everything_survives_a_restart_on_embedded_defaults(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    env = _env(data_dir, fake_llm.base_url, None)
    code, _, err = await _chat(["/timezone Tokyo", "I have a cat named Miso"], env, "--user", "lea")
    assert code == 0, err

    code, out, err = await _chat(["/export"], env, "--user", "lea")

    assert code == 0, err
    assert '"timezone": "Asia/Tokyo"' in out
    assert "Miso" in out  # long-term memory (embedded Qdrant) and the window (embedded valkey, AOF) persisted


async def _chat_bytes(typed: bytes, env: dict[str, str]) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "chat",
        cwd=ROOT,
        # A UTF-8 locale: invalid bytes are then a decoding error, not a surrogate escape.
        env={**clean, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8", **env},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(typed), 120)
    return process.returncode or 0, stdout.decode(), stderr.decode()


async def test_invalid_utf8_and_escapes_are_kept_as_text_without_a_traceback(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    typed = b"caf\xc3\xa9 \xff\xfe ok\n\x1b[31mred\x1b[0m cat\x07\nstill here?\n/export\n"

    code, out, err = await _chat_bytes(typed, _env(data_dir, fake_llm.base_url, redis_url))

    assert code == 0, err
    assert "Traceback" not in err and "went wrong" not in out
    assert "echo: café \ufffd\ufffd ok" in out  # the message is kept, the bad bytes shown as such
    assert "echo: red cat" in out and "\x1b" not in out
    assert "echo: still here?" in out  # the session went on
    assert '"text": "red cat"' in out  # stored without the escapes


async def test_chat_is_quiet_by_default_and_a_model_without_json_warns_once(redis_url: str, data_dir: Path) -> None:
    # A model that never answers in JSON: memory extraction fails on every message.
    async with FakeOpenAI(responder=lambda body: "Sure! Here you go.") as llm:
        env = {k: v for k, v in _env(data_dir, llm.base_url, redis_url).items() if k != "SOUVENIR_LOG_LEVEL"}
        code, out, err = await _chat(["I have a cat named Miso", "She is three", "She likes tuna"], env)

    assert code == 0, err
    assert out.count("Sure! Here you go.") == 3
    assert "HTTP Request" not in err and " INFO " not in err  # no third-party or info chatter in the chat
    assert err.count("memory extraction") == 1, err  # three messages, one warning


async def test_memories_why_in_the_chat_and_from_the_cli_and_forgetting_takes_it_out(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    env = _env(data_dir, fake_llm.base_url, None)
    async with running_chat(env, "--user", "lea") as chat:
        before = await chat.say("/memories why", expect="lately")
        assert "I haven't replied to you here lately." in before
        await chat.say("/remember my cat is called Miso", expect="I'll remember that")
        await chat.say("what is my cat's name?", expect="echo: what is my cat's name?")

        why = await chat.say("/memories why", expect=" id ")  # the ids come last
        assert "My last reply drew on these memories of you:" in why
        [line] = [line for line in why.splitlines() if "my cat is called Miso" in line]
        number = line.split(".")[0].strip()
        assert line.endswith(") my cat is called Miso") and re.search(rf"#{number} id \S+", why)

        # The operator's CLI asks the running chat: ids, kinds and texts, never when they were told.
        code, out, err = await run_souvenir(env, "memories", "why", "--user", "terminal:lea")
        assert code == 0, err
        [cli_line] = [line for line in out.splitlines() if "my cat is called Miso" in line]
        miso = cli_line.split()[0]
        assert re.search(rf"#{number} id {miso}", why) and "2026" not in out

        forgotten = await chat.say(f"/forget {number}", expect="Forgotten")
        assert "my cat is called Miso" in forgotten
        again = await chat.say("/memories why", expect="My last reply")
        assert "Miso" not in again and "didn't draw on anything I remember about you" in again
        exported = await chat.say("/export", expect="memories_last_replies_drew_on")
        assert '"memories_last_replies_drew_on"' in exported


async def test_profile_in_the_terminal_sets_the_name_the_model_is_given(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    code, out, err = await _chat(
        ["/profile name Maxou", "/profile pronouns he/him", "hello"], _env(data_dir, fake_llm.base_url, redis_url),
        "--user", "max",
    )  # fmt: skip

    assert code == 0, err
    assert "Got it, I'll call you Maxou." in out and "Noted: he/him." in out
    chats = [r for r in fake_llm.requests if "response_format" not in r.body]
    system = str(chats[-1].body["messages"][0]["content"])
    assert "called \"Maxou\"" in system and "he/him" in system


async def test_with_voice_on_the_chat_writes_each_reply_as_an_ogg_opus_file_and_prints_its_path(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    from tests.fakes.audio_samples import opus_stream_info

    code, out, err = await _chat(["/voice on", "Read me a poem"], _env(data_dir, fake_llm.base_url, redis_url))

    assert code == 0, err
    assert "echo: Read me a poem" in out
    [line] = [line for line in out.splitlines() if line.startswith("🔊 ")]
    path = Path(line.removeprefix("🔊 ").strip())
    hers = PersonFiles(data_dir / "people").folder_of("terminal:you")  # the person's own folder, erased with them
    assert path.parent == await asyncio.to_thread(hers.resolve) and path.suffix == ".ogg"
    assert opus_stream_info(await asyncio.to_thread(path.read_bytes))[:2] == ("ogg", "opus")
    assert fake_llm.audio.speeches[-1]["input"].endswith("echo: Read me a poem")
