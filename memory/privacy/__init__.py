"""Privacy: encryption at rest, pseudonymous keys, erasure, and the files kept per person.

Per-person data keys and the ciphers the stores seal with (`crypto`), stores naming people by a keyed hash of
their account (`pseudonyms`), an erasure that a write in flight cannot undo (`erasure`), and the folders of
files made for one person (`person_files`, `voice_archive`), deleted whole with /forget all.

The room the others build on: it imports none of memory's other rooms (contracts in pyproject.toml).
"""
