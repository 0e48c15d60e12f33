"""Pictures on Discord: a reply with a picture goes out as one message with the photo attached and the caption
as its text, /picture asks the engine for one, and an uploaded image with a request to turn it into a picture
is kindly refused."""

from __future__ import annotations

import io
import logging
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from adapters.discord.incoming import conversation_of, language_from_locale, user_of
from adapters.discord.outgoing import split_message
from bot.engine.media.picture_requests import asks_for_picture
from bot.engine.media.pictures import Picture
from bot.engine.model import ChatKind, IncomingMessage, Reply, dm_conversation_id
from bot.engine.texts.pictures import say_picture

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


@runtime_checkable
class PictureHandler(Protocol):
    async def handle_picture(self, message: IncomingMessage, what: str) -> Reply | None: ...


async def send_reply(
    channel: discord.abc.Messageable, text: str, picture: Picture | None, reference: discord.MessageReference | None
) -> None:
    """The text in pieces of at most 2000 characters; a picture goes with the first piece (its caption)."""
    for index, piece in enumerate(split_message(text) or [""]):
        options: dict[str, Any] = {"allowed_mentions": NO_PINGS}
        if index == 0 and reference is not None:
            options["reference"] = reference
        if index == 0 and picture is not None:
            options["file"] = discord.File(io.BytesIO(picture.image), filename=picture.filename)
        await channel.send(piece or None, **options)


def uploaded_photo_refusal(message: discord.Message, incoming: IncomingMessage) -> str | None:
    """The kind no to a message that uploads an image and asks for a picture: never made from a real person's
    photo. None for every other message."""
    images = [a for a in message.attachments if (a.content_type or "").startswith("image/")]
    if not images or not asks_for_picture(incoming.text):
        return None
    log.info("refused to make a picture from an uploaded photo")
    return say_picture("picture_real_person", incoming.language_hint)


def add_picture_command(tree: app_commands.CommandTree[Any], handler: PictureHandler) -> None:
    @tree.command(name="picture", description=_("A picture of me"))
    @app_commands.rename(what=_("what"))
    @app_commands.describe(what=_("What the picture shows, e.g. at the beach at sunset"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def picture(interaction: discord.Interaction[Any], what: str = "") -> None:
        # Not ephemeral: asked for here, the picture is for the channel it was asked in.
        await interaction.response.defer(thinking=True)
        user = user_of(interaction)
        conversation = conversation_of(interaction)
        message = IncomingMessage(
            user=user,
            conversation_id=conversation,
            message_id=str(interaction.id),
            text=f"/picture {what}".strip(),
            sent_at=interaction.created_at,
            chat_kind=ChatKind.PRIVATE if conversation == dm_conversation_id(user) else ChatKind.GROUP,
            language_hint=language_from_locale(interaction.locale),
        )
        reply = await handler.handle_picture(message, what)
        if reply is None:
            await interaction.followup.send("…")
            return
        pieces = split_message(reply.text) or [""]
        options: dict[str, Any] = {"allowed_mentions": NO_PINGS}
        if reply.picture is not None:
            options["file"] = discord.File(io.BytesIO(reply.picture.image), filename=reply.picture.filename)
        await interaction.followup.send(pieces[0], **options)
        for piece in pieces[1:]:
            await interaction.followup.send(piece, allowed_mentions=NO_PINGS)
