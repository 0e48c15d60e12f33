"""Received voice notes' audio, kept only when the operator enables it (SOUVENIR_VOICE_KEEP_AUDIO=true).

One folder per person under SOUVENIR_DATA_DIR/voice-notes, named by a hash of their key (no account id in
a path); /forget all deletes the folder, and forgetting one memory deletes the voice note it was heard from.
Nothing else reads these files: the transcript is what is remembered.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path

from memory.privacy.person_files import PersonFiles

_SAFE = re.compile(r"[^A-Za-z0-9_-]")
_SUFFIX = re.compile(r"\.[a-z0-9]{1,5}")


class VoiceFiles(PersonFiles):
    """One folder per person (`PersonFiles`: named by a hash, erased whole), holding their received voice notes."""

    async def keep(self, user_key: str, message_id: str, filename: str, audio: bytes) -> None:
        suffix = Path(filename).suffix.lower()
        if not _SUFFIX.fullmatch(suffix):
            suffix = ".audio"
        path = self.folder_of(user_key) / f"{_SAFE.sub('_', message_id)}{suffix}"
        await asyncio.to_thread(_write, path, audio)

    async def forget_messages(self, user_key: str, message_ids: Sequence[str]) -> None:
        """The audio kept of these messages (`memory.ports.MessageFiles`): a memory forgotten takes its voice note."""
        stems = {_SAFE.sub("_", message_id) for message_id in message_ids}
        if stems:
            await asyncio.to_thread(_remove, self.folder_of(user_key), stems)


def _remove(folder: Path, stems: set[str]) -> None:
    for path in folder.glob("*") if folder.is_dir() else ():
        if path.stem in stems:
            path.unlink(missing_ok=True)


def _write(path: Path, audio: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_bytes(audio)
