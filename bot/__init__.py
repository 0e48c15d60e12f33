"""Souvenir: a self-hosted AI companion that remembers.

`bot` holds the platform-free engine (`engine`), the language models (`llm`), the settings (`config`), the wiring
(`app`, the one place concrete parts meet), the entry points (`cli`, `runner`, `python -m bot`), the operator's
admin socket (`admin`) and small modules beside them (errors, logs, health, metrics, personas, the voice codec).
Each package says in its `__init__` what it may import; the engine imports no platform, storage or scheduler
library, and only the entry points import the wiring (contracts in pyproject.toml)."""

__version__ = "0.1.0"
