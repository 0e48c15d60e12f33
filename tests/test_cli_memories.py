"""`souvenir memories …` on the same stores the chat wrote to (real Redis, embedded Qdrant, USE)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import run_chat, run_souvenir, souvenir_env


async def test_list_search_export_and_forget_all(fake_llm: FakeOpenAI, redis_url: str, data_dir: Path) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    said = ["I have a cat named Miso and I love Blue Note jazz", "/birthday 14 mars"]
    code, _, err = await run_chat(said, env, "--user", "lea")
    assert code == 0, err

    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "terminal:lea")
    assert code == 0, err
    assert "Miso" in listed

    question = "what is the name of my cat?"
    code, found, err = await run_souvenir(env, "memories", "search", "--user", "terminal:lea", question)
    assert code == 0, err
    assert "Miso" in found

    code, exported, err = await run_souvenir(env, "memories", "export", "--user", "terminal:lea")
    document = json.loads(exported)
    assert document["profile"]["birthday"] == "--03-14"
    assert any("Miso" in m["text"] for m in document["memories"])

    code, _, err = await run_souvenir(env, "memories", "forget", "--all", "--user", "terminal:lea")
    assert code == 0, err
    code, exported, err = await run_souvenir(env, "memories", "export", "--user", "terminal:lea")
    document = json.loads(exported)
    assert document["memories"] == [] and document["recent_private_messages"] == []
    assert document["profile"]["birthday"] is None


async def test_a_malformed_user_key_gets_one_clear_line(fake_llm: FakeOpenAI, redis_url: str, data_dir: Path) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    code, _, err = await run_souvenir(env, "memories", "list", "--user", "lea")
    assert code == 2
    assert "--user" in err and "telegram:12345" in err and "Traceback" not in err


async def test_users_lists_people_and_a_bare_id_finds_the_chat_user(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    code, _, err = await run_chat(["I have a cat named Miso"], env, "--user", "alice")
    assert code == 0, err

    code, users, err = await run_souvenir(env, "memories", "users")
    assert code == 0, err
    assert "terminal:alice" in users and "(1 person)" in users

    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "alice")
    assert code == 0, err
    assert "Miso" in listed

    code, _, err = await run_souvenir(env, "memories", "list", "--user", "ali")
    assert code == 2
    assert "did you mean terminal:alice" in err and "Traceback" not in err


def _total(listed: str) -> int:
    """The N of the "(shown of N)" line that ends `memories list`."""
    return int(listed.strip().splitlines()[-1].strip("()").split(" of ")[1])


async def test_forget_all_tells_the_operator_whom_it_erased_and_how_much(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    said = ["I have a cat named Miso", "My sister Clara lives in Berlin", "/birthday 14 mars"]
    code, _, err = await run_chat(said, env, "--user", "lea")
    assert code == 0, err
    code, exported, err = await run_souvenir(env, "memories", "export", "--user", "lea")
    assert code == 0, err
    held = len(json.loads(exported)["memories"])
    assert held >= 2

    code, out, err = await run_souvenir(env, "memories", "forget", "--all", "--user", "lea")

    assert code == 0, err
    assert out.startswith(f"Erased terminal:lea: {held} memories, ")
    assert "recent private message" in out and "their profile (birthday" in out
    assert "oublié" not in out + err and "toi" not in out.split()
    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "terminal:lea")
    assert _total(listed) == 0


async def test_forget_one_memory_names_the_person_and_the_memory(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    code, _, err = await run_chat(["I have a cat named Miso"], env, "--user", "lea")
    assert code == 0, err
    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "lea")
    memory_id = next(line.split()[0] for line in listed.splitlines() if "Miso" in line)

    code, out, err = await run_souvenir(env, "memories", "forget", "--id", memory_id, "--user", "lea")
    assert code == 0, err
    assert out.startswith(f"Forgot memory {memory_id} of terminal:lea: ") and "Miso" in out

    code, out, err = await run_souvenir(env, "memories", "forget", "--id", memory_id, "--user", "lea")
    assert code == 1 and out == ""
    assert f"terminal:lea has no memory '{memory_id}'" in err and "memories list --user terminal:lea" in err


async def test_search_shows_the_best_match_first_with_its_score(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    said = ["We adopted a kitten last week.", "Her name is Miso and she only eats tuna.", "I work as a nurse in Lyon."]
    code, _, err = await run_chat(said, env, "--user", "lea")
    assert code == 0, err

    code, found, err = await run_souvenir(env, "memories", "search", "--user", "lea", "what does Miso eat? tuna")

    assert code == 0, err
    rows = [line.split(maxsplit=3) for line in found.splitlines()]
    assert "Miso" in rows[0][3]
    scores = [float(row[1]) for row in rows]
    assert len(scores) >= 2 and scores == sorted(scores, reverse=True)
