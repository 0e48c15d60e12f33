"""Fixed texts: every unprompted message exists in English and French and fills in its details."""

from __future__ import annotations

from jobs.templates import template, template_keys


def test_every_template_speaks_both_languages_and_fills_its_details() -> None:
    for key in template_keys():
        english = template(key, "en", name="Ana", what="job interview", days=2, date="May 7")
        french = template(key, "fr", name="Ana", what="entretien d'embauche", days=2, date="07/05")
        assert english != french, key
        assert "{" not in english + french, key
        assert "Ana" in english and "Ana" in french, key


def test_unknown_language_falls_back_to_english() -> None:
    assert template("checkin", "de") == template("checkin", "en") == "Hey, it's been a few days — how are you doing?"
