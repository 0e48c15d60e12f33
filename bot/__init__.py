"""Souvenir: a self-hosted AI companion that remembers."""

__version__ = "0.1.0"
