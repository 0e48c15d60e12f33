"""Write docs/configuration.md from `bot.config.Settings`: every SOUVENIR_* variable, its type, default and meaning.

    python -m scripts.config_reference            # writes docs/configuration.md
    python -m scripts.config_reference --check    # exit 1 when the committed file is stale

The type, default and bounds come from the pydantic model's fields; the meaning from the field's
`description` when it has one, else from `MEANINGS` below. A field with neither makes the script fail, so a
new setting cannot reach the code without reaching the reference. tests/test_config_reference.py runs the check.
"""

from __future__ import annotations

import argparse
import sys
import types
import typing
from datetime import time
from enum import Enum
from pathlib import Path
from typing import Any, Literal

from pydantic import SecretStr
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "configuration.md"

# The meaning of each setting whose field carries no `description` (Markdown, one line).
MEANINGS: dict[str, str] = {
    # Storage
    "data_dir": "Where the embedded Redis (valkey) and the embedded Qdrant keep their data, with the lock, the admin "
    "socket, the imported persona and the secrets Souvenir generates.",
    "redis_url": "A Redis server for production or several processes (`redis://user:pass@host:6379/0`, `rediss://…` "
    "for TLS, `unix:///path.sock?password=…`). Unset (and no Sentinel): an embedded valkey server is started.",
    "redis_sentinels": "Redis behind Sentinel, instead of the URL: the sentinels as `host:port,host:port`.",
    "redis_sentinel_service": "The service the sentinels monitor (with `SOUVENIR_REDIS_SENTINELS`).",
    "redis_password": "The master's password with Sentinel (a URL carries its own).",
    "qdrant_url": "A Qdrant server or cluster (`http://host:6333`). Unset: the embedded Qdrant Edge engine.",
    "qdrant_api_key": "The Qdrant server's API key.",
    "qdrant_shards": "Shards of the collection on a Qdrant cluster (`shard_number`); fixed when the collection is "
    "created ([Operator guide](deployment.md#3-cluster)).",
    "qdrant_replication": "Copies of each shard on different nodes (`replication_factor`); 2 or more survives the "
    "loss of a node.",
    "qdrant_write_consistency": "Copies that confirm a write before it counts (`write_consistency_factor`); at most "
    "the replication.",
    # Language model
    "llm_provider": "`openai`, `anthropic` or `openai-compatible` (Ollama, vLLM, LM Studio, OpenRouter…).",
    "llm_model": "The model name. Unset: per provider, `gpt-4o-mini` (openai), `claude-haiku-4-5` (anthropic), "
    "`llama3.2` (openai-compatible).",
    "llm_api_key": "The API key; required for `openai` and `anthropic`, most local servers need none.",
    "llm_base_url": "Any OpenAI-compatible endpoint. Unset with `openai-compatible`: Ollama's, "
    "`http://localhost:11434/v1`.",
    "llm_timeout_s": "Seconds before one LLM call times out.",
    "llm_max_retries": "How many times a 429/5xx/timeout is retried, with backoff, honouring Retry-After.",
    "llm_context_tokens": "The model's context window; each reply's prompt is trimmed to fit (rough count: "
    "characters / 4): the oldest messages first, then the least relevant memories; the persona always stays.",
    "llm_extraction": "Also extract memories (and mood, and a crisis reading) with the LLM, after the reply; the "
    "offline extraction always runs.",
    # Embeddings
    "embedding_provider": "`use` (the multilingual Universal Sentence Encoder, offline, in the package) or "
    "`openai-compatible`. Changing it needs `souvenir reindex`.",
    "embedding_model": "The embedding model's name with `openai-compatible`.",
    "embedding_base_url": "The embedding endpoint with `openai-compatible`.",
    # Companion
    "persona_file": "A YAML/JSON persona (name, personality, speaking_style, boundaries) or a Character Card V2/V3, "
    "JSON or PNG. Unset: the one `souvenir persona import` made active, else the built-in persona "
    "([Persona and character cards](persona.md)).",
    "persona_avatar": "The bot's profile picture (PNG, JPEG or GIF). Unset: a PNG card's own image.",
    "default_timezone": "The time zone (IANA name) of people who have not set theirs with `/timezone`.",
    "default_language": "The language used until a person's own is known.",
    "window_turns": "Short-term context: turns kept per conversation.",
    "window_ttl_hours": "Hours before an idle conversation's window expires (may be a fraction, e.g. `0.5`).",
    "thread_pause_hours": "Hours of silence after which a private reply is told where the last conversation "
    "left off (the person's last messages that said something), to pick it up as a friend would.",
    "recall_limit": "Long-term memories recalled per reply (excerpts: a memory, or up to three messages said one "
    "after the other, shown together); `souvenir eval locomo` scores the same.",
    "recall_max_words": "The word budget of the memories recalled per reply.",
    "episode_fade_days": "Messages older than this fade into one digest per conversation and day (key words kept, "
    "facts stay); `0` = never.",
    "episode_retention_days": "Messages (and their digests) older than this many days are deleted; facts, moods and "
    "dates stay ([Retention](privacy.md#retention)). Unset: kept.",
    "pseudonymous_keys": "Stores name people by an HMAC of their platform id "
    "([Pseudonymous keys](privacy.md#pseudonymous-keys)).",
    "pseudonym_secret": "The HMAC secret of pseudonymous keys. Unset: generated once into "
    "`SOUVENIR_DATA_DIR/pseudonym.secret` (0600); keep it with backups.",
    "disclosure_enabled": "AI disclosure at the start of every interaction (a first message, or one after more than "
    "30 minutes of silence, theirs or an unprompted message's), on every front end and in unprompted messages that "
    "open an interaction (NY GBL §1702).",
    "disclosure_interval_hours": "The AI disclosure is shown again at least this often in a continuing interaction; "
    "more than 3 h is refused at start.",
    "disclosure_text_en": "Your own English wording of the AI disclosure.",
    "disclosure_text_fr": "Your own French wording of the AI disclosure.",
    "max_message_chars": "A longer message is cut at a word (the model is told) before it is stored or sent.",
    "adult_content": "`private`: explicit content only in private chats with a person who confirmed being 18+ with "
    "`/age`; `off`: never ([Safety](privacy.md#safety)).",
    "crisis_lines_file": "A JSON file of crisis lines by country, over the built-in ones "
    "([Safety](privacy.md#safety)). Unset: the built-in lines.",
    # Telegram
    "telegram_token": "The bot token from @BotFather; set it to run on Telegram.",
    "telegram_api_url": "The Bot API's root; a self-hosted Bot API server (the bot calls `{root}/bot<token>/...`).",
    "telegram_webhook_url": "Webhook mode instead of long polling (needs HTTPS in front): the public URL.",
    "telegram_webhook_secret": "The webhook's secret token; updates without it are refused.",
    "telegram_webhook_listen": "The address the webhook server listens on.",
    "telegram_webhook_port": "The port the webhook server listens on.",
    # Discord
    "discord_token": "The bot token from the Discord developer portal (Bot → Token); set it to run on Discord.",
    "discord_api_url": "Route REST (`{root}/api/v10/...`) through a proxy.",
    "discord_gateway_url": "Route the gateway through a proxy.",
    "discord_shards": "Shard count for large installs.",
    "discord_shard_ids": "This process's shards when several processes split them, e.g. `0,1` of "
    "`SOUVENIR_DISCORD_SHARDS=4` (and `2,3` elsewhere).",
    # Unprompted messages
    "birthday_time": "Local time (HH:MM in each person's zone) of birthday and anniversary wishes.",
    "birthday_days_before_others": "Days before the birthday of someone the person cares about to mention it "
    "(`0` = that day).",
    "checkin_after_days": "Check-ins (opt-in with `/checkins on`) after this many days of silence.",
    "quiet_hours": "Local hours during which the companion never writes first.",
    "proactive_daily_cap": "At most this many unprompted messages per person and local day.",
    "proactive_lease_s": "Seconds a sweep's hold on a due message lasts unless renewed: a killed replica's are taken "
    "over by the next sweep after it (sweeps run every 30 s).",
    "shutdown_grace_s": "On stop, replies and memory writes in flight get this long to finish; a second SIGTERM/Ctrl-C "
    "cuts it short, the stores still close cleanly.",
    "log_level": "The log level. `souvenir chat` shows only warnings and errors unless it is set.",
    # Operations
    "http_port": "Serves `/healthz` (200 when Redis, Qdrant and every configured platform are up, else 503 with what "
    "is down) and `/metrics` (Prometheus, every name `souvenir_…`). Unset: off; the container image sets 8080.",
    "http_host": "The address `/healthz` and `/metrics` listen on.",
    "public_url": "The memory browser (a page where each person sees, corrects and erases what is kept about them, "
    "opened from Telegram's `/memories` button and Discord's `/memories web` link): the `https://` address a "
    "reverse proxy or tunnel forwards to `SOUVENIR_HTTP_PORT`. Plain `http://` only for a loopback address. "
    "Unset: off.",
    "log_format": "`json`: one JSON object per log line (time, level, logger, message, exception).",
    # Nothing lost
    "rate_limit_per_minute": "Messages a person may send per minute (a Redis token bucket shared by every replica); "
    "past it one kind note, no LLM call; `0` = no limit.",
    "outbox_claim_idle_s": "A replica that holds an outbox entry this long without finishing is taken for dead: "
    "another one writes it.",
    "inbox_lease_s": "A message being answered is held this long, renewed every third of it while the model "
    "answers; a process killed mid-reply lets it run out, and the message is then answered late (with an apology "
    "for the delay) by whichever process runs its platform.",
    "late_reply_within_minutes": "A message left unanswered by a crash is answered late only this soon after it "
    "was sent; an older one (and one from a group) is remembered without a reply.",
    "outbox_max_attempts": "Failed rounds before an outbox entry is moved to the dead letters "
    "(`souvenir:outbox:dead`); a store outage does not count.",
    "encryption_key": "The master key of [encryption at rest](privacy.md#encryption-at-rest): 32 random bytes, "
    "URL-safe base64, as `souvenir keygen` prints. Unset: texts kept clear.",
    "key_store": "Where each person's wrapped data key is kept, apart from the data it opens (so erasure reaches "
    "backups): `file` (`SOUVENIR_KEY_DIR`, one box), `redis` (`SOUVENIR_KEY_STORE_URL`, default the main Redis: "
    "replicas), `auto`: file with the embedded Redis, else redis.",
    "key_dir": "The folder of the file key store; must be outside `SOUVENIR_DATA_DIR`. Unset: `<data dir>-keys`, "
    "beside the data dir.",
    "key_store_url": "A Redis apart from the data's for the keys (only with the redis key store). Unset: the main "
    "Redis.",
    # Voice notes
    "voice_base_url": "An OpenAI-compatible endpoint serving `POST /audio/transcriptions` and `POST /audio/speech` "
    "(OpenAI, a local Whisper / Kokoro / Piper server…). Unset: the LLM's base URL for `openai` / "
    "`openai-compatible`; with `anthropic`, voice is off unless it is set.",
    "voice_api_key": "The voice endpoint's key. Unset: the LLM's key when the base URL is the LLM's.",
    "voice_stt_model": "The transcription model.",
    "voice_tts_model": "The speech model.",
    "voice_tts_voice": "The speaking voice (a persona file's `voice` wins).",
    "voice_enabled": '`false`: voice notes get "not available", `/voice on` says the companion cannot speak. '
    "Unset: on when a base URL is known.",
    "voice_max_seconds": "The longest voice note listened to, in seconds.",
    "voice_max_chars": "The longest reply spoken, in characters (longer: text).",
    "voice_keep_audio": "Keep received voice notes' audio in `SOUVENIR_DATA_DIR/voice-notes` (erased by "
    "`/forget all`); off: only the transcript is kept.",
    # Pictures
    "images_enabled": "Pictures of the companion, asked for in plain words or with `/picture`, and a birthday card "
    "([Pictures](user-guide.md#pictures)).",
    "images_base_url": "An OpenAI-compatible endpoint with `/images/generations` and `/images/edits`. Unset: the "
    "LLM's with `SOUVENIR_LLM_PROVIDER=openai`; required for other providers when pictures are on.",
    "images_api_key": "The images endpoint's key. Unset: the LLM key with `SOUVENIR_LLM_PROVIDER=openai`.",
    "images_model": "The image model.",
    "images_daily_limit": "Pictures per person and local day (`0`: none).",
}

