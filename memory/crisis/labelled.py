"""The labelled crisis sets: `level<TAB>lang<TAB>text` lines (0 none, 1 concern, 2 imminent), `#` comments.

Training (`TRAINING`): lines written for the reader, French and English — direct statements, slang, plans and means,
farewells, hopelessness, self-harm, with hard negatives (idioms, denials, other people, fiction, everyday pills,
ropes, roofs and bridges) and what people say to a companion all day, and wider everyday lines (texting, euphemisms,
indirect signs, elderly and teen voices, hard ordinary lines), and mostly hard ordinary lines against false alarms
(tiredness, pain, everyday pills, knives and ropes, goodbyes and moving away), everyday lines with numbers and clock
times, recovery, relief and everyday weariness told in crisis words, contrast lines (an ordinary line sharing most
of a crisis line's words, and crisis lines in everyday words), many voices (ages, texting, regional French), daily
life in a crisis's words (medication with times, nights, roads, small injuries, embarrassment) — and the phrase
cues' development sets (crisis_labelled.tsv, crisis_heldout.tsv: 0/1 labels, a crisis there taken as imminent when
it names a time, a plan or means).

`LOOKED_AT`: crisis_fresh.tsv to crisis_fresh9.tsv, each written by someone who had seen no training line (or, for
the sixth, a few for the format) and committed before the tuning that followed it, then measured once before it was
looked at. Each has been looked at since, so none is a blind test any more: they are trained on.

Evaluation, never trained on or looked at line by line (`FRESH_SETS`): crisis_fresh10.tsv and crisis_fresh11.tsv,
written by two people who had seen no training line, the detector or the safety code, committed before the reader
they measure was trained, and crisis_fresh12.tsv, written the same way once it had been trained.
crisis_ordinary_numbers.tsv (48 ordinary lines with numbers and clock times, none a crisis) is checked by the
reader's tests, never trained on.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from bot.engine.safety.crisis_cues import IMMINENT, normalised

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
LOOKED_AT = tuple(DATA / f"crisis_fresh{n}.tsv" for n in ("", 2, 3, 4, 5, 6, 7, 8, 9))
TRAINING = (DATA / "crisis_train_en.tsv", DATA / "crisis_train_fr.tsv", DATA / "crisis_train_everyday.tsv",
            DATA / "crisis_train_hard.tsv", DATA / "crisis_train_more_en.tsv", DATA / "crisis_train_more_fr.tsv",
            DATA / "crisis_train_wide_en.tsv", DATA / "crisis_train_wide_fr.tsv",
            DATA / "crisis_train_hardneg_en.tsv", DATA / "crisis_train_hardneg_fr.tsv",
            DATA / "crisis_train_numbers.tsv",
            DATA / "crisis_labelled.tsv", DATA / "crisis_heldout.tsv",
            DATA / "crisis_train_contrast_en.tsv", DATA / "crisis_train_contrast_fr.tsv",
            DATA / "crisis_train_recovery.tsv",
            DATA / "crisis_train_voices_en.tsv", DATA / "crisis_train_voices_fr.tsv",
            DATA / "crisis_train_daily_en.tsv", DATA / "crisis_train_daily_fr.tsv",
            *LOOKED_AT)  # fmt: skip
FRESH_TENTH = DATA / "crisis_fresh10.tsv"  # once the ninth had been measured, by someone who had seen no training line
FRESH_ELEVENTH = DATA / "crisis_fresh11.tsv"  # the same, written beside the tenth by someone else
FRESH_TWELFTH = DATA / "crisis_fresh12.tsv"  # written once the reader it measures was trained, by someone else again
FRESH_SETS = (FRESH_TENTH, FRESH_ELEVENTH, FRESH_TWELFTH)
_BINARY = {"crisis_labelled.tsv", "crisis_heldout.tsv"}


@dataclass(frozen=True, slots=True)
class Labelled:
    level: int
    language: str
    text: str


def load_labelled(*paths: Path) -> list[Labelled]:
    rows = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            level, language, text = line.split("\t", 2)
            if path.name in _BINARY and level == "1" and IMMINENT.search(normalised(text)):
                level = "2"
            if level not in ("0", "1", "2") or language not in ("en", "fr"):
                raise ValueError(f"{path}:{number}: expected level 0/1/2 and lang en/fr, got {level!r} {language!r}")
            rows.append(Labelled(int(level), language, text.strip()))
    return rows


def training_rows(*paths: Path) -> list[Labelled]:
    """The training lines, less any that an evaluation set also holds (a short line two writers both wrote, such as
    "I just want to sleep forever", would otherwise be scored on after being trained on)."""
    held_out = _evaluation_texts()
    return [row for row in load_labelled(*paths) if row.text.casefold() not in held_out]


@functools.cache
def _evaluation_texts() -> frozenset[str]:
    return frozenset(row.text.casefold() for row in load_labelled(*FRESH_SETS))
