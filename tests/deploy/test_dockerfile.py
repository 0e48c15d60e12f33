"""The image as the Dockerfile describes it (no Docker engine here: the file is read, not built)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.fakes.souvenir_process import ROOT

BUILD_TOOLS = ("build-essential", "gcc", "g++", "make", "python3-dev", "libc6-dev")


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [argument for key, argument in self.instructions if key == keyword]


def _stages() -> list[Stage]:
    text = (ROOT / "Dockerfile").read_text()
    logical = re.sub(r"\\\n", " ", text)  # continuation lines join the instruction they continue
    stages: list[Stage] = []
    for line in logical.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, argument = line.partition(" ")
        keyword, argument = keyword.upper(), argument.strip()
        if keyword == "FROM":
            base, _, name = re.sub(r"\s+AS\s+", " AS ", argument, flags=re.IGNORECASE).partition(" AS ")
            stages.append(Stage(base.strip(), name.strip() or None))
        elif stages:
            stages[-1].instructions.append((keyword, argument))
    return stages


def test_the_image_is_built_in_stages_on_a_slim_python() -> None:
    stages = _stages()
    assert len(stages) >= 2
    args = (ROOT / "Dockerfile").read_text()
    for stage in stages:
        assert "slim" in stage.base or "slim" in args, stage.base
    runtime = stages[-1]
    copied = " ".join(runtime.all("COPY"))
    assert "--from=" in copied  # the runtime stage takes what an earlier stage built


def test_the_final_image_has_no_build_tools() -> None:
    runtime = _stages()[-1]
    installs = " ".join(runtime.all("RUN"))
    for tool in BUILD_TOOLS:
        assert not re.search(rf"(^|\s){re.escape(tool)}(\s|$)", installs), tool
    assert "pip install" not in installs  # only the virtualenv built in the earlier stage


def test_the_companion_runs_as_a_user_that_is_not_root() -> None:
    runtime = _stages()[-1]
    users = runtime.all("USER")
    assert users, "no USER in the final stage: the companion would run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")


def test_the_container_checks_its_health_and_runs_the_companion_with_data_on_a_volume() -> None:
    runtime = _stages()[-1]
    [healthcheck] = runtime.all("HEALTHCHECK")
    assert "/healthz" in healthcheck
    assert runtime.all("CMD")[-1].replace(" ", "") == '["souvenir","run"]'
    assert any("/data" in volume for volume in runtime.all("VOLUME"))
    env = " ".join(runtime.all("ENV"))
    assert "SOUVENIR_DATA_DIR=/data" in env
    assert "SOUVENIR_HTTP_PORT=" in env  # the health check needs the HTTP endpoints switched on
