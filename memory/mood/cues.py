"""Lexical cues of mood, French and English together: feeling words, their negation, emoji, emphasis.

The sentence embedding carries most of the meaning; these few counts add what it blurs: "not stressed"
next to "stressed", an emoji-only message, "pas mal" (good), sarcasm markers. Words are matched on
lower-cased, accent-stripped text by stem, so "épuisée" and "epuise" are one cue. Language-agnostic on
purpose: people mix languages, and a message's language is only a hint.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

CUE_LABELS = ("joy", "calm", "sadness", "anxiety", "anger", "tiredness")

# Stems (prefix match at a word start) or exact phrases, accent-stripped and lower case.
_WORDS: dict[str, tuple[str, ...]] = {
    "joy": (
        "happy", "happi", "glad", "joy", "excit", "amazing", "awesome", "fantastic", "wonderful", "love", "lovely",
        "thrill", "proud", "yay", "yess", "we won", "celebrat", "hilarious", "laugh", "lol$", "haha", "delight",
        "brilliant", "incredible", "smil", "glorious", "best day", "best news", "great news", "not bad",
        "heureu", "content", "ravi", "joie", "genial", "trop bien", "adore", "kiff", "fier$", "fiere$", "youpi",
        "on a gagne",
        "magique", "incroyable", "rire", "drole", "bonheur", "aux anges", "felicit", "pas mal", "trop hate",
        "super journee", "super bien", "meilleure nouvelle", "saute de joie",
        "stoked", "pumped", "grin$", "grinning", "woohoo", "can't wait", "life is good", "so much fun", "most fun",
        "ptdr", "mdr$", "rigol", "hihi", "trop cool", "bonne nouvelle", "super nouvelle", "victoire", "saute partout",
    ),
    "calm": (
        "calm", "peace", "relax", "seren", "quiet", "tranquil", "chill", "sooth", "restful", "cosy", "cozy",
        "mellow", "zen", "meditat", "breath", "at ease", "settled", "gentle", "content and", "no rush",
        "no pressure", "taking it easy", "unwind",
        "calme", "apais", "serein", "detend", "paisible", "doux$", "douce$", "douceur", "souffl", "respir", "repos",
        "silence", "cocooning", "lache prise", "medit", "rien ne presse", "pas de pression", "tranquillou",
        "bliss", "grounded", "steady", "no plans", "peinard", "en paix", "tisane", "plaid", "rien qui presse",
        "tout va bien", "me pose", "posee$",
    ),
    "sadness": (
        "sad$", "cry$", "cried", "crying", "tears", "miss ", "missing", "lonely", "alone", "heartbroken", "broken",
        "grief", "griev", "died", "passed away", "put down", "lost my", "empty", "feel down", "feeling down",
        "so low", "depress", "hurts", "disappoint", "grey", "gray", "unhappy", "left me", "miserable", "💔",
        "triste", "pleur", "manque", "seul$", "seule$", "seuls$", "coeur brise", "deuil", "decede", "mort$", "morte$",
        "perdu", "vide$", "deprim",
        "cafard", "moral$", "decu", "decue", "chagrin", "broie du noir", "gris$", "m'a quitte", "malheureu",
        "feeling blue", "feel blue", "really down", "funeral", "divorc", "no one cares", "nobody cares",
        "fond du trou", "coeur lourd", "fend le coeur", "abandonn", "largu", "enterrement", "envie de rien",
    ),
    "anxiety": (
        "anxious", "anxiety", "worr", "nervous", "scared", "afraid", "fear", "terrif", "panic", "stress", "dread",
        "overthink", "tense", "on edge", "what if", "shaking", "butterfl", "pounding", "freaking out",
        "angoiss", "anxi", "inquiet", "m'inquiete", "peur", "paniqu", "trac$", "boule au ventre", "noue",
        "apprehend", "redout", "rumin", "sur les nerfs", "trembl", "pressentiment", "et si",
        "in knots", "heart pound", "trouille", "flippe$", "flippee$", "flipper$", "flippant",
    ),
    "anger": (
        "angry", "anger", "mad at", "so mad", "furious", "livid", "fuming", "hate", "annoy", "pissed", "fed up",
        "ridiculous", "a joke", "unbelievable", "how dare", "rude", "scam", "stupid", "idiot", "outrag",
        "irritat", "sick of", "can't stand", "drives me crazy",
        "colere", "furieu", "furax", "enerv", "rage$", "deteste", "marre", "ras le bol", "saoul", "gonfl",
        "n'importe quoi", "dingue", "incompetent", "escroc", "arnaq", "putain", "merde", "mepris", "insupport",
        "hors de moi", "je bous", "une blague", "comment elle ose", "comment il ose", "fache",
        "angri", "disgrace", "venere", "vener$", "me soule", "ca soule", "soulant", "la haine", "enrag", "en rogne",
        "honteu", "fout de ma gueule", "foutu de ma gueule", "incapable", "supporte plus", "supporte pas",
    ),
    "tiredness": (
        "tired", "exhaust", "sleep", "slept", "nap$", "drained", "knackered", "yawn", "worn out", "wiped", "burnt out",
        "burned out", "zombie", "energy", "jet lag", "fatigue", "insomnia", "wrecked", "i'm beat", "dragging",
        "running on empty", "eyes open",
        "fatigu", "crev", "epuis", "sommeil", "dormi", "sieste", "rince", "lessive", "vanne", "naze", "claque",
        "baill", "insomnie", "energie", "batterie", "a plat", "bout du rouleau", "decalage horaire", "me traine",
        "yeux qui se ferment",
        "sleep a wink", "stay awake", "running on fumes", "pooped", "night shift", "endor", "ko$", "ramasse",
        "dors debout", "yeux ouverts", "gardes de nuit", "garde de nuit",
    ),
}  # fmt: skip

_EMOJI: dict[str, str] = {
    "joy": "😀😁😂🤣😃😄😆😊🥰😍🤩🥳🎉❤💕😻👏🙌✨🎂😎",
    "calm": "😌🧘🍵☕🌿🌙🌸🕊🛀🌅",
    "sadness": "😢😭😔😞☹🙁💔😿😥🥺",
    "anxiety": "😰😨😱😬😟😧🫣😓😖",
    "anger": "😡🤬😠😤👿🙄💢🖕",
    "tiredness": "😴🥱💤😪",
}

_NEGATIONS = frozenset(("not", "no", "never", "isn't", "wasn't", "don't", "didn't", "nothing", "without",
                        "pas", "jamais", "ne", "n'", "sans", "rien"))  # fmt: skip
# Said only in the negative ("no energy left", "plus de batterie"), or a phrase that holds its own negation.
_NEGATION_EXEMPT = frozenset(("not bad", "pas mal", "pas de pression", "rien ne presse", "no pressure", "no rush",
                              "energy", "energie", "batterie", "sleep a wink", "stay awake",
                              "yeux ouverts"))  # fmt: skip
_CLAUSE_BREAKS = frozenset(("but", "just", "only", "mais", "juste", "seulement", "stop", "arreter"))
_INTENSIFIERS = frozenset(("so", "very", "really", "totally", "completely", "absolutely", "extremely", "super",
                           "trop", "tres", "tellement", "vraiment", "completement", "grave", "hyper",
                           "vachement"))  # fmt: skip
_SARCASM = ("🙄", "oh great", "oh wonderful", "oh super", "thanks a lot", "merci beaucoup", "classy", "la classe",
            "just perfect", "parfait, vraiment", "as always", "comme d'hab", "nice.", "wonderful.", "genial.",
            "fantastic service", "really appreciated", "thanks for nothing", "merci pour rien")  # fmt: skip
_AGAIN = ("again", "encore", "once more", "toujours pas")

_TOKEN = re.compile(r"[\w']+|[^\w\s]", re.UNICODE)


def _pattern(stem: str) -> re.Pattern[str]:
    """A stem matches at a word start; one ending in "$" is a whole word ("seul", not "seulement")."""
    if stem.endswith("$"):
        return re.compile(r"(?<![\w])" + re.escape(stem[:-1]) + r"(?![\w])")
    return re.compile(r"(?<![\w])" + re.escape(stem))


_CUES: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    label: tuple((stem, _pattern(stem)) for stem in stems) for label, stems in _WORDS.items()
}

CUE_FEATURES = (
    *(f"word_{label}" for label in CUE_LABELS),
    *(f"negated_{label}" for label in CUE_LABELS),
    *(f"emoji_{label}" for label in CUE_LABELS),
    "sarcasm",
    "again",
    "intensifiers",
    "exclamations",
    "questions",
    "shouting",
    "no_words",
    "short",
)


def normalised(text: str) -> str:
    """Lower case, accents stripped, typographic apostrophes made plain."""
    decomposed = unicodedata.normalize("NFKD", text.lower().replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _negated(plain: str, start: int) -> bool:
    """A negation among the two words before a cue, in the same clause: "not stressed", "je ne suis pas
    stressé"; but not "not sad, just tired" (the comma and "just" end the negation's reach)."""
    before = _TOKEN.findall(plain[max(0, start - 40) : start])
    seen = 0
    for token in reversed(before):
        if not token[0].isalnum() and token != "n'":
            return False  # punctuation closes the clause
        if token in _CLAUSE_BREAKS:
            return False
        if token in _NEGATIONS or token.endswith("n't") or token.startswith("n'"):
            return True
        seen += 1
        if seen == 2:
            return False
    return False


