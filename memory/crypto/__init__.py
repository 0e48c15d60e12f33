"""Encryption at rest: per-person data keys wrapped by the master key (`keys`), and the ciphers stores use."""

from memory.crypto.cipher import PersonCipher, PlainCipher, Sealer, TextCipher, is_sealed, open_json, seal_json
from memory.crypto.keys import RedisDataKeys, WrongMasterKey, new_master_key, rewrap_data_keys

__all__ = [
    "PersonCipher",
    "PlainCipher",
    "RedisDataKeys",
    "Sealer",
    "TextCipher",
    "WrongMasterKey",
    "is_sealed",
    "new_master_key",
    "open_json",
    "rewrap_data_keys",
    "seal_json",
]
