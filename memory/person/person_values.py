"""What a person model line may say, read from real speech: the words a friend would write, not raw
sentence fragments.

Extraction keeps what follows "I love" or "I'm a" as the person said it, which in conversation is often not a
thing at all ("I love how uncomplicated it is", "I'd love to", "I think it is awesome"), and a sentence naming
a painful word is not always painful ("painting is like therapy for me"). These rules decide what a line may
show: a like is a short noun phrase with a content word; a job is its role ("assistant manager"); a quote is
short and cut at a word boundary; a painful topic is named briefly, and only from a sentence that is painful.
"""

from __future__ import annotations

import re

from memory.recall.worth_showing import content_words
from memory.writing.extraction.lexicon import MY_RELATION, SENSITIVE
from memory.writing.extraction.offline import sentences

# Politeness and reactions: they say how a conversation went, never what a friend would keep.
_POLITE = frozenset(
    "worry worries hope enjoy enjoyed congrat congrats congratulation congratulations cheers glad agree appreciate "
    "happy definitely totally absolutely sound sounds look looks let know need anything thank thanks bunch "
    "merci félicitation félicitations bravo content contente".split()
)
_VOCATIVE = re.compile(r"(?:^|(?<=[,!.?] )|, )(?-i:[A-Z][a-z]+)(?=[,!.?]|$)")  # "Thanks, Maria!", "Hey Jon!"
_SHOWN_AROUND = re.compile(
    r"\b(?:i(?:'ve| have)(?: got)?|i got|j'ai) (?:a|an|some|this|une?|des) (?:\w+ )?(?:story|question|idea|plans?|"
    r"pic|pics|picture|photo|photos|suggestion|tip|histoire|idée|photo)\b",
    re.I,
)
_LIKE_WORDS = 6
_QUOTE_WORDS = 14
_GENTLE_CLAUSE_WORDS = 8

# A like that is a clause or a bit of grammar, not a thing: "how it feels", "to", "is awesome", "that you came".
_NOT_A_THING = re.compile(
    r"^(?:how|to|is|are|was|were|be|been|being|that|what|when|where|why|which|who|whom|whose|if|it|it's|its|"
    r"this|these|those|them|him|her|me|us|you|your|so|too|very|just|because|as|than|doing|having|getting|"
    r"thought|said|told|asked|way|idea|fact|"
    r"comment|que|qu'\w*|quand|où|pourquoi|ce|c'est|ça|ca|cela|ceci|le fait|être|tu|te|vous|il|elle|on|si)\b",
    re.I,
)
_LEADING = re.compile(r"^(?:all (?:the |of the )?|really |just |so much |the |a |an )", re.I)
_TRAILING_WORDS = re.compile(r"\s+(?:too|as well|also|either|a lot|so much|very much|aussi|beaucoup)$", re.I)
# Not a thing one loves: "every day", "spending time"; "seeing them", "the freedom it brings" point back to a
# thing said before, which the block does not have.
_VAGUE = re.compile(
    r"(?:every ?day|every ?thing|any ?thing|some ?thing|all of (?:it|them)|(?:spending )?time|stuff|things|"
    r"tout|tout ça|tous les jours)",
    re.I,
)
_POINTS_BACK = re.compile(r"\b(?:it|them|him|they|he|she)\b", re.I)
_CONNECTOR = re.compile(r"\s+(?:with|for|and|when|while|because|at|since|avec|pour|et|quand|depuis)\s+.*$", re.I)
_CLAUSE = re.compile(r"[^,;:.!?()\[\]]+")
_TRAILING = re.compile(r"[\s,;:\-–—]+$")

