"""The compose file: read as YAML always; validated by `docker compose config` where the client has compose.

No Docker engine runs on the build machines: nothing here starts a container."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.fakes.souvenir_process import ROOT

COMPOSE = ROOT / "compose.yaml"


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def _docker_compose() -> str:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no docker client on PATH")
    probe = subprocess.run([docker, "compose", "version"], capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip("the docker client has no compose plugin")
    return docker


def _without_souvenir() -> dict[str, str]:
    """Only the .env written by the test speaks: a SOUVENIR_* of the caller's shell must not."""
    return {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}


def _config(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(COMPOSE, folder / "compose.yaml")
    docker = _docker_compose()
    return subprocess.run(
        [docker, "compose", "-f", str(folder / "compose.yaml"), *args, "config", "-q"],
        capture_output=True, text=True, timeout=60, cwd=folder, env=_without_souvenir(),
    )  # fmt: skip


def test_souvenir_waits_for_a_healthy_redis_and_qdrant() -> None:
    services = _compose()["services"]
    depends = services["souvenir"]["depends_on"]
    assert depends["redis"]["condition"] == "service_healthy"
    assert depends["qdrant"]["condition"] == "service_healthy"
    assert "healthcheck" in services["redis"] and "healthcheck" in services["qdrant"]


def test_redis_keeps_an_append_only_file_and_every_store_has_a_volume() -> None:
    services = _compose()["services"]
    assert "--appendonly" in services["redis"]["command"]
    assert services["redis"]["command"][services["redis"]["command"].index("--appendonly") + 1] == "yes"
    for name, mount in (("redis", "/data"), ("qdrant", "/qdrant/storage"), ("souvenir", "/data")):
        assert any(str(v).endswith(f":{mount}") for v in services[name]["volumes"]), name
    assert services["qdrant"]["image"].startswith("qdrant/qdrant")
    assert "SOUVENIR_QDRANT_API_KEY" in services["qdrant"]["environment"]["QDRANT__SERVICE__API_KEY"]


def test_ollama_only_runs_when_its_profile_is_asked_for() -> None:
    services = _compose()["services"]
    assert services["ollama"]["profiles"] == ["ollama"]
    assert services["souvenir"]["depends_on"]["ollama"]["required"] is False


def test_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SOUVENIR_QDRANT_API_KEY=0123456789abcdef\nSOUVENIR_TELEGRAM_TOKEN=1:x\n")
    checked = _config(tmp_path)
    assert checked.returncode == 0, checked.stderr
    with_ollama = _config(tmp_path, "--profile", "ollama")
    assert with_ollama.returncode == 0, with_ollama.stderr


def test_docker_compose_refuses_to_run_qdrant_without_an_api_key(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SOUVENIR_TELEGRAM_TOKEN=1:x\n")
    checked = _config(tmp_path)
    assert checked.returncode != 0
    assert "SOUVENIR_QDRANT_API_KEY" in checked.stderr
