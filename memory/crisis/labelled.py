"""The labelled crisis sets: `level<TAB>lang<TAB>text` lines (0 none, 1 concern, 2 imminent), `#` comments.

Training (`TRAINING`): lines written for the reader, French and English — direct statements, slang, plans and means,
farewells, hopelessness, self-harm, with hard negatives (idioms, denials, other people, fiction, everyday pills,
ropes, roofs and bridges) and what people say to a companion all day, and wider everyday lines (texting, euphemisms,
indirect signs, elderly and teen voices, hard ordinary lines), and mostly hard ordinary lines against false alarms
(tiredness, pain, everyday pills, knives and ropes, goodbyes and moving away), everyday lines with numbers and clock
times, recovery, relief and everyday weariness told in crisis words, contrast lines (an ordinary line sharing most
of a crisis line's words, and crisis lines in everyday words) — and the phrase cues' development sets
(crisis_labelled.tsv, crisis_heldout.tsv: 0/1 labels, a crisis there taken as imminent when it names a time, a plan
or means).

Evaluation, never trained on (`FRESH_SETS`), each committed before the training that followed: crisis_fresh.tsv
(before the reader was first trained), crisis_fresh2.tsv (its ordinary lines nearly all hard), crisis_fresh3.tsv,
crisis_fresh4.tsv and crisis_fresh5.tsv (each written by someone who had seen no training line), crisis_fresh6.tsv
(written once the fifth had been measured, by someone who had seen only a few training lines, for the format) and
crisis_fresh7.tsv, crisis_fresh8.tsv and crisis_fresh9.tsv (each once the one before had been measured, by someone
who had seen no training line).
crisis_ordinary_numbers.tsv (48 ordinary lines with numbers and clock times, none a crisis) is checked by the
reader's tests, never trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.engine.safety.crisis_cues import IMMINENT, normalised

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
TRAINING = (DATA / "crisis_train_en.tsv", DATA / "crisis_train_fr.tsv", DATA / "crisis_train_everyday.tsv",
            DATA / "crisis_train_hard.tsv", DATA / "crisis_train_more_en.tsv", DATA / "crisis_train_more_fr.tsv",
            DATA / "crisis_train_wide_en.tsv", DATA / "crisis_train_wide_fr.tsv",
            DATA / "crisis_train_hardneg_en.tsv", DATA / "crisis_train_hardneg_fr.tsv",
            DATA / "crisis_train_numbers.tsv",
            DATA / "crisis_labelled.tsv", DATA / "crisis_heldout.tsv",
            DATA / "crisis_train_contrast_en.tsv", DATA / "crisis_train_contrast_fr.tsv",
            DATA / "crisis_train_recovery.tsv")  # fmt: skip
FRESH = DATA / "crisis_fresh.tsv"
FRESH_SECOND = DATA / "crisis_fresh2.tsv"  # written once the first had been measured, before any further tuning
FRESH_THIRD = DATA / "crisis_fresh3.tsv"  # written once the second had been measured, before any further tuning
FRESH_FOURTH = DATA / "crisis_fresh4.tsv"  # written by someone who had seen no training line
FRESH_FIFTH = DATA / "crisis_fresh5.tsv"  # the same, once the fourth had been measured
FRESH_SIXTH = DATA / "crisis_fresh6.tsv"  # once the fifth had been measured, by someone who had seen few training lines
FRESH_SEVENTH = DATA / "crisis_fresh7.tsv"  # once the sixth had been measured, by someone who had seen no training line
FRESH_EIGHTH = DATA / "crisis_fresh8.tsv"  # the same, once the seventh had been measured
FRESH_NINTH = DATA / "crisis_fresh9.tsv"  # the same, once the eighth had been measured
FRESH_SETS = (FRESH, FRESH_SECOND, FRESH_THIRD, FRESH_FOURTH, FRESH_FIFTH, FRESH_SIXTH, FRESH_SEVENTH, FRESH_EIGHTH,
              FRESH_NINTH)  # fmt: skip
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
