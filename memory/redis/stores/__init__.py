"""Redis-backed short-term state: conversation windows, message claims and user profiles.

These modules own the Redis key layout for them (keys.py); each store's `forget_user` removes everything it
holds about a person.

Part of the Redis room: they import redis, the ciphers (`memory.privacy.crypto`), the conversation locks'
fences and the engine's values and ports; never long-term memory (contracts in pyproject.toml).
"""
