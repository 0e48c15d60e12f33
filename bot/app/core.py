"""The core: the engine, the commands and the stores they run on, as `open_core` hands them to the front ends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import redis.asyncio as aioredis

from bot.app.memory import MemoryService
from bot.app.planner import DeferredPlanner
from bot.avatar import BotAvatar
from bot.config import Settings
from bot.crisis_follow_up import CrisisFollowUp
from bot.engine.commands.user_commands import UserCommands
from bot.engine.conversation.engine import Engine
from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.voice_conversation import VoiceConversation
from bot.engine.metrics import Metrics
from bot.engine.ports import Clock, LanguageModel
from bot.front_ends import FrontEnds
from bot.health import Readiness
from bot.http_status import MetricsPage
from jobs import Planner
from memory.mood.series import RedisMoodSeries
from memory.privacy.person_files import PersonFiles
from memory.privacy.pseudonyms import RedisPseudonyms
from memory.redis.identities import RedisIdentities
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles

if TYPE_CHECKING:
    from adapters.web import BrowserParts


@dataclass(frozen=True)
class Core:
    settings: Settings
    engine: Engine
    commands: UserCommands
    redis: aioredis.Redis
    profiles: RedisProfiles
    window: RedisConversationWindow
    memory: MemoryService
    planner: DeferredPlanner
    schedule: Planner  # the one planner and due store: commands, memory and the sweep share it
    clock: Clock
    llm: LanguageModel
    readiness: Readiness  # what /healthz reports
    metrics: Metrics
    metrics_page: MetricsPage | None  # None: SOUVENIR_HTTP_PORT unset, nothing exported
    moods: RedisMoodSeries | None = None  # how each person has been feeling (tone, /mood, unprompted messages)
    avatar: BotAvatar | None = None  # the bot's profile picture, set where the platform allows it
    identities: RedisIdentities | None = None  # which accounts are one person (/link)
    pseudonyms: RedisPseudonyms | None = None  # SOUVENIR_PSEUDONYMOUS_KEYS: the one way back to accounts
    conversation: VoiceConversation | None = None  # the engine with voice notes in and out (what adapters use)
    pictures: PictureMaker | None = None  # pictures of the companion (off unless SOUVENIR_IMAGES_ENABLED)
    person_files: PersonFiles | None = None  # charts, voice replies, pictures written for one person
    crisis_follow_ups: CrisisFollowUp | None = None  # each front end registers its messenger once it runs
    front_ends: FrontEnds | None = None  # what a front end registers with: crisis follow-ups, late replies
    browser: BrowserParts | None = None  # the memory browser (SOUVENIR_PUBLIC_URL), served beside /healthz