# A job or a role a person says they have: "I'm an assistant manager", "I work as a nurse", « je suis infirmière ».
_ROLE_HEADS = (
    "manager|assistant|nurse|doctor|teacher|engineer|developer|programmer|designer|chef|cook|lawyer|accountant|"
    "cashier|waiter|waitress|bartender|barista|baker|student|artist|writer|author|musician|mechanic|electrician|"
    "plumber|carpenter|pharmacist|firefighter|officer|analyst|consultant|scientist|researcher|professor|tutor|"
    "counsel+or|therapist|photographer|driver|pilot|architect|dentist|vet|veterinarian|paramedic|farmer|"
    "librarian|journalist|editor|entrepreneur|intern|coach|trainer|instructor|dancer|singer|actor|actress|"
    "social worker|receptionist|secretary|clerk|supervisor|director|caregiver|carer|midwife|surgeon|soldier"
)
_ROLE = re.compile(
    r"\b(?:i(?:'m| am)(?: now| currently| still| also| finally| officially| just| actually)?|i work(?:ed)? as|"
    rf"works? (?:\w+ ){{0,3}}as|as)\s+(?:a|an)\s+"
    rf"(?P<role>(?:[a-z-]+\s+){{0,2}}(?:{_ROLE_HEADS}))s?\b(?:\s+at\s+(?P<at>[A-Z][\w&'-]+(?:\s+[A-Z][\w&'-]+)*))?"
    r"|\b(?:je suis|je travaille comme|je bosse comme)\s+(?:une? )?(?P<fr>infirmi\w+|médecin|prof\w*|étudiant\w*|"
    r"développeu\w+|ingénieure?|avocate?|artiste|retraitée?|serveu\w+|vendeu\w+|cuisinière?|boulangère?|"
    r"comptable|caissière?|architecte|dentiste|vétérinaire|pharmacien\w*|journaliste|chauffeu\w+|coiffeu\w+|"
    r"enseignante?|instit\w*)\b(?:\s+(?P<fr_in>en\s+(?!ce\b|fait\b|plus\b|vrai\b|tout\b)[\wà-ÿ'-]+))?",
    re.I,
)

# Words that are painful whatever is said around them; the others in SENSITIVE ("therapy", "abuse") only
# with a painful word near them: "painting is like therapy for me" is not a wound.
_PAINFUL_ITSELF = re.compile(
    r"^(?:passed away|died|death|funeral|grief|grieving|divorce|divorcing|break ?up|broke up|cancer|depression|"
    r"miscarriage|suicid\w*|est morte?|décédée?|décès|deuil|divorcée?|rupture|dépression|fausse couche|"
    r"enterrement|.*\b(?:sick|ill|unwell|malade))$",
    re.I,
)
_PAINFUL_NEAR = re.compile(
    r"\b(?:hard|tough|rough|difficult|painful|hurts?|hurting|struggl\w*|sad|miss(?:ing)?|scared?|scares|scary|afraid|"
    r"awful|worried|worry|worrying|inqui[eè]te?|weigh\w* on|(?:me|nous) p[eè]s\w*|"
    r"terrible|horrible|lonely|cr(?:y|ied|ying)|worst|broken|heartbroken|anxious|depressed|wasn't easy|"
    r"not easy|dure?s?|difficiles?|triste|mal|peur|pleur\w*|manque|souffr\w*|pas facile)\b",
    re.I,
)
_THEIRS = re.compile(r"\b(?:(?:i|i'm|i've|me|my|we|our|us|je|moi|mon|ma|mes|nous|notre|nos)\b|[jm]')", re.I)
_IDIOM = re.compile(r"\b(?:to|à)\s+$", re.I)  # "scared to death", « mort de rire » is not matched anyway
_TOPICS = (
    (r"passed away|died|death|funeral|grie\w+|est morte?|décédée?|décès|deuil|enterrement", "a loss", "un deuil"),
    (r"divorc\w*", "the divorce", "le divorce"),
    (r"break ?up|broke up|rupture", "the breakup", "la rupture"),
    (r"cancer", "cancer", "le cancer"),
    (r"depression|dépression", "depression", "la dépression"),
    (r"miscarriage|fausse couche", "the miscarriage", "la fausse couche"),
    (r"suicid\w*", "suicide", "le suicide"),
    (r"therap\w*|thérapie|psy", "therapy", "la thérapie"),
    (r"harc[eè]lement|harassment", "harassment", "le harcèlement"),
    (r"abuse", "abuse", "les violences"),
    (r".*\b(?:sick|ill|unwell|malade)", "an illness", "une maladie"),
    (r".*(?:hospital|hôpital|hospitali\w*|urgences|icu|er|réa\w*)", "someone in hospital", "une hospitalisation"),
)