def cue_counts(text: str) -> dict[str, float]:
    """The named cue counts of one message (see `CUE_FEATURES`)."""
    plain = normalised(text)
    counts = dict.fromkeys(CUE_FEATURES, 0.0)
    for label, cues in _CUES.items():
        for stem, pattern in cues:
            for match in pattern.finditer(plain):
                negated = stem not in _NEGATION_EXEMPT and _negated(plain, match.start())
                counts[f"negated_{label}" if negated else f"word_{label}"] += 1.0
        counts[f"emoji_{label}"] = float(sum(text.count(e) for e in _EMOJI[label]))
    words = [w for w in _TOKEN.findall(plain) if w[0].isalnum()]
    counts["sarcasm"] = float(sum(plain.count(s) for s in _SARCASM))
    counts["again"] = float(sum(1 for s in _AGAIN if s in plain))
    counts["intensifiers"] = float(sum(1 for w in words if w in _INTENSIFIERS))
    counts["exclamations"] = float(min(text.count("!"), 3))
    counts["questions"] = float(min(text.count("?"), 2))
    counts["shouting"] = float(sum(1 for w in re.findall(r"\b[A-Z]{3,}\b", text) if w not in ("SNCF", "USA", "RH")))
    counts["no_words"] = 1.0 if not words else 0.0
    counts["short"] = 1.0 if len(words) <= 2 else 0.0
    return counts


def cue_vector(text: str) -> np.ndarray:
    """The cue counts in `CUE_FEATURES` order, dampened (1 + log) so one repeated word doesn't dominate."""
    counts = cue_counts(text)
    raw = np.array([counts[name] for name in CUE_FEATURES], dtype=np.float32)
    return np.where(raw > 0, 1.0 + np.log(np.maximum(raw, 1.0)), 0.0).astype(np.float32)
