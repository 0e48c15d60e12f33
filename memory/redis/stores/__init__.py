"""Redis-backed short-term state: conversation windows, message claims and user profiles.

These modules own the Redis key layout for them (keys.py); each store's `forget_user` removes everything it
holds about a person.
"""
