"""Running the Telegram bot inside the caller's event loop, next to Discord and the scheduler."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from pydantic import SecretStr
from telegram import Bot, Update
from telegram.error import InvalidToken
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)
from telegram.request import HTTPXRequest

from adapters.telegram.avatar import set_profile_photo
from adapters.telegram.commands import CommandHandlers
from adapters.telegram.conversation import Callback, ConversationEngine, TextMessages, UpdateBoundary, log_error
from adapters.telegram.menu import GROUP_COMMANDS, PRIVATE_COMMANDS, register_browser_button, register_menu
from adapters.telegram.messenger import TelegramMessenger
from adapters.telegram.ordering import PerChatUpdateProcessor
from adapters.telegram.pictures import PictureEngine, PictureMessages, register_pictures
from adapters.telegram.sending import TelegramSender
from adapters.telegram.throttle import SendThrottle
from adapters.telegram.voice import VoiceEngine, VoiceMessages
from bot.avatar import BotAvatar
from bot.engine.commands.user_commands import UserCommands
from bot.errors import ConfigError

log = logging.getLogger(__name__)

ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]
MAX_CONCURRENT_CHATS = 64  # chats answered at once; each chat's own updates run one at a time


@dataclass(frozen=True)
class TelegramOptions:
    """The bot's token and where the Bot API is (SOUVENIR_TELEGRAM_*), the webhook when updates are pushed, and
    how long a stop waits."""

    token: SecretStr | None
    api_url: str = "https://api.telegram.org"
    webhook_url: str | None = None  # None: long polling
    webhook_secret: SecretStr | None = None  # None: a fresh one each run
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    shutdown_grace_s: float = 10.0  # updates under way are given this long to finish on exit


@asynccontextmanager
async def run_telegram(
    options: TelegramOptions,
    *,
    engine: ConversationEngine,
    commands: UserCommands,
    poll_timeout: float = 30.0,
    poll_interval: float = 0.0,
    typing_interval: float = 4.0,
    per_chat_interval: float = 1.0,
    overall_per_second: int = 25,
    max_send_retries: int = 3,
    page_size: int = 5,
    avatar: BotAvatar | None = None,
    voice: VoiceEngine | None = None,
    browser_url: str | None = None,
) -> AsyncIterator[TelegramMessenger]:
    """Start the bot (long polling, or a webhook when SOUVENIR_TELEGRAM_WEBHOOK_URL is set), yield
    the messenger for proactive DMs, and stop cleanly on exit or cancellation."""
    if options.token is None:
        raise ConfigError("SOUVENIR_TELEGRAM_TOKEN: a bot token from @BotFather is required to run on Telegram")
    # Our own HTTP clients, so they can be closed even when startup fails half-way.
    api_requests = HTTPXRequest(connection_pool_size=MAX_CONCURRENT_CHATS)
    poll_requests = HTTPXRequest()
    processor = PerChatUpdateProcessor(MAX_CONCURRENT_CHATS)
    application = _application(options.token, options.api_url, api_requests, poll_requests, processor)
    throttle = SendThrottle(per_chat_interval=per_chat_interval, overall_per_second=overall_per_second)
    sender = TelegramSender(application.bot, throttle, max_retries=max_send_retries)
    if isinstance(engine, PictureEngine):  # /picture, and photos that ask for a picture
        _add_picture_handlers(application, engine, sender, typing_interval)
    _register_handlers(
        application,
        TextMessages(engine, sender, typing_interval=typing_interval),
        CommandHandlers(commands, sender, page_size=page_size, browser_url=browser_url),
        UpdateBoundary(sender),
    )
    if voice is not None:  # voice notes and audio files: transcribed and answered like text
        _add_voice_handler(application, voice, sender, typing_interval)

    await _initialize(application, api_requests, poll_requests)
    try:
        await _present(application.bot, avatar, browser_url)
        await application.start()
        try:
            await _start_receiving(application, options, poll_timeout=poll_timeout, poll_interval=poll_interval)
            log.info("Telegram bot @%s is running", application.bot.username)
            try:
                yield TelegramMessenger(sender)
            finally:
                updater = application.updater
                try:
                    if updater is not None and updater.running:
                        await updater.stop()  # no new work; what was fetched gets the grace
                finally:
                    await processor.finish(options.shutdown_grace_s)
        finally:
            if application.running:
                await application.stop()
    finally:
        await application.shutdown()


def _application(
    token: SecretStr, api_url: str, api_requests: HTTPXRequest, poll_requests: HTTPXRequest,
    processor: PerChatUpdateProcessor,
) -> Application:  # fmt: skip
    """The python-telegram-bot application on the Bot API at `api_url`, with our HTTP clients and each chat's
    updates handled one at a time."""
    root = api_url.rstrip("/")
    return (
        ApplicationBuilder()
        .token(token.get_secret_value())
        .base_url(f"{root}/bot")
        .base_file_url(f"{root}/file/bot")
        .request(api_requests)
        .get_updates_request(poll_requests)
        .concurrent_updates(processor)
        .job_queue(None)  # the app's own scheduler does timed work
        .build()
    )


def _add_picture_handlers(
    application: Application, engine: PictureEngine, sender: TelegramSender, typing_interval: float
) -> None:
    """/picture, and photos that ask for a picture (registered before the commands: /picture is one)."""
    pictures, boundary = PictureMessages(engine, sender, typing_interval=typing_interval), UpdateBoundary(sender)
    register_pictures(application, on_picture=boundary.wrap("picture", pictures.on_picture),
                      on_photo=boundary.wrap("photo", pictures.on_photo))  # fmt: skip


def _add_voice_handler(
    application: Application, voice: VoiceEngine, sender: TelegramSender, typing_interval: float
) -> None:
    """Voice notes and audio files: transcribed and answered like text."""
    voices = VoiceMessages(voice, sender, typing_interval=typing_interval)
    application.add_handler(
        MessageHandler(
            filters.UpdateType.MESSAGE & (filters.VOICE | filters.AUDIO),
            UpdateBoundary(sender).wrap("voice", voices.on_voice),
        )
    )


async def _initialize(application: Application, api_requests: HTTPXRequest, poll_requests: HTTPXRequest) -> None:
    """getMe: fails fast on a bad token or an unreachable server, closing our HTTP clients then."""
    try:
        await application.initialize()
    except BaseException as exc:
        await asyncio.gather(api_requests.shutdown(), poll_requests.shutdown())
        if isinstance(exc, InvalidToken):
            raise ConfigError("SOUVENIR_TELEGRAM_TOKEN: Telegram rejected this bot token") from exc
        raise


async def _present(bot: Bot, avatar: BotAvatar | None, browser_url: str | None) -> None:
    """How people see the bot: its command menu, the memory browser's button and its profile photo."""
    await register_menu(bot)
    if browser_url is not None:
        await register_browser_button(bot, browser_url)
    await set_profile_photo(bot, avatar)


