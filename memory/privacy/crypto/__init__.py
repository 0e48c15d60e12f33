"""Encryption at rest: per-person data keys wrapped by the master key (`keys`), kept in a key store apart from
the data (`key_store`), and the ciphers stores use.

The floor of the privacy room: it imports `cryptography`, redis (a key store of its own) and `bot.errors`, and
nothing else of memory or of the engine."""

from memory.privacy.crypto.cipher import PersonCipher, PlainCipher, Sealer, TextCipher, is_sealed, open_json, seal_json
from memory.privacy.crypto.key_store import FileKeyStore, KeyStore, RedisKeyStore
from memory.privacy.crypto.keys import DataKeys, RedisDataKeys, WrongMasterKey, new_master_key, rewrap_data_keys

__all__ = [
    "DataKeys",
    "FileKeyStore",
    "KeyStore",
    "PersonCipher",
    "PlainCipher",
    "RedisDataKeys",
    "RedisKeyStore",
    "Sealer",
    "TextCipher",
    "WrongMasterKey",
    "is_sealed",
    "new_master_key",
    "open_json",
    "rewrap_data_keys",
    "seal_json",
]
