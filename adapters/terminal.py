"""The terminal chat: a REPL on the same engine and commands as Telegram and Discord, for trying it locally."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Protocol, TextIO, runtime_checkable

from adapters.terminal_pictures import PictureHandler, save_picture
from adapters.terminal_prompt import TerminalPrompt, printed_above_prompt
from bot.engine.commands.user_commands import UserCommands
from bot.engine.commands.why import asks_why
from bot.engine.model import ChatKind, IncomingMessage, Reply, UserRef, dm_conversation_id
from bot.engine.ports import Clock, Messenger
from bot.engine.texts.browser import asks_browser, say_browser
from bot.engine.texts.say import say, say_in

log = logging.getLogger(__name__)

_TEXTS = {
    "still_writing": {
        "en": "(I'm still writing your last message down; it will show in a moment.)",
        "fr": "(Je suis encore en train de noter ton dernier message ; il apparaîtra dans un instant.)",
    },
    "browser_unset": {
        "en": "The memory page is off: set SOUVENIR_PUBLIC_URL=http://127.0.0.1:8080 and SOUVENIR_HTTP_PORT=8080 to "
        "open it on this machine.",
        "fr": "La page des souvenirs est désactivée : mets SOUVENIR_PUBLIC_URL=http://127.0.0.1:8080 et "
        "SOUVENIR_HTTP_PORT=8080 pour l'ouvrir sur cette machine.",
    },
    "browser_elsewhere": {
        "en": "From the terminal, the memory page opens on this machine only, and SOUVENIR_PUBLIC_URL is not a "
        "loopback address (http://127.0.0.1:…).",
        "fr": "Depuis le terminal, la page des souvenirs ne s'ouvre que sur cette machine, et SOUVENIR_PUBLIC_URL "
        "n'est pas une adresse locale (http://127.0.0.1:…).",
    },
}
BrowserLink = Callable[[UserRef], Awaitable[str]]

PLATFORM = "terminal"
_PAGE_SIZE = 10
_WRITE_WAIT_S = 2.0  # how long /memories waits for the message just sent to be written down


class MessageHandler(Protocol):
    async def handle(self, message: IncomingMessage) -> Reply | None: ...


@runtime_checkable
class PendingWrites(Protocol):
    """The memory writes of the messages just answered (`Engine.settle_writes`)."""

    async def settle_writes(self, within_s: float) -> bool: ...


class FollowUps(Protocol):
    """What the companion sends after a reply (`bot.crisis_follow_up`): the terminal prints it."""

    def through(self, platform: str, messenger: Messenger) -> AbstractContextManager[None]: ...


class TerminalChat:
    def __init__(
        self,
        *,
        engine: MessageHandler,
        commands: UserCommands,
        clock: Clock,
        user_name: str,
        stdin: TextIO = sys.stdin,
        stdout: TextIO = sys.stdout,
        files_dir: Path | None = None,
        follow_ups: FollowUps | None = None,
        browser_link: BrowserLink | None = None,
        browser_elsewhere: bool = False,
    ) -> None:
        """`browser_link`: makes a single-use link to the memory page, served on this machine (None: it is off, and
        `browser_elsewhere` says it is set up on a public address the terminal's person cannot be sent to)."""
        self._browser_link = browser_link
        self._browser_elsewhere = browser_elsewhere
        self._engine = engine
        self._commands = commands
        self._clock = clock
        self._user = UserRef(PLATFORM, user_name, user_name)
        self._in = stdin
        self._out = stdout
        self._confirm_forget_all = False
        self._files_dir = files_dir  # the person's folder: charts, voice replies, pictures (None: the working dir)
        self._follow_ups = follow_ups
        self._prompt: TerminalPrompt | None = None  # on a real terminal: line editing, output above the prompt

    async def _write_file(self, name: str, data: bytes) -> Path:
        """`name` in the person's folder (created private), off the event loop; its absolute path."""
        path = (self._files_dir or Path.cwd()) / name

        def write() -> None:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            path.write_bytes(data)

        await asyncio.to_thread(write)
        return path.resolve()

    def _print(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    async def send_direct(self, user_key: str, text: str) -> None:
        """A message the companion writes after its reply (a crisis follow-up): printed, then the prompt again."""
        at_prompt = self._in.isatty() and self._prompt is None  # prompt_toolkit redraws its own prompt
        self._print(("\n" if at_prompt else "") + text)
        if at_prompt:
            self._out.write("you> ")
            self._out.flush()

    async def run(self) -> None:
        self._print(f"Chatting as {self._user.user_id}. /help for commands, /quit or Ctrl-D to leave.")
        # The one person in this chat: whatever is followed up on the terminal is theirs.
        with self._follow_ups.through(PLATFORM, self) if self._follow_ups else nullcontext():
            if not (self._in.isatty() and self._out.isatty()):  # piped: plain lines, no prompt to keep
                await self._turns()
                return
            self._prompt = TerminalPrompt(self._in, self._out)
            with printed_above_prompt() as above:
                self._out = above
                await self._turns()

    async def _turns(self) -> None:
        while True:
            if self._prompt is not None:
                typed = await self._prompt.read_line()
                if typed is None:  # Ctrl-D or Ctrl-C
                    return
                line = typed + "\n"  # an empty line is not the end, as with the plain reader
            else:
                if self._in.isatty():
                    self._out.write("you> ")
                    self._out.flush()
                line = await self._read_line()
            if not line:
                return
            text = line.strip()
            if not text:
                continue
            if text in ("/quit", "/exit"):
                return
            try:
                if text.startswith("/"):
                    await self._command(text)
                else:
                    await self._chat(text)
            except Exception:
                # One bad turn must not end the session.
                log.exception("terminal turn failed")
                self._print("(something went wrong; see the log)")

    async def _read_line(self) -> str:
        # A daemon thread, not the default executor: a blocked read must not hold up shutdown on SIGTERM.
        loop = asyncio.get_running_loop()
        done: asyncio.Future[str] = loop.create_future()

        def read() -> None:
            try:
                line = self._read_line_now()
            except (OSError, ValueError):
                line = ""

            def deliver() -> None:
                if not done.done():
                    done.set_result(line)

            loop.call_soon_threadsafe(deliver)

        threading.Thread(target=read, name="terminal-input", daemon=True).start()
        return await done

    def _read_line_now(self) -> str:
        """One line; bytes that are not valid in the terminal's encoding become U+FFFD instead of ending the
        session (the engine cleans the rest: escapes, control characters, length)."""
        raw = getattr(self._in, "buffer", None)
        if raw is None:
            return self._in.readline()
        line: bytes = raw.readline()
        return line.decode(getattr(self._in, "encoding", None) or "utf-8", errors="replace")

    async def _chat(self, text: str, picture_of: str | None = None) -> None:
        message = IncomingMessage(
            user=self._user,
            conversation_id=dm_conversation_id(self._user),
            message_id=uuid.uuid4().hex,
            text=text,
            sent_at=self._clock.now(),
            chat_kind=ChatKind.PRIVATE,
        )
        if picture_of is not None and isinstance(self._engine, PictureHandler):
            reply = await self._engine.handle_picture(message, picture_of)
        else:
            reply = await self._engine.handle(message)
        if reply is not None:
            self._print(reply.text)
            if reply.voice is not None:  # /voice on: a terminal plays nothing, so the note goes to a file
                path = await self._write_file(f"souvenir-voice-{message.message_id}.ogg", reply.voice.audio)
                self._print(f"🔊 {path}")
        if reply is not None and reply.picture is not None:  # a terminal shows no pictures: a file, and its path
            self._print(str(await save_picture(self._files_dir or Path.cwd(), self._user.user_id, reply.picture)))

    async def _command(self, text: str) -> None:
        name, _, argument = text[1:].partition(" ")
        name, argument = name.lower(), argument.strip()
        user, commands = self._user, self._commands
        if self._confirm_forget_all and name != "forget":
            self._confirm_forget_all = False
        if name in ("start", "help"):
            self._print(await (commands.start_text(user) if name == "start" else commands.help_text(user)))
        elif name == "privacy":
            self._print(await commands.privacy_text(user))
        elif name == "remember":
            self._print((await commands.remember(user, argument)).text)
        elif name == "birthday":
            self._print((await commands.set_birthday(user, argument)).text)
        elif name == "timezone":
            self._print((await commands.set_timezone(user, argument)).text)
        elif name == "checkins":
            self._print((await commands.set_checkins(user, argument)).text)
        elif name == "groups":
            self._print((await commands.set_group_sharing(user, argument)).text)
        elif name == "language":
            self._print((await commands.set_language(user, argument)).text)
        elif name == "voice":
            self._print((await commands.set_voice(user, argument)).text)
        elif name == "memories" and asks_why(argument):
            why = await commands.why(user, dm_conversation_id(user))
            self._print(why.text)
            for n, memory in enumerate(why.memories, start=1):
                self._print(f"   #{n} id {memory.memory_id}")
        elif name == "memories" and asks_browser(argument):
            await self._browser()
        elif name == "profile":
            self._print((await commands.set_profile(user, argument)).text)
        elif name == "age":
            self._print((await commands.set_age(user, argument)).text)
        elif name == "memories":
            if isinstance(self._engine, PendingWrites) and not await self._engine.settle_writes(_WRITE_WAIT_S):
                self._print(say_in(_TEXTS, "still_writing", await commands.language_of(user)))
            listing = await commands.memories_listing(user, argument, _PAGE_SIZE)
            self._print(listing.text)
            for n, item in enumerate(listing.page.items if listing.page else (), start=1):
                self._print(f"   #{n} id {item.memory_id}")
        elif name == "forget":
            await self._forget(argument)
        elif name == "mood":
            await self._mood(argument)
        elif name == "picture":
            await self._chat(text, picture_of=argument)
        elif name in ("link", "unlink"):  # one terminal user is no account on another platform
            self._print(say("link_unavailable", await commands.language_of(user)))
        elif name == "export":
            data = await commands.export(user)
            if argument:
                await self._export_to(argument, data)
            else:
                self._print(data.decode())
        else:
            self._print(await commands.help_text(user))

    async def _browser(self) -> None:
        """/memories web: a link to open in a browser on this machine, once, within 10 minutes; or why there is none."""
        language = await self._commands.language_of(self._user)
        if self._browser_link is not None:
            self._print(say_browser("browser_link", language, url=await self._browser_link(self._user)))
        else:
            self._print(say_in(_TEXTS, "browser_elsewhere" if self._browser_elsewhere else "browser_unset", language))

    async def _export_to(self, path: str, data: bytes) -> None:
        """A path that cannot be written (no such folder, no permission, a directory) is said so, plainly."""
        language = await self._commands.language_of(self._user)
        try:
            await asyncio.to_thread(Path(path).write_bytes, data)
        except (OSError, ValueError) as error:  # ValueError: a NUL in the path
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            self._print(say("export_not_written", language, path=path, reason=reason))
            return
        self._print(f"{say('export_caption', language)} → {path}")

    async def _mood(self, argument: str) -> None:
        """The chart goes to a file (a terminal shows no pictures); its path is printed with the caption."""
        chart = await self._commands.mood(self._user, argument)
        if chart.png is None:
            self._print(chart.text)
            return
        path = await self._write_file(f"souvenir-mood-{self._user.user_id}.png", chart.png)
        self._print(f"{chart.text}\n{path}")

    async def _forget(self, argument: str) -> None:
        user, commands = self._user, self._commands
        language = await commands.language_of(user)
        if argument.lower() in ("all", "tout"):
            self._confirm_forget_all = True
            self._print(say("forget_all_confirm", language) + " (/forget yes)")
        elif argument.lower() in ("yes", "oui") and self._confirm_forget_all:
            self._confirm_forget_all = False
            self._print((await commands.forget_everything(user)).text)
        else:
            self._confirm_forget_all = False
            self._print((await commands.forget_memory(user, argument)).text)
