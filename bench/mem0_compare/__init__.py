"""Souvenir against mem0 (bench/compare_mem0.py is the entry)."""
