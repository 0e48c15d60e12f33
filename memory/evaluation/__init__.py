"""Offline evaluations of the memory pipeline (LoCoMo evidence recall)."""
