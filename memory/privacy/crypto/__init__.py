"""Encryption at rest: per-person data keys wrapped by the master key (`keys`), kept in a key store apart from
the data (`key_store`), and the ciphers stores use."""

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
