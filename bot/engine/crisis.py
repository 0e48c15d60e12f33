"""Suicidal ideation and self-harm in a message, French and English, offline: cheap enough for every reply.

Phrases, not words: "kill myself", "envie de mourir", "better off without me", "je me scarifie". Three things
keep it from crying wolf: a negation just before a phrase ("I'm not suicidal", "je ne suis pas suicidaire",
"I would never hurt myself"), what follows one that makes it an idiom or an accident ("died laughing",
"hurt myself playing football"), and the idioms themselves never being phrases ("this traffic is killing me",
"je suis mort de rire", "ça me tue"). Other people's words are not theirs ("my friend wants to kill herself").
When unsure it leans towards caring: resources shown to someone who didn't need them cost little.

Figures on tests/data/crisis_labelled.tsv and crisis_heldout.tsv: `python -m bench.crisis_detector`.
"""

from __future__ import annotations

import re
import unicodedata

# On lower-cased, accent-stripped text with straight apostrophes (see `_normalised`).
_PHRASES = re.compile(
    r"\b(?:"
    # English
    r"kill(?:ing|ed)? my ?self|end(?:ing)? my (?:own )?life|tak(?:e|ing) my (?:own )?life|end(?:ing)? it all|"
    r"(?:i|i'm|im|to|like|gonna|going to|want to|wanna) end(?:ing)? it(?= *(?:$|[.,!?;]|tonight|today|now|soon))|"
    r"suicidal|(?:thinking|think|thought|thoughts) (?:about|of) (?:committing )?suicide|"
    r"(?:i|i've|ive|i have|i had) (?:attempted|tried) (?:suicide|to kill myself)|committing suicide|"
    r"(?:want|wanna|going|wish|wished) (?:to )?die|wanna die|"
    r"wish (?:i|i'd) (?:was|were|had been|could be) dead|better off dead|better off without me|"
    r"no reason (?:left )?to live|nothing (?:left )?to live for|"
    r"(?:do ?n't|do not|dont) want to (?:live|be alive|be here|exist)(?= *(?:$|[.,!?;]|anymore|any more|any longer))|"
    r"(?:do ?n't|do not|dont|never) want to wake up|never (?:to )?wake up(?= *(?:$|[.,!?;]|again|ever))|"
    r"can'?t go on (?:living|anymore|any more)|what'?s the point (?:of|in) living|"
    r"(?:life|living) (?:is ?n't|is not|is no longer) worth (?:living|it)|"
    r"self[- ]?harm\w*|(?:cut|cutting|burn|burning|burned|burnt|hurt|hurting|harm|harming|starve|starving) my ?self|"
    r"hang my ?self|slit my wrists?|jump(?:ing)? off (?:a|the|this|that) (?:bridge|building|roof|cliff)|"
    r"(?:to|gonna|going to|want to|will) overdose|overdos\w* on purpose|"
    r"(?:think|thinking|thought|thoughts) (?:about|of) (?:dying|death|killing myself|ending (?:it|things|my life))|"
    r"(?:want|need) (?:it all|everything|the pain|this) to stop (?:for good|forever|permanently)|"
    r"make it (?:all )?stop (?:for good|forever)|disappear (?:forever|for good|permanently)|"
    r"(?:easier|better) (?:for everyone )?if i (?:was ?n't|were ?n't|was not|were not|did ?n't exist)|"
    r"(?:(?:do ?n't|do not|dont|can'?t) see )?(?:no|the|any) point (?:of|in) living|"
    r"i (?:cut|burned) again|relaps\w* and (?:cut|hurt|burn)|"
    r"(?:take|taking|swallow|swallowing) (?:all|every one of) (?:my|the) (?:pills|meds|tablets)|"
    r"took (?:a bunch of|all (?:my|the)|too many|a lot of|a handful of) (?:pills|meds|tablets)|"
    # French
    r"me suicider|suicidaires?|pense (?:souvent |tout le temps )?au suicide|tentative de suicide|"
    r"(?:je (?:vais|veux|voudrais)|envie de|pense a|penser a|penses a) me tuer|"
    r"(?:veux|voudrais|aimerais|envie de|vais) mourir|(?:voudrais|aimerais|prefererais) etre morte?|"
    r"(?:n'ai|ai|n'a|a) plus (?:envie|gout|la force) de vivre|ne veux plus vivre|veux plus vivre|"
    r"en finir(?= *(?:$|[.,!?;]|avec (?:la vie|tout|ma vie)|une bonne fois|ce soir))|"
    r"mettre fin a (?:mes jours|ma vie)|mieux sans moi|me foutre en l'air|me pendre|"
    r"me jeter (?:sous|du haut|d'un|par la|dans le vide)|(?:plus|aucune|pas) (?:de )?raison de vivre|"
    r"ne (?:plus|jamais plus) me reveiller|disparaitre (?:pour toujours|a jamais|definitivement)|"
    r"marre de vivre|peux plus de vivre|vie ne vaut (?:plus|pas) la peine|"
    r"me (?:fais|faire|fait|suis fait|suis faite) du mal|scarifi\w*|"
    r"pense (?:tout le temps |sans arret |souvent )?(?:a la mort|a mourir)|ne plus exister|envie d'exister|"
    r"plus (?:envie|gout) de vivre|meme plus de vivre|(?:n'etais|n'existais|ne serais) plus (?:la|ici|en vie)|"
    r"me suis (?:encore )?(?:coupee?|scarifiee?|brulee?)(?= *(?:$|[.,!?;]|ce soir|hier|encore|aujourd'hui|la nuit))|"
    r"(?:avaler|prendre|pris|avale) (?:toutes? )?(?:mes|les|la boite de) (?:pilules|medicaments|medocs|cachets)|"
    r"me (?:coupe|couper|suis coupee?) (?:les|le|la) (?:bras|poignets?|veines|cuisses?|peau)"
    r")"
)
# Just before a phrase, in the same clause: it is denied ("I'm not suicidal", "je ne suis pas suicidaire").
_NEGATION = re.compile(r"\b(?:not|never|no way|n't|dont|wont|pas|jamais|aucunement)\b|n't\b")
_NEGATION_WORDS = 4
# Just after a phrase: an idiom or an accident, not a wish ("want to die laughing", "hurt myself playing").
_NOT_A_WISH = re.compile(
    r"^ *(?:laughing|of laughter|of embarrassment|of boredom|of shame|from laughing|playing|at the gym|while|"
    r"when i\b|falling|skiing|running|cooking|lifting|during|in the kitchen|on the|de rire|de honte|de faim|"
    r"de fatigue|d'ennui|de chaud|de froid|a slice|a piece|a bit|some\b)"
)
_CLAUSE = re.compile(r"[.,;!?\n]|\b(?:but|mais|though|however|pourtant)\b")


def _normalised(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.replace("’", "'").replace("‘", "'"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return " ".join(text.split())


def _denied(before: str) -> bool:
    clause = _CLAUSE.split(before)[-1]
    words = clause.split()[-_NEGATION_WORDS:]
    return _NEGATION.search(" ".join(words)) is not None


def shows_crisis(text: str) -> bool:
    """Whether the message speaks of wanting to die, suicide or hurting oneself (their own, affirmed)."""
    normal = _normalised(text)
    for found in _PHRASES.finditer(normal):
        if _denied(normal[: found.start()]) or _NOT_A_WISH.match(normal[found.end() :]):
            continue
        return True
    return False
