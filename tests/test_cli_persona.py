"""`souvenir persona import|show|export`, and a card as SOUVENIR_PERSONA_FILE, run as a person would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.png_text import png_with_text, tiny_png
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import run_chat, run_souvenir, souvenir_env

DATA = Path(__file__).parent / "data"
CARD_PNG = DATA / "maelle_card_v2.png"


def _system_prompts(fake_llm: FakeOpenAI) -> list[str]:
    prompts = []
    for body in fake_llm.bodies:
        messages = body.get("messages")
        if isinstance(messages, list) and messages and messages[0].get("role") == "system":
            prompts.append(str(messages[0]["content"]))
    return prompts


async def test_a_png_card_as_persona_file_answers_in_character(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = {**souvenir_env(data_dir, fake_llm.base_url, redis_url), "SOUVENIR_PERSONA_FILE": str(CARD_PNG)}
    code, _, err = await run_chat(["Tell me about the korrigans"], env, "--user", "Jo")

    assert code == 0, err
    assert "Traceback" not in err and "UnicodeDecodeError" not in err
    reply_prompts = [p for p in _system_prompts(fake_llm) if 'You are "Maëlle"' in p]
    assert reply_prompts, "the reply was not written as the card's persona"
    prompt = reply_prompts[0]
    assert "Korrigans are small dancing spirits" in prompt and "warns Jo never to join" in prompt
    assert "CREATOR-NOTE-SECRET" not in prompt


async def test_import_show_export_and_the_app_uses_the_imported_card(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path, tmp_path: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    code, out, err = await run_souvenir(env, "persona", "import", str(CARD_PNG))
    assert code == 0, err
    assert "Imported Maëlle" in out
    assert "lore entries: 4" in out and "greeting: '*wipes the salt" in out and "mes_example" in out

    code, shown, err = await run_souvenir(env, "persona", "show")
    assert code == 0, err
    assert "name: Maëlle" in shown and "active.png" in shown

    out_file = tmp_path / "exported.json"
    code, _, err = await run_souvenir(env, "persona", "export", "--out", str(out_file))
    assert code == 0, err
    exported = json.loads(out_file.read_text(encoding="utf-8"))
    original = json.loads((DATA / "maelle_card_v2.json").read_text(encoding="utf-8"))
    assert exported["spec"] == "chara_card_v2"
    assert exported["data"] == original["data"]  # every field, unknown extensions and disabled lore included
    assert exported["data"]["extensions"]["x_unknown_tool"] == {"nested": [1, 2, 3]}

    code, _, err = await run_chat(["hello"], env, "--user", "Jo")
    assert code == 0, err
    assert any('You are "Maëlle"' in p for p in _system_prompts(fake_llm))


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (CARD_PNG.read_bytes()[:300], "truncated PNG"),
        (tiny_png(), "no 'chara' or 'ccv3' text chunk"),
        (png_with_text(tiny_png(), {"chara": "%%%not-base64%%%"}), "not valid base64"),
        (json.dumps({"spec": "chara_card_v1", "data": {"name": "X"}}).encode(), "unsupported card spec"),
    ],
)
async def test_a_damaged_card_is_refused_and_the_active_persona_stays(
    fake_llm: FakeOpenAI, data_dir: Path, tmp_path: Path, content: bytes, problem: str
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    code, _, err = await run_souvenir(env, "persona", "import", str(DATA / "maelle_card_v2.json"))
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in (data_dir / "persona").iterdir()}

    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(content)
    code, _, err = await run_souvenir(env, "persona", "import", str(damaged))

    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert problem in err and str(damaged) in err
    assert {p.name: p.read_bytes() for p in (data_dir / "persona").iterdir()} == before
