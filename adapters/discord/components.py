"""Buttons under /memories and /forget all, and the page they show.

Buttons are discord.py `DynamicItem`s: everything a button needs is in its custom_id, so they keep
working after a restart. A custom_id is only trusted after it matches its template, and every action
runs for the person who pressed the button — a forged custom_id can at most touch the presser's own
memories (the /memories message is ephemeral anyway: only its owner sees it).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, Self, cast

import discord
from discord import ui

from adapters.discord.incoming import conversation_of, language_from_locale, user_of
from adapters.discord.outgoing import split_message
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import MemoryPage
from bot.engine.ports import DrawnMemory
from bot.engine.texts.say import say

log = logging.getLogger(__name__)

PAGE_SIZE = 5
_MAX_BUTTONS = 25  # Discord's limit per message
_MAX_OFFSET_DIGITS = 7
_MEMORY_ID = r"[A-Za-z0-9_.-]{1,64}"


class _ServesUsers(Protocol):
    """What the buttons need from the client they were dispatched by."""

    user_commands: UserCommands


def _service(interaction: discord.Interaction[Any]) -> UserCommands:
    return cast(_ServesUsers, interaction.client).user_commands


async def show_memories(
    interaction: discord.Interaction[Any], service: UserCommands, offset: int, *, in_place: bool, note: str = ""
) -> None:
    """One page of the presser's memories: a new ephemeral message, or the pressed message updated."""
    if not interaction.response.is_done():
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    user, hint = user_of(interaction), language_from_locale(interaction.locale)
    page = await service.memories_page(user, offset, PAGE_SIZE)
    if not page.items and page.total > 0:  # the page emptied (memories forgotten): show the last one
        page = await service.memories_page(user, (page.total - 1) // PAGE_SIZE * PAGE_SIZE, PAGE_SIZE)
    text = await service.describe_page(user, page, hint)
    if note:
        text = f"{note}\n\n{text}"
    view = memories_view(page, await service.language_of(user, hint))
    if in_place:
        await interaction.edit_original_response(content=text, view=view)
    elif view is None:
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.followup.send(text, view=view, ephemeral=True)


def memories_view(page: MemoryPage, language: str) -> ui.View | None:
    """Previous/next on the first row, one "forget #n" per memory on the second; None when empty."""
    if not page.items:
        return None
    view = ui.View(timeout=None)
    previous_offset = max(0, page.offset - PAGE_SIZE)
    next_offset = page.offset + PAGE_SIZE
    view.add_item(MemoriesPageButton(previous_offset, say("button_previous", language), disabled=page.offset == 0))
    view.add_item(MemoriesPageButton(next_offset, say("button_next", language), disabled=next_offset >= page.total))
    for number, item in enumerate(page.items, start=1):
        if re.fullmatch(_MEMORY_ID, item.memory_id):
            label = say("button_forget_this", language, n=number)
            view.add_item(ForgetMemoryButton(page.offset, item.memory_id, label))
        else:
            log.warning("memory id of unexpected shape, no forget button for it")
    return view


async def show_why(
    interaction: discord.Interaction[Any], service: UserCommands, *, in_place: bool, note: str = ""
) -> None:
    """/memories why for the presser, in the conversation it is used in: a new ephemeral message, or the
    pressed message updated (only ever the asker's own memories, and only the asker sees them)."""
    if not interaction.response.is_done():
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    user, hint = user_of(interaction), language_from_locale(interaction.locale)
    listing = await service.why(user, conversation_of(interaction), hint)
    text = f"{note}\n\n{listing.text}" if note else listing.text
    view = why_view(listing.memories, await service.language_of(user, hint))
    pieces = split_message(text) or [text]  # up to 30 memories: more than one Discord message can hold
    if in_place and len(pieces) == 1:
        await interaction.edit_original_response(content=text, view=view)
        return
    if in_place:  # too long for the pressed message: it keeps the note, the listing comes below it
        await interaction.edit_original_response(content=note or pieces[0], view=None)
        pieces = split_message(listing.text) if note else pieces[1:]
    for number, piece in enumerate(pieces, start=1):
        if number == len(pieces) and view is not None:  # the buttons under the end of the listing
            await interaction.followup.send(piece, view=view, ephemeral=True)
        else:
            await interaction.followup.send(piece, ephemeral=True)


def why_view(memories: tuple[DrawnMemory, ...], language: str) -> ui.View | None:
    """One "forget #n" per memory the last reply drew on; None when it drew on none."""
    view = ui.View(timeout=None)
    for number, memory in enumerate(memories[:_MAX_BUTTONS], start=1):
        if re.fullmatch(_MEMORY_ID, memory.memory_id):
            view.add_item(WhyForgetButton(memory.memory_id, say("button_forget_this", language, n=number)))
        else:
            log.warning("memory id of unexpected shape, no forget button for it")
    return view if view.children else None


def forget_all_view(language: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ForgetAllButton("confirm", say("button_confirm_forget_all", language)))
    view.add_item(ForgetAllButton("cancel", say("button_cancel", language)))
    return view


class MemoriesPageButton(
    ui.DynamicItem[ui.Button[ui.View]], template=rf"souvenir:memories:page:(?P<offset>\d{{1,{_MAX_OFFSET_DIGITS}}})"
):
    def __init__(self, offset: int, label: str = "…", *, disabled: bool = False) -> None:
        button: ui.Button[ui.View] = ui.Button(
            label=label,
            style=discord.ButtonStyle.secondary,
            custom_id=f"souvenir:memories:page:{offset}",
            disabled=disabled,
            row=0,
        )
        super().__init__(button)
        self.offset = offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["offset"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await show_memories(interaction, _service(interaction), self.offset, in_place=True)


class ForgetMemoryButton(
    ui.DynamicItem[ui.Button[ui.View]],
    template=rf"souvenir:memories:forget:(?P<offset>\d{{1,{_MAX_OFFSET_DIGITS}}}):(?P<memory_id>{_MEMORY_ID})",
):
    def __init__(self, offset: int, memory_id: str, label: str = "…") -> None:
        button: ui.Button[ui.View] = ui.Button(
            label=label,
            style=discord.ButtonStyle.danger,
            custom_id=f"souvenir:memories:forget:{offset}:{memory_id}",
            row=1,
        )
        super().__init__(button)
        self.offset = offset
        self.memory_id = memory_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["offset"]), match["memory_id"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        service = _service(interaction)
        result = await service.forget_memory(
            user_of(interaction), self.memory_id, language_from_locale(interaction.locale)
        )
        await show_memories(interaction, service, self.offset, in_place=True, note=result.text)


class WhyForgetButton(ui.DynamicItem[ui.Button[ui.View]], template=rf"souvenir:why:forget:(?P<memory_id>{_MEMORY_ID})"):
    """Under /memories why: forgets that memory of the presser's (a memory of someone else's is not theirs to
    forget: long-term memory only ever finds the presser's own), then shows the view again."""

    def __init__(self, memory_id: str, label: str = "…") -> None:
        button: ui.Button[ui.View] = ui.Button(
            label=label, style=discord.ButtonStyle.danger, custom_id=f"souvenir:why:forget:{memory_id}"
        )
        super().__init__(button)
        self.memory_id = memory_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match["memory_id"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        service = _service(interaction)
        result = await service.forget_memory(
            user_of(interaction), self.memory_id, language_from_locale(interaction.locale)
        )
        await show_why(interaction, service, in_place=True, note=result.text)


class ForgetAllButton(ui.DynamicItem[ui.Button[ui.View]], template=r"souvenir:forget-all:(?P<choice>confirm|cancel)"):
    def __init__(self, choice: str, label: str = "…") -> None:
        style = discord.ButtonStyle.danger if choice == "confirm" else discord.ButtonStyle.secondary
        super().__init__(ui.Button(label=label, style=style, custom_id=f"souvenir:forget-all:{choice}"))
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match["choice"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        service, user = _service(interaction), user_of(interaction)
        hint = language_from_locale(interaction.locale)
        if self.choice == "cancel":
            text = say("forget_cancelled", await service.language_of(user, hint))
        else:
            text = (await service.forget_everything(user, hint)).text
        await interaction.edit_original_response(content=text, view=None)


COMPONENT_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    MemoriesPageButton,
    ForgetMemoryButton,
    WhyForgetButton,
    ForgetAllButton,
)


def is_our_button(custom_id: str) -> bool:
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in COMPONENT_ITEMS)


async def answer_expired_button(interaction: discord.Interaction[Any]) -> None:
    """A press on a component whose custom_id matches no button of this version (junk, or a button from an
    older version): discord.py drops it without a word, and the person would see "This interaction failed"."""
    if interaction.type is not discord.InteractionType.component or interaction.response.is_done():
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if isinstance(custom_id, str) and is_our_button(custom_id):
        return
    log.info("a button this version doesn't know was pressed; answered that it expired")
    text = say("button_expired", language_from_locale(interaction.locale))
    await interaction.response.send_message(text, ephemeral=True)
