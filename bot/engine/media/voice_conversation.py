"""The engine with ears and a voice: voice notes in, voice notes out for people who asked (/voice on).

A voice note is checked against the limits, downloaded, transcribed as received and then answered exactly
like the same words typed (the engine keeps the transcript, marked as spoken). Replies to someone who turned
voice on are read aloud; the text still goes with them.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Protocol

from bot.engine.media.voice import SpeechSynthesizer, Transcriber, VoiceArchive, VoiceClip, VoiceLimits
from bot.engine.model import ChatKind, IncomingMessage, Reply, UserRef
from bot.engine.noop import NoIdentities
from bot.engine.ports import Identities, MessageClaims, ProfileStore
from bot.engine.texts.language import normalise_language
from bot.engine.texts.voice import say_voice

log = logging.getLogger(__name__)


class Answerer(Protocol):
    async def handle(self, message: IncomingMessage) -> Reply | None: ...

    async def handle_picture(self, message: IncomingMessage, what: str) -> Reply | None: ...

    async def settle_writes(self, within_s: float) -> bool: ...


class VoiceConversation:
    def __init__(
        self,
        engine: Answerer,
        *,
        profiles: ProfileStore,
        claims: MessageClaims,
        transcriber: Transcriber | None,
        speech: SpeechSynthesizer | None,
        speaking_voice: str,
        limits: VoiceLimits,
        default_language: str,
        identities: Identities | None = None,
        archive: VoiceArchive | None = None,
    ) -> None:
        self._engine = engine
        self._profiles = profiles
        self._claims = claims
        self._transcriber = transcriber
        self._speech = speech
        self._speaking_voice = speaking_voice
        self._limits = limits
        self._default_language = default_language
        self._identities = identities or NoIdentities()
        self._archive = archive

    @property
    def speaking(self) -> bool:
        """Whether voice replies can be made at all (a speech service is configured)."""
        return self._speech is not None

    async def handle(self, message: IncomingMessage) -> Reply | None:
        """The engine's reply, read aloud when the person turned voice on (private chats only)."""
        reply = await self._engine.handle(message)
        if reply is None or reply.fallback or reply.picture is not None or message.chat_kind is not ChatKind.PRIVATE:
            return reply  # a photo goes with its caption written, not spoken
        return await self.spoken(message.user, reply)

    async def settle_writes(self, within_s: float) -> bool:
        """The engine's memory writes still in flight (`Engine.settle_writes`): what /memories waits for."""
        return await self._engine.settle_writes(within_s)

    async def handle_picture(self, message: IncomingMessage, what: str) -> Reply | None:
        """/picture: the engine's photo and caption, as they are (a caption is not read aloud)."""
        return await self._engine.handle_picture(message, what)

    async def handle_voice(self, message: IncomingMessage, clip: VoiceClip) -> Reply | None:
        """The reply to a voice note: the engine's answer to its transcript, or one kind line when it is too
        long, too large or cannot be heard (None once this platform message was answered already)."""
        limits = self._limits
        if clip.duration_s is not None and clip.duration_s > limits.max_seconds:
            return await self._kindly(message, "voice_too_long", minutes=f"{limits.max_seconds / 60:g}")
        if clip.size_bytes is not None and clip.size_bytes > limits.max_bytes:
            return await self._kindly(message, "voice_too_large", megabytes=limits.max_bytes // (1024 * 1024))
        if self._transcriber is None:
            log.warning("a voice note came in but no transcription is configured (SOUVENIR_VOICE_BASE_URL)")
            return await self._kindly(message, "voice_unavailable")
        try:
            audio = await clip.fetch()
            if len(audio) > limits.max_bytes:
                return await self._kindly(message, "voice_too_large", megabytes=limits.max_bytes // (1024 * 1024))
            text = (await self._transcriber.transcribe(audio, clip.filename)).strip()
        except Exception as exc:
            # One line for the operator (the transcription client says what failed), a kind one for the person.
            log.warning("a voice note could not be transcribed: %s", exc)
            return await self._kindly(message, "voice_unavailable")
        if not text:
            return await self._kindly(message, "voice_silent")
        heard = replace(message, text=text, by_voice=True)
        if self._archive is not None:
            await self._keep(heard, clip.filename, audio)
        return await self.handle(heard)

    async def spoken(self, user: UserRef, reply: Reply) -> Reply:
        """`reply` with its voice note when the person wants one and it is short enough; else as it is."""
        if self._speech is None or len(reply.text) > self._limits.max_chars:
            return reply
        profile = await self._profiles.load_profile(await self._person(user))
        if not profile.voice_replies:
            return reply
        try:
            note = await self._speech.speak(reply.text, self._speaking_voice)
        except Exception as exc:
            log.warning("a reply could not be read aloud; sent as text: %s", exc)
            return reply
        return replace(reply, voice=note)

    async def _kindly(self, message: IncomingMessage, key: str, **values: object) -> Reply | None:
        # Claimed under a key of its own: a re-delivered voice note gets this line once, and the engine's
        # claim of the message itself stays free.
        if not await self._claims.claim(f"{message.dedup_key}:voice"):
            return None
        language = await self._language(message)
        return Reply(say_voice(key, language, **values), language)

    async def _language(self, message: IncomingMessage) -> str:
        profile = await self._profiles.load_profile(await self._person(message.user))
        if profile.language_chosen and profile.language:
            return profile.language
        return profile.language or normalise_language(message.language_hint) or self._default_language

    async def _person(self, user: UserRef) -> str:
        return user.person_key or await self._identities.person_of(user)

    async def _keep(self, message: IncomingMessage, filename: str, audio: bytes) -> None:
        if self._archive is None:
            return
        try:
            await self._archive.keep(await self._person(message.user), message.message_id, filename, audio)
        except Exception:
            log.exception("could not keep a voice note's audio")
