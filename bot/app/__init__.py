"""The one place where concrete parts are wired together; backends are chosen here, once.

`open_core` gives the engine and the user commands on real stores (Redis, Qdrant, the LLM);
`open_platforms_and_jobs` adds the platform adapters and the scheduler of unprompted messages;
`open_status_server` serves /healthz, /metrics and the memory browser. Each module wires one concern:
`stores` (the data folder, Redis, the cipher, the Redis stores), `memory` (long-term memory), `conversation`
(the engine and its background work), `commands`, `erasure`, `web`, `platforms`; `assembly` opens them in order.

It may import every part (engine, memory, jobs, adapters, LLMs, settings); no part imports it back, only the
entry points (`bot.cli`, `bot.runner`) do (contracts in pyproject.toml).
"""

from bot.app.assembly import open_core
from bot.app.core import Core
from bot.app.planner import DeferredPlanner
from bot.app.platforms import open_platforms_and_jobs
from bot.app.stores import open_key_store
from bot.app.web import open_status_server

__all__ = ["Core", "DeferredPlanner", "open_core", "open_key_store", "open_platforms_and_jobs", "open_status_server"]
