"""Pictures in `souvenir chat` (a subprocess on the whole app, SOUVENIR_IMAGES_* set): the picture is written
into the data dir and its path printed under the caption; /picture the same; off means a kind line."""

from __future__ import annotations

import re
from pathlib import Path

from memory.privacy.person_files import PersonFiles
from tests.fakes.fake_images import tiny_png
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import JSON_DEFAULT_REPLY, JsonObject, last_user_text
from tests.fakes.souvenir_process import run_chat, souvenir_env

AVATAR = tiny_png((1, 2, 3), size=6)


def _responder(body: JsonObject) -> str:
    if isinstance(body.get("response_format"), dict):  # memory extraction
        return JSON_DEFAULT_REPLY
    if "picture" not in last_user_text(body):
        return "ok"
    return "[[picture: reading in a sunny café]] Coffee and a good book, thinking of you."


async def test_a_picture_is_written_to_the_data_dir_and_its_path_printed(redis_url: str, data_dir: Path) -> None:
    avatar = data_dir.parent / "avatar.png"
    avatar.write_bytes(AVATAR)
    async with FakeOpenAI(responder=_responder) as server:
        env = souvenir_env(data_dir, server.base_url, redis_url) | {
            "SOUVENIR_IMAGES_ENABLED": "true", "SOUVENIR_IMAGES_BASE_URL": server.base_url,
            "SOUVENIR_PERSONA_AVATAR": str(avatar),
        }  # fmt: skip
        code, out, err = await run_chat(["send me a picture of you", "/picture at the café"], env, "--user", "lea")

    assert code == 0, err
    assert "ERROR" not in err and "Traceback" not in err, err  # the exchange with its picture went to the outbox
    assert out.count("Coffee and a good book, thinking of you.") == 2
    paths = [Path(found) for found in re.findall(r"^(/\S+\.png)$", out, re.MULTILINE)]
    assert len(paths) == 2, out + err
    folder = PersonFiles(data_dir / "people").folder_of("terminal:lea").resolve() / "pictures"  # hers alone
    for path in paths:
        assert path.parent == folder and path.read_bytes() == server.images.image
    assert [r.reference for r in server.images.requests] == [AVATAR, AVATAR]
    assert all("Souvenir" in r.prompt and "No nudity" in r.prompt for r in server.images.requests)


async def test_forget_all_leaves_no_file_made_for_the_person(redis_url: str, data_dir: Path) -> None:
    async with FakeOpenAI(responder=_responder) as server:
        env = souvenir_env(data_dir, server.base_url, redis_url) | {
            "SOUVENIR_IMAGES_ENABLED": "true", "SOUVENIR_IMAGES_BASE_URL": server.base_url,
        }  # fmt: skip
        code, _, err = await run_chat(["hello there"], env, "--user", "max")  # the data dir as it starts
        assert code == 0, err
        before = _files(data_dir)
        said = ["/voice on", "I had a lovely day at the beach", "I feel so sad tonight", "send me a picture of you"]
        code, out, err = await run_chat(said, env, "--user", "lea")
        assert code == 0 and re.search(r"^/\S+\.png$", out, re.MULTILINE), out + err
        code, out, err = await run_chat(["/mood"], env, "--user", "lea")  # her messages' moods, written by now
        assert code == 0, err
        made = {re.sub(r"[0-9a-f]{12,}", "*", Path(name).name) for name in _files(data_dir) - before}
        assert made == {"souvenir-voice-*.ogg", "lea-*.png", "souvenir-mood-lea.png"}, out + err
        code, out, err = await run_chat(["/forget all", "/forget yes"], env, "--user", "lea")

    assert code == 0 and "forgotten everything" in out, out + err
    assert _files(data_dir) - before == set()  # nothing made for her is left


def _files(data_dir: Path) -> set[str]:
    """Every file but the stores' own (their contents after an erasure: tests/test_erasure_on_disk.py)."""
    found = (str(p.relative_to(data_dir)) for p in data_dir.rglob("*") if p.is_file())
    return {name for name in found if not name.startswith(("qdrant/", "valkey")) and "appendonly" not in name}


async def test_pictures_off_is_a_kind_line(redis_url: str, data_dir: Path) -> None:
    async with FakeOpenAI(responder=_responder) as server:
        env = souvenir_env(data_dir, server.base_url, redis_url)
        code, out, err = await run_chat(["send me a picture of you"], env)

    assert code == 0, err
    assert "pictures aren't set up here" in out
    assert server.images.requests == []
