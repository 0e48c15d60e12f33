"""Inline keyboards for /memories, /memories why and /forget all (pure: labels come from `bot.engine.texts.say`), and
the button that opens the memory browser as a Mini App."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from adapters.telegram.callbacks import (
    MAX_WHY_ITEMS,
    forget_all_data,
    forget_item_data,
    show_page_data,
    why_forget_data,
)
from bot.engine.model import MemoryPage
from bot.engine.ports import DrawnMemory
from bot.engine.texts.browser import say_browser
from bot.engine.texts.say import say

_FORGET_BUTTONS_PER_ROW = 3


def memories_keyboard(page: MemoryPage, page_size: int, language: str) -> InlineKeyboardMarkup | None:
    """ "Forget #n" for each memory on the page, then ‹ Previous / Next › when there are more pages."""
    forget = [
        InlineKeyboardButton(
            say("button_forget_this", language, n=n),
            callback_data=forget_item_data(page.offset, n, item.memory_id),
        )
        for n, item in enumerate(page.items, start=1)
    ]
    rows = [forget[i : i + _FORGET_BUTTONS_PER_ROW] for i in range(0, len(forget), _FORGET_BUTTONS_PER_ROW)]
    navigation = []
    if page.offset > 0:
        navigation.append(
            InlineKeyboardButton(
                say("button_previous", language),
                callback_data=show_page_data(max(0, page.offset - page_size)),
            )
        )
    if page.offset + len(page.items) < page.total:
        navigation.append(
            InlineKeyboardButton(
                say("button_next", language), callback_data=show_page_data(page.offset + len(page.items))
            )
        )
    if navigation:
        rows.append(navigation)
    return InlineKeyboardMarkup(rows) if rows else None


def why_keyboard(memories: tuple[DrawnMemory, ...], language: str) -> InlineKeyboardMarkup | None:
    """ "Forget #n" for each memory the last reply drew on."""
    forget = [
        InlineKeyboardButton(say("button_forget_this", language, n=n), callback_data=why_forget_data(n, m.memory_id))
        for n, m in enumerate(memories[:MAX_WHY_ITEMS], start=1)
    ]
    rows = [forget[i : i + _FORGET_BUTTONS_PER_ROW] for i in range(0, len(forget), _FORGET_BUTTONS_PER_ROW)]
    return InlineKeyboardMarkup(rows) if rows else None


def forget_all_keyboard(language: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(say("button_confirm_forget_all", language), callback_data=forget_all_data(True)),
                InlineKeyboardButton(say("button_cancel", language), callback_data=forget_all_data(False)),
            ]
        ]
    )


def with_browser_button(keyboard: InlineKeyboardMarkup | None, url: str, language: str) -> InlineKeyboardMarkup:
    """`keyboard` with a last row that opens the memory browser as a Mini App (Telegram signs who opened it)."""
    rows = [list(row) for row in keyboard.inline_keyboard] if keyboard is not None else []
    rows.append([InlineKeyboardButton(say_browser("browser_button", language), web_app=WebAppInfo(url))])
    return InlineKeyboardMarkup(rows)
