"""Slash commands and inline buttons, all delegated to the engine's `UserCommands`.

Every action acts on the Telegram user who sent the command or pressed the button, never on anything
named in the payload, so a forged callback can only ever touch the presser's own memories.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from adapters.telegram.callbacks import ForgetAll, ForgetItem, WhyForget, fingerprint, parse_callback
from adapters.telegram.keyboards import forget_all_keyboard, memories_keyboard, why_keyboard, with_browser_button
from adapters.telegram.normalise import language_hint, thread_of, user_ref
from adapters.telegram.sending import TelegramSender
from adapters.telegram.split import split_message
from bot.engine.commands.results import MOOD_CHART_FILENAME, CommandResult
from bot.engine.commands.user_commands import UserCommands
from bot.engine.commands.why import asks_why
from bot.engine.model import MemoryPage, UserRef, dm_conversation_id
from bot.engine.texts.browser import asks_browser, say_browser
from bot.engine.texts.say import say

log = logging.getLogger(__name__)

ArgumentCommand = Callable[[UserRef, str, str | None], Awaitable[CommandResult]]

EXPORT_FILENAME = "souvenir-export.json"
_FORGET_ALL_WORDS = {"all", "everything", "tout"}


def command_argument(text: str) -> str:
    """What follows the command word ("/remember buy milk" -> "buy milk"), spacing inside kept."""
    parts = text.split(None, 1)
    return parts[1].strip() if len(parts) > 1 else ""


class CommandHandlers:
    def __init__(
        self, commands: UserCommands, sender: TelegramSender, *, page_size: int = 5, browser_url: str | None = None
    ) -> None:
        self._browser_url = browser_url  # the memory browser's Mini App (None: SOUVENIR_PUBLIC_URL is unset)
        self._commands = commands
        self._sender = sender
        self._page_size = page_size

    # -- commands ------------------------------------------------------------------------------

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if asked := _asked(update):
            message, user, hint = asked
            keyboard = None
            if self._browser_url is not None and message.chat.type == ChatType.PRIVATE:
                keyboard = with_browser_button(None, self._browser_url, await self._commands.language_of(user, hint))
            await self._answer(message, await self._commands.start_text(user, hint), keyboard)

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if asked := _asked(update):
            message, user, hint = asked
            await self._answer(message, await self._commands.help_text(user, hint))

    async def privacy(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if asked := _asked(update):
            message, user, hint = asked
            await self._answer(message, await self._commands.privacy_text(user, hint))

    async def remember(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.remember)

    async def birthday(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_birthday)

    async def timezone(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_timezone)

    async def checkins(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_checkins)

    async def groups(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_group_sharing)

    async def language(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_language)

    async def profile(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_profile)

    async def age(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_age)

    async def link(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.link)

    async def voice(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._with_argument(update, self._commands.set_voice)

    async def unlink(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if asked := _asked(update):
            message, user, hint = asked
            await self._answer_result(message, await self._commands.unlink(user, hint))

    async def _with_argument(self, update: Update, command: ArgumentCommand) -> None:
        """A command whose text after the command word goes to `UserCommands`; its result is the answer."""
        if asked := _asked(update):
            message, user, hint = asked
            await self._answer_result(message, await command(user, _argument(message), hint))

    async def memories(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if asked := _asked(update):
            message, user, hint = asked
            if asks_why(_argument(message)):
                await self._why(message, user, hint)
                return
            language = await self._commands.language_of(user, hint)
            private = message.chat.type == ChatType.PRIVATE  # a Mini App button works in private chats only
            if asks_browser(_argument(message)):
                if self._browser_url is None or not private:
                    await self._answer(message, say_browser("browser_off", language))
                else:
                    button = with_browser_button(None, self._browser_url, language)
                    await self._answer(message, say_browser("browser_open", language), button)
                return
            listing = await self._commands.memories_listing(user, _argument(message), self._page_size, hint)
            keyboard = None
            if listing.page is not None:
                keyboard = memories_keyboard(listing.page, self._page_size, language)
            if self._browser_url is not None and private:
                keyboard = with_browser_button(keyboard, self._browser_url, language)
            await self._answer(message, listing.text, keyboard)

    async def _why(self, message: Message, user: UserRef, hint: str | None) -> None:
        """/memories why, in the person's private chat (personal commands are not answered in groups)."""
        why = await self._commands.why(user, dm_conversation_id(user), hint)
        language = await self._commands.language_of(user, hint)
        await self._answer(message, why.text, why_keyboard(why.memories, language))

    async def forget(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if asked := _asked(update):
            message, user, hint = asked
            argument = _argument(message)
            if argument.lower() in _FORGET_ALL_WORDS:
                language = await self._commands.language_of(user, hint)
                await self._answer(message, say("forget_all_confirm", language), forget_all_keyboard(language))
                return
            await self._answer_result(message, await self._commands.forget_memory(user, argument, hint))

    async def export(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if asked := _asked(update):
            message, user, hint = asked
            document = await self._commands.export(user)
            language = await self._commands.language_of(user, hint)
            await self._sender.send_document(
                message.chat.id, document, EXPORT_FILENAME, say("export_caption", language)
            )

    async def mood(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/mood [days]: the chart as a photo, only in the person's private chat (the menu says so too)."""
        if asked := _asked(update):
            message, user, hint = asked
            chart = await self._commands.mood(user, _argument(message), hint)
            if chart.png is None:
                await self._answer(message, chart.text)
                return
            await self._sender.send_photo(message.chat.id, chart.png, MOOD_CHART_FILENAME, chart.text)

    async def unknown(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command we don't have, in a private chat: show what we do have."""
        await self.help(update, context)

    # -- buttons -------------------------------------------------------------------------------

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        action = parse_callback(query.data)
        message = query.message
        if (
            action is None
            or not isinstance(message, Message)
            or message.chat.type != ChatType.PRIVATE
            or message.chat.id != query.from_user.id
        ):
            log.info("Ignored a Telegram button with unexpected data or outside a private chat")
            await query.answer()
            return
        user = user_ref(query.from_user)
        hint = language_hint(query.from_user)
        notice: str | None = None
        if isinstance(action, ForgetAll):
            await self._forget_all_pressed(query, user, hint, confirmed=action.confirmed)
            return
        if isinstance(action, WhyForget):
            await self._why_forget_pressed(query, user, action, hint)
            return
        if isinstance(action, ForgetItem):
            notice = await self._forget_item_pressed(user, action, hint)
        await query.answer(notice)  # first: it stops the button's spinner and shows the notice
        page = await self._page_at(user, action.offset)
        text, keyboard = await self._render(user, page, hint)
        await _edit(query, text, keyboard)

    async def _forget_item_pressed(self, user: UserRef, action: ForgetItem, hint: str | None) -> str | None:
        page = await self._commands.memories_page(user, action.offset, self._page_size)
        if action.number > len(page.items):
            return None
        item = page.items[action.number - 1]
        if fingerprint(item.memory_id) != action.fingerprint:
            return None  # the list changed since the page was shown: just show it afresh
        result = await self._commands.forget_memory(user, item.memory_id, hint)
        return result.text

    async def _why_forget_pressed(
        self, query: CallbackQuery, user: UserRef, action: WhyForget, hint: str | None
    ) -> None:
        """Forget the n-th memory of the presser's own last reply, if it is still the one shown; then show
        the view afresh (without it)."""
        conversation = dm_conversation_id(user)
        shown = (await self._commands.why(user, conversation, hint, shown=False)).memories
        notice: str | None = None
        if action.number <= len(shown) and fingerprint(shown[action.number - 1].memory_id) == action.fingerprint:
            notice = (await self._commands.forget_memory(user, shown[action.number - 1].memory_id, hint)).text
        await query.answer(notice)
        why = await self._commands.why(user, conversation, hint)
        await _edit(query, why.text, why_keyboard(why.memories, await self._commands.language_of(user, hint)))

    async def _forget_all_pressed(
        self, query: CallbackQuery, user: UserRef, hint: str | None, *, confirmed: bool
    ) -> None:
        if confirmed:
            text = (await self._commands.forget_everything(user, hint)).text
        else:
            text = say("forget_cancelled", await self._commands.language_of(user, hint))
        await query.answer()
        await _edit(query, text, None)

    # -- helpers -------------------------------------------------------------------------------

    async def _page_at(self, user: UserRef, offset: int) -> MemoryPage:
        page = await self._commands.memories_page(user, offset, self._page_size)
        if not page.items and page.total > 0 and offset > 0:
            # Past the end (memories were forgotten meanwhile): show the last page instead.
            last = (page.total - 1) // self._page_size * self._page_size
            page = await self._commands.memories_page(user, last, self._page_size)
        return page

    async def _render(
        self, user: UserRef, page: MemoryPage, hint: str | None
    ) -> tuple[str, InlineKeyboardMarkup | None]:
        language = await self._commands.language_of(user, hint)
        text = await self._commands.describe_page(user, page, hint)
        return text, memories_keyboard(page, self._page_size, language)

    async def _answer(self, message: Message, text: str, keyboard: InlineKeyboardMarkup | None = None) -> None:
        in_group = message.chat.type != ChatType.PRIVATE
        await self._sender.send_text(
            message.chat.id,
            text,
            reply_to=message.message_id if in_group else None,
            thread_id=thread_of(message),
            reply_markup=keyboard,
        )

    async def _answer_result(self, message: Message, result: CommandResult) -> None:
        await self._answer(message, result.text)


def _asked(update: Update) -> tuple[Message, UserRef, str | None] | None:
    message = update.message
    if message is None or message.from_user is None or message.from_user.is_bot:
        return None
    return message, user_ref(message.from_user), language_hint(message.from_user)


def _argument(message: Message) -> str:
    return command_argument(message.text or "")


async def _edit(query: CallbackQuery, text: str, keyboard: InlineKeyboardMarkup | None) -> None:
    try:
        await query.edit_message_text(split_message(text)[0] if text.strip() else text, reply_markup=keyboard)
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():
            raise
    except TelegramError:
        log.exception("Could not update a Telegram message after a button press")
