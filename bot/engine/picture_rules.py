"""What every image prompt says: the persona's base description and style first, the scene, then the rules.

`picture_prompt_rules` is the one place the safety of image prompts is decided, so the operator's adult-content
setting and the minors rule plug in here and nowhere else.
"""

from __future__ import annotations

from bot.engine.persona import Persona

# The same style for every picture: with the same base description and the avatar as reference, the face
# and the look stay the same from one picture to the next.
PICTURE_STYLE = (
    "Style: a natural, warm photograph with soft light and true colours, the same person in every picture, "
    "consistent face, hair and features."
)
_MAX_SCENE_CHARS = 600
_MAX_APPEARANCE_CHARS = 1200


def picture_prompt_rules() -> str:
    """The constraints every image prompt carries. Safe for work, always for now: the adult-content setting
    (and the rule that minors never get it) will widen this, here only."""
    return (
        "Rules: safe for work. No nudity, no sexual or suggestive content, no gore. "
        "Show only the character described above; never depict a real, identifiable person. "
        "No text, logos or watermarks in the image."
    )


def appearance_of(persona: Persona) -> str:
    """How the companion looks: the persona's `appearance`, else its description, else its personality."""
    text = persona.appearance or persona.description or persona.personality
    return persona.resolve(" ".join(text.split()), "the person")[:_MAX_APPEARANCE_CHARS]


def base_prompt(persona: Persona) -> str:
    """The part every picture of the companion starts from."""
    return f"{persona.name}. Appearance: {appearance_of(persona)}\n{PICTURE_STYLE}"


def picture_prompt(persona: Persona, scene: str) -> str:
    scene = " ".join(scene.split())[:_MAX_SCENE_CHARS]
    return f"{base_prompt(persona)}\nScene: {scene}\n{picture_prompt_rules()}"
