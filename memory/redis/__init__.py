"""Redis: the server, and the short-term state every replica shares in it.

The server is the embedded Valkey (`embedded`, its append-only file rewritten after erasures: `aof_rewrite`) or
the configured one (`connect`); `data_dir_lock` keeps a data dir's embedded stores to one process and `schema`
says which stored layout and memory index are in use. The state: conversation windows, message claims and
profiles (`stores`), the durable inbox (`inbox`), conversation locks, rate limits and picture quotas, linked
accounts (`identities`), the reply trail, and the memory browser's sessions and login tokens.

It may import the privacy room (the ciphers) and memory's ports, never the long-term memory rooms (recall,
writing, the person model) (contracts in pyproject.toml).
"""
