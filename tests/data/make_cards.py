"""Builds the PNG test cards from maelle_card_v2.json (run: python tests/data/make_cards.py).

The tests build the damaged ones themselves; these are the cards as a front end would export them.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from bot.png_text import png_with_text, tiny_png

HERE = Path(__file__).parent


def card_png(card: dict[str, object], keyword: str = "chara", image: bytes | None = None) -> bytes:
    encoded = base64.b64encode(json.dumps(card, ensure_ascii=False).encode()).decode("ascii")
    return png_with_text(image or tiny_png(4, 4), {keyword: encoded})


def main() -> None:
    card = json.loads((HERE / "maelle_card_v2.json").read_text(encoding="utf-8"))
    (HERE / "maelle_card_v2.png").write_bytes(card_png(card))
    v3 = {**card, "spec": "chara_card_v3", "spec_version": "3.0",
          "data": {**card["data"], "nickname": "Maë", "group_only_greetings": []}}  # fmt: skip
    both = png_with_text(card_png(card), {"ccv3": base64.b64encode(json.dumps(v3).encode()).decode("ascii")})
    (HERE / "maelle_card_v3.png").write_bytes(both)


if __name__ == "__main__":
    main()
