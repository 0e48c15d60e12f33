"""What a URL, a host or a key must look like to be accepted as a setting."""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from urllib.parse import urlsplit


def http_url(value: str | None) -> str | None:
    """An http:// or https:// URL with a host (a base URL setting), stripped; ValueError says what is expected."""
    if value is None:
        return None
    value = value.strip()
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("an http:// or https:// URL such as http://localhost:11434/v1")
    return value


def is_loopback_host(host: str) -> bool:
    """localhost or a loopback IP address (127.0.0.0/8, ::1): only this machine can reach it."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_encryption_key(text: str) -> bool:
    """The SOUVENIR_ENCRYPTION_KEY format: 32 bytes in URL-safe base64 (what Fernet.generate_key() prints)."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{43}=", text.strip()):
        return False
    try:
        return len(base64.urlsafe_b64decode(text.strip().encode())) == 32
    except (binascii.Error, ValueError):
        return False
