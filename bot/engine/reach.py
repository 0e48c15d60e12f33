"""Unprompted messages go to the account the person used last (one person may have several, see /link)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.ports import Identities, Messenger


class LastUsedAccount:
    """A `Messenger` for person keys: it writes to the person's last-used account, on that account's
    platform (or to the person's own account when that platform is not running)."""

    def __init__(self, identities: Identities, messengers: Mapping[str, Messenger]) -> None:
        self._identities = identities
        self._messengers = messengers

    async def send_direct(self, user_key: str, text: str) -> None:
        account = await self._identities.reach(user_key)
        messenger = self._messengers.get(account.partition(":")[0])
        if messenger is None:
            account, messenger = user_key, self._messengers[user_key.partition(":")[0]]
        await messenger.send_direct(account, text)


def reaching_last_used(identities: Identities, messengers: Mapping[str, Messenger]) -> dict[str, Messenger]:
    """The same platforms, each now delivering to wherever the person was last seen."""
    routed = LastUsedAccount(identities, messengers)
    return {platform: routed for platform in messengers}
