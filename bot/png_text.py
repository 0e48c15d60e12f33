"""The text chunks of a PNG file (tEXt, zTXt, iTXt), read with the standard library.

Character cards carry their JSON, base64-encoded, in a `chara` (V2) or `ccv3` (V3) text chunk. Only the
chunk structure is read; the image itself is never decoded.
"""

from __future__ import annotations

import struct
import zlib

from bot.errors import ConfigError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A card's text is a few hundred kilobytes at most; a compressed chunk may not inflate beyond this (a few bytes
# of zlib can expand to gigabytes).
MAX_TEXT_BYTES = 8 * 1024 * 1024


class DamagedPng(ConfigError):
    """The file starts like a PNG but its chunks cannot be read; the message says what is wrong."""


def is_png(data: bytes) -> bool:
    return data.startswith(PNG_SIGNATURE)


def png_text_chunks(data: bytes) -> dict[str, str]:
    """Keyword -> text of every text chunk (the first of each keyword wins), up to the IEND chunk."""
    if not is_png(data):
        raise DamagedPng("not a PNG file")
    texts: dict[str, str] = {}
    at = len(PNG_SIGNATURE)
    while True:
        if at + 8 > len(data):
            raise DamagedPng("truncated PNG (it ends before its IEND chunk)")
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        end = at + 8 + length + 4
        if end > len(data):
            raise DamagedPng(f"truncated PNG (its {kind.decode('latin-1')!r} chunk is cut short)")
        body = data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[end - 4 : end])
        if zlib.crc32(kind + body) != crc:
            raise DamagedPng(f"damaged PNG (its {kind.decode('latin-1')!r} chunk fails its checksum)")
        if kind == b"IEND":
            return texts
        if kind in (b"tEXt", b"zTXt", b"iTXt"):
            keyword, text = _text_chunk(kind, body)
            texts.setdefault(keyword, text)
        at = end


def _text_chunk(kind: bytes, body: bytes) -> tuple[str, str]:
    keyword, _, rest = body.partition(b"\0")
    name = keyword.decode("latin-1")
    try:
        if kind == b"tEXt":
            return name, rest.decode("latin-1")
        if kind == b"zTXt":
            return name, _inflate(rest[1:], name).decode("latin-1")
        compressed, rest = rest[0], rest[2:]  # iTXt: compression flag, method, language, translated keyword
        _language, _, rest = rest.partition(b"\0")
        _translated, _, text = rest.partition(b"\0")
        return name, (_inflate(text, name) if compressed else text).decode("utf-8")
    except (zlib.error, UnicodeDecodeError, IndexError):
        raise DamagedPng(f"damaged PNG (its {name!r} text chunk cannot be read)") from None


def _inflate(compressed: bytes, name: str) -> bytes:
    """The chunk's text, refused once it inflates beyond `MAX_TEXT_BYTES` (never inflated further)."""
    inflater = zlib.decompressobj()
    text = inflater.decompress(compressed, MAX_TEXT_BYTES)
    if inflater.unconsumed_tail or (len(text) == MAX_TEXT_BYTES and inflater.decompress(b"", 1)):
        raise DamagedPng(f"PNG text chunk {name!r} inflates to more than {MAX_TEXT_BYTES // 2**20} MB: not a card")
    return text


def png_with_text(data: bytes, texts: dict[str, str]) -> bytes:
    """`data` (a PNG) with a tEXt chunk per keyword added before IEND, replacing same-named text chunks."""
    chunks = []
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        chunk = data[at : at + 12 + length]
        at += 12 + length
        if kind == b"IEND":
            break
        if kind in (b"tEXt", b"zTXt", b"iTXt") and chunk[8:].partition(b"\0")[0].decode("latin-1") in texts:
            continue
        chunks.append(chunk)
    for keyword, text in texts.items():
        chunks.append(png_chunk(b"tEXt", keyword.encode("latin-1") + b"\0" + text.encode("latin-1")))
    chunks.append(png_chunk(b"IEND", b""))
    return PNG_SIGNATURE + b"".join(chunks)


def tiny_png(width: int = 1, height: int = 1, rgb: tuple[int, int, int] = (200, 120, 160)) -> bytes:
    """A plain RGB image: an avatar placeholder, and what tests build cards on."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    chunks = (png_chunk(b"IHDR", header), png_chunk(b"IDAT", zlib.compress(rows)), png_chunk(b"IEND", b""))
    return PNG_SIGNATURE + b"".join(chunks)


def png_chunk(kind: bytes, body: bytes) -> bytes:
    """One chunk: its length, kind, body and checksum."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