async def _start_receiving(
    application: Application,
    options: TelegramOptions,
    *,
    poll_timeout: float,
    poll_interval: float,
) -> None:
    updater = application.updater
    if updater is None:  # never: the builder always makes one unless told not to
        raise RuntimeError("the Telegram application has no updater")
    if options.webhook_url:
        secret = options.webhook_secret
        await updater.start_webhook(
            listen=options.webhook_listen,
            port=options.webhook_port,
            url_path=urlsplit(options.webhook_url).path.lstrip("/"),
            webhook_url=options.webhook_url,
            allowed_updates=ALLOWED_UPDATES,
            # Without a configured secret, a fresh one per run still keeps forged updates out.
            secret_token=secret.get_secret_value() if secret else secrets.token_urlsafe(32),
        )
    else:
        await updater.start_polling(
            poll_interval=poll_interval,
            timeout=timedelta(seconds=poll_timeout),
            allowed_updates=ALLOWED_UPDATES,
        )


def _register_handlers(
    application: Application,
    texts: TextMessages,
    commands: CommandHandlers,
    boundary: UpdateBoundary,
) -> None:
    # Edited messages are ignored: re-running a command or re-answering an edit would surprise people.
    fresh = filters.UpdateType.MESSAGE
    private = filters.ChatType.PRIVATE
    callbacks: dict[str, Callback] = {
        "start": commands.start,
        "help": commands.help,
        "privacy": commands.privacy,
        "memories": commands.memories,
        "forget": commands.forget,
        "remember": commands.remember,
        "birthday": commands.birthday,
        "timezone": commands.timezone,
        "checkins": commands.checkins,
        "groups": commands.groups,
        "language": commands.language,
        "profile": commands.profile,
        "age": commands.age,
        "export": commands.export,
        "mood": commands.mood,
        "link": commands.link,
        "unlink": commands.unlink,
        "voice": commands.voice,
    }
    for name in GROUP_COMMANDS:
        application.add_handler(CommandHandler(name, boundary.wrap(name, callbacks[name]), filters=fresh))
    for name in PRIVATE_COMMANDS:
        application.add_handler(CommandHandler(name, boundary.wrap(name, callbacks[name]), filters=fresh & private))
    application.add_handler(
        MessageHandler(fresh & private & filters.COMMAND, boundary.wrap("unknown", commands.unknown))
    )
    application.add_handler(
        MessageHandler(fresh & filters.TEXT & ~filters.COMMAND, boundary.wrap("text", texts.on_text))
    )
    application.add_handler(CallbackQueryHandler(boundary.wrap("button", commands.button)))
    application.add_error_handler(log_error)
