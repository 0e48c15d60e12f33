"""The operator's side of a running Souvenir: `souvenir memories …` served over a local admin socket.

It imports aiohttp, the engine's values, ports and commands, and from memory only what names the data dir's
owner and its socket (`memory.redis.data_dir_lock`, `memory.redis.embedded`); never the wiring (`bot.app`), which
hands it the commands (contracts in pyproject.toml)."""
