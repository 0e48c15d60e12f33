"""Tests of the Telegram adapter."""
