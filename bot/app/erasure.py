"""What erasing a person reaches, store by store, in the order that keeps a write in flight from surviving it."""

from __future__ import annotations

from bot.app.planner import DeferredPlanner
from bot.app.stores import Foundation
from bot.engine.ports import StoreEraser, UserDataEraser
from memory.privacy.person_files import PersonFiles
from memory.privacy.voice_archive import VoiceFiles
from memory.redis.aof_rewrite import AofCompactor
from memory.service import LongTermMemoryService


def person_erasers(
    base: Foundation, memory: LongTermMemoryService, planner: DeferredPlanner, voice_files: VoiceFiles | None,
    person_files: PersonFiles,
) -> list[UserDataEraser]:  # fmt: skip
    """The epoch moves first, so a write in flight knows to undo itself before the key it would seal with goes;
    then the data key (crypto-shredding: every copy of their texts unreadable at once), then the records; the disk
    last. Each named by the store it empties, for the receipt the memory browser gives after an erasure."""
    stores = base.stores
    records: list[UserDataEraser] = [
        StoreEraser("erasure_marker", stores.erasures), StoreEraser("data_key", base.cipher),
        StoreEraser("memories", memory), StoreEraser("profile", stores.profiles),
        StoreEraser("short_term", stores.window), StoreEraser("reply_trail", stores.trail),
        StoreEraser("short_term", stores.claims), StoreEraser("schedule", planner), StoreEraser("moods", stores.moods),
        StoreEraser("short_term", stores.locks), StoreEraser("short_term", stores.outbox),
        StoreEraser("short_term", stores.inbox), StoreEraser("person_model", stores.person_models),
        StoreEraser("pictures", stores.picture_quota),
        *([StoreEraser("files", voice_files)] if voice_files is not None else []),
        StoreEraser("files", person_files), StoreEraser("sessions", stores.web_sessions),
    ]  # fmt: skip
    return records + _disk_erasers(base)


def _disk_erasers(base: Foundation) -> list[UserDataEraser]:
    """The pseudonym's secret link to the accounts, then (last in line) the embedded Redis rewrites its append-only
    file once everything of the person is deleted."""
    pseudonyms = base.stores.pseudonyms
    found: list[UserDataEraser] = [StoreEraser("pseudonym", pseudonyms)] if pseudonyms is not None else []
    if base.settings.redis_embedded:
        found.append(StoreEraser("redis_file", AofCompactor(base.client)))
    return found
