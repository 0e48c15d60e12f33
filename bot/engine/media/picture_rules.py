"""What every image prompt says: the persona's base description and style first, the scene, then the rules.

`picture_prompt_rules` is the one place the safety of image prompts is decided, so the operator's adult-content
setting and the minors rule plug in here and nowhere else.
"""

from __future__ import annotations

import re

from bot.engine.prompt.persona import Persona

# The same style for every picture: with the same base description and the avatar as reference, the face
# and the look stay the same from one picture to the next.
PICTURE_STYLE = (
    "Style: a natural, warm photograph with soft light and true colours, the same person in every picture, "
    "consistent face, hair and features."
)
_MAX_SCENE_CHARS = 600
_MAX_APPEARANCE_CHARS = 1200
_MAX_DESCRIBED_LOOK_CHARS = 400
# Words that say how someone looks, English and French: the sentences of a card's description that hold one
# describe the character's look; the rest (backstory, example dialogue) says nothing an image can show.
_LOOK = re.compile(
    r"\b(?:hair|haired|eyes?|eyed|skin|face|freckles?|beard|glasses|tall|short|slender|petite|build|wears?|wearing|"
    r"dress(?:es|ed)?|shirt|sweater|jacket|coat|scarf|hat|smile|lips|tattoos?|piercings?|looks?|appearance|"
    r"cheveux|yeux|peau|visage|taches de rousseur|barbe|lunettes|grande?|petite?|mince|porte|portant|robe|"
    r"pull|veste|manteau|écharpe|chapeau|sourire|lèvres|tatouages?|allure|apparence)\b",
    re.IGNORECASE,
)
_DIALOGUE = re.compile(r"^\s*(?:<START>|\{\{(?:user|char)\}\}\s*:|[\w .'-]{1,30}:\s)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def picture_prompt_rules(explicit_allowed: bool = False) -> str:
    """The constraints every image prompt carries. Safe for work unless `explicit_allowed`, which
    `bot.engine.safety.content_policy.explicit_content_allowed` decides (SOUVENIR_ADULT_CONTENT=private, a private chat,
    a person who confirmed being 18 or older; never a minor, never a group)."""
    content = (
        "Adult content is allowed (an adult asked, in private); nothing involving minors, no gore. "
        if explicit_allowed
        else "Safe for work. No nudity, no sexual or suggestive content, no gore. "
    )
    return (
        f"Rules: {content}"
        "Show only the character described above; never depict a real, identifiable person. "
        "No text, logos or watermarks in the image."
    )


def appearance_of(persona: Persona) -> str:
    """How the companion looks: the persona's `appearance`, else what its description says of its look, else
    its personality."""
    if persona.appearance:
        text = " ".join(persona.appearance.split())[:_MAX_APPEARANCE_CHARS]
    else:
        text = described_look(persona.description or persona.personality)
    return persona.resolve(text, "the person")


def described_look(description: str) -> str:
    """The first sentence of `description` and those that say how the character looks (example dialogue left
    out), whole, up to `_MAX_DESCRIBED_LOOK_CHARS`; the first two when none does. Never cut mid-word."""
    lines = [line for line in description.splitlines() if not _DIALOGUE.match(line)]
    sentences = [s for s in _SENTENCE_END.split(" ".join(" ".join(lines).split())) if s]
    # The first sentence says who they are (age, what they do: part of a look), then those about the look.
    chosen = sentences[:1] + [s for s in sentences[1:] if _LOOK.search(s)] if sentences else []
    chosen = chosen if len(chosen) > 1 else sentences[:2]
    kept: list[str] = []
    for sentence in chosen:
        if sum(len(k) + 1 for k in kept) + len(sentence) > _MAX_DESCRIBED_LOOK_CHARS:
            break
        kept.append(sentence)
    if not kept and chosen:  # one sentence longer than the room: cut at a word, and say so
        kept = [chosen[0][:_MAX_DESCRIBED_LOOK_CHARS].rsplit(" ", 1)[0] + "…"]
    return " ".join(kept)


def base_prompt(persona: Persona) -> str:
    """The part every picture of the companion starts from."""
    return f"{persona.name}. Appearance: {appearance_of(persona)}\n{PICTURE_STYLE}"


def picture_prompt(persona: Persona, scene: str, explicit_allowed: bool = False) -> str:
    scene = " ".join(scene.split())[:_MAX_SCENE_CHARS]
    return f"{base_prompt(persona)}\nScene: {scene}\n{picture_prompt_rules(explicit_allowed)}"
