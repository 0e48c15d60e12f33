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


def picture_prompt_rules(explicit_allowed: bool = False) -> str:
    """The constraints every image prompt carries. Safe for work unless `explicit_allowed`, which
    `bot.engine.content_policy.explicit_content_allowed` decides (SOUVENIR_ADULT_CONTENT=private, a private chat,
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
    """How the companion looks: the persona's `appearance`, else its description, else its personality."""
    text = persona.appearance or persona.description or persona.personality
    return persona.resolve(" ".join(text.split()), "the person")[:_MAX_APPEARANCE_CHARS]


def base_prompt(persona: Persona) -> str:
    """The part every picture of the companion starts from."""
    return f"{persona.name}. Appearance: {appearance_of(persona)}\n{PICTURE_STYLE}"


def picture_prompt(persona: Persona, scene: str, explicit_allowed: bool = False) -> str:
    scene = " ".join(scene.split())[:_MAX_SCENE_CHARS]
    return f"{base_prompt(persona)}\nScene: {scene}\n{picture_prompt_rules(explicit_allowed)}"