def like_value(topic: str) -> str | None:
    """A like or dislike as a short noun phrase ("live music", "camping trips"), or None for a fragment."""
    value = _TRAILING.sub("", " ".join(topic.split()).strip(" .!?\"'«»"))
    if not value or _NOT_A_THING.match(value):
        return None
    value = _TRAILING_WORDS.sub("", _LEADING.sub("", value))
    if _NOT_A_THING.match(value):  # "the thought", "the way it looks"
        return None
    if len(value.split()) > _LIKE_WORDS:
        value = _CONNECTOR.sub("", value)
    if not content_words(value) or _VAGUE.fullmatch(value) or _POINTS_BACK.search(value):
        return None
    words = value.split()
    return value if len(words) <= _LIKE_WORDS else " ".join(words[:_LIKE_WORDS]) + "…"


def role(text: str) -> str | None:
    """The job or role a fact names ("assistant manager", "nurse at Saint-Luc", « infirmière »), if it does."""
    match = _ROLE.search(text)
    if match is None:
        return None
    if match["fr"]:  # with its field: « étudiante en droit », « enseignante en maternelle »
        return f"{match['fr']} {match['fr_in']}" if match["fr_in"] else match["fr"]
    said = " ".join(match["role"].split())
    return f"{said} at {match['at']}" if match["at"] else said


def short_quote(text: str, max_words: int = _QUOTE_WORDS) -> str:
    """The person's words kept short: whole sentences while they fit, else cut at a word boundary with "…"."""
    words = text.replace("<", " ").replace(">", " ").split()
    if len(words) <= max_words:
        return " ".join(words).strip(" \"'«»")
    kept = " ".join(words[:max_words])
    end = max(kept.rfind(". "), kept.rfind("! "), kept.rfind("? "))
    if end >= len(kept) // 3:
        return kept[: end + 1].strip(" \"'«»")
    return _TRAILING.sub("", kept).rstrip(".!?").strip(" \"'«»") + "…"


def gist(text: str, max_words: int) -> str:
    """A message's sentences that say something ("Thanks, Maria!" and "It was!" left out), kept short."""
    said = [s for s in sentences(text) if has_content(s)]
    return short_quote(" ".join(said) if said else text, max_words)


def has_content(text: str, at_least: int = 2) -> bool:
    """Says something a friend would keep: a couple of content words, not "yeah, I have a few plans", not
    "No worries, Sam. Hope you enjoy it!" (politeness and the name of who they talk to carry nothing)."""
    text = _VOCATIVE.sub(" ", text)
    return len(set(content_words(text)) - _POLITE) >= at_least


def worth_a_line(text: str) -> bool:
    """A sentence about them worth a line of its own: real content, not "I've got a funny story"."""
    return has_content(text, 4) and _SHOWN_AROUND.search(text) is None


def gentle_topic(text: str, language: str) -> str | None:
    """The painful topic a sentence speaks of, briefly ("My dad passed away last spring", "the breakup"), or
    None when the sentence is not painful (a painful word in a happy sentence)."""
    match = next((m for m in SENSITIVE.finditer(text) if not _IDIOM.search(text, 0, m.start())), None)
    if match is None:
        return None
    if not _PAINFUL_ITSELF.match(match.group(0)) and not (_PAINFUL_NEAR.search(text) and _THEIRS.search(text)):
        return None  # "domestic abuse is horrible" is an opinion; "my therapy is hard right now" is a wound
    clause = next((c for c in _CLAUSE.finditer(text) if c.start() <= match.start() < c.end()), None)
    if clause is not None and len(clause.group(0).split()) <= _GENTLE_CLAUSE_WORDS:
        return clause.group(0).strip()
    for pattern, en, fr in _TOPICS:
        if re.fullmatch(pattern, match.group(0), re.I):
            topic = fr if language == "fr" else en
            break
    else:
        topic = match.group(0).lower()
    relation = MY_RELATION.search(text)
    return f"{topic} ({relation['who'].lower()})" if relation else topic