HEADER = """\
# Configuration reference

<!-- Generated by `python -m scripts.config_reference` from bot.config.Settings; do not edit by hand. -->

All settings are environment variables with the `SOUVENIR_` prefix, or lines in `.env` (`.env.example`
documents every one). Invalid settings stop Souvenir with one line naming the variable, exit code 2.
Booleans take `true`/`false` (also `on`/`off`, `yes`/`no`, `1`/`0`); *secret* values are never logged.

| Variable | Type | Default | Meaning |
|---|---|---|---|
"""


def _type_name(annotation: Any) -> str:
    """A reader's name for a field's type: `int`, `path`, one of the allowed values…"""
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return " \\| ".join(f"`{value}`" for value in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        parts = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return " \\| ".join(_type_name(part) for part in parts)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return " \\| ".join(f"`{member.value}`" for member in annotation)
    names = {bool: "bool", int: "int", float: "float", str: "str", Path: "path", SecretStr: "secret", time: "time"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _bounds(field: FieldInfo) -> str:
    low = high = None
    for item in field.metadata:
        for name in ("ge", "gt"):
            if getattr(item, name, None) is not None:
                low = (name, getattr(item, name))
        for name in ("le", "lt"):
            if getattr(item, name, None) is not None:
                high = (name, getattr(item, name))
    words = []
    if low is not None:
        words.append(f"≥ {low[1]:,}" if low[0] == "ge" else f"> {low[1]:,}")
    if high is not None:
        words.append(f"≤ {high[1]:,}" if high[0] == "le" else f"< {high[1]:,}")
    return ", ".join(words)


def _default(field: FieldInfo) -> str:
    value = field.default
    if value is PydanticUndefined or value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, time):
        return f"`{value.strftime('%H:%M')}`"
    if isinstance(value, Path):
        return f"`./{value.as_posix()}`" if not value.is_absolute() else f"`{value.as_posix()}`"
    if isinstance(value, float) and value.is_integer():
        return f"`{int(value)}`"
    return f"`{value}`"


def _meaning(name: str, field: FieldInfo) -> str:
    text = field.description or MEANINGS.get(name)
    if not text:
        raise SystemExit(
            f"SOUVENIR_{name.upper()} has no meaning: add Field(description=...) in its group's module in bot/config/ "
            "or an entry to MEANINGS in scripts/config_reference.py"
        )
    return text


def render() -> str:
    """The whole reference page, as committed."""
    rows = []
    for name, field in Settings.model_fields.items():
        kind = _type_name(field.annotation)
        bounds = _bounds(field)
        if bounds:
            kind = f"{kind} ({bounds})"
        rows.append(f"| `SOUVENIR_{name.upper()}` | {kind} | {_default(field)} | {_meaning(name, field)} |")
    return HEADER + "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/configuration.md is stale")
    parser.add_argument("--out", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is stale: run python -m scripts.config_reference", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
