"""Words the offline extractors look for, French and English side by side."""

from __future__ import annotations

import re

# (pattern, English label, French label, yearly). Wedding anniversaries before birthdays: "anniversaire
# de mariage" also contains "anniversaire".
EVENT_LABELS: tuple[tuple[re.Pattern[str], str, str, bool], ...] = tuple(
    (re.compile(pattern, re.I), en, fr, yearly)
    for pattern, en, fr, yearly in (
        (r"\b(?:wedding anniversary|anniversary|anniversaire de (?:mariage|rencontre))\b", "anniversary",
         "anniversaire de mariage", True),
        # "sa fête", "ma fête": a birthday (or a name day) in French; "la fête" alone is a party.
        (r"\b(?:birthday|b-?day|anniversaire|anniv|(?<=\b[ms]a )fête)\b", "birthday", "anniversaire", True),
        (r"\b(?:wedding|get(?:ting)? married|gets married|marr(?:y|ies)|mariage|(?:se|me|nous) mari(?:e|er|ons))\b",
         "wedding", "mariage", False),
        (r"\b(?:exams?|finals|test|examens?|partiels?|bac|concours)\b", "exam", "examen", False),
        (r"\b(?:job interview|interview|entretien(?: d'embauche)?)\b", "job interview", "entretien d'embauche",
         False),
        (r"\b(?:surgery|operation|opération|chirurgie)\b", "surgery", "opération", False),
        (r"\b(?:appointment|doctor|dentist|rendez-vous|rdv|médecin|dentiste)\b", "appointment", "rendez-vous",
         False),
        (r"\b(?:funeral|enterrement|obsèques)\b", "funeral", "enterrement", False),
        (r"\b(?:graduation|remise des diplômes|diplôme)\b", "graduation", "remise des diplômes", False),
        (r"\b(?:due date|baby is due|accouchement|terme)\b", "due date", "accouchement", False),
        (r"\b(?:moving|move out|move house|déménage\w*)\b", "move", "déménagement", False),
        (r"\b(?:deadline|due|rendu|échéance)\b", "deadline", "échéance", False),
        (r"\b(?:concert|gig)\b", "concert", "concert", False),
        (r"\b(?:trip|vacation|holiday|flight|voyage|vacances|vol)\b", "trip", "voyage", False),
        (r"\b(?:party|fête|soirée)\b", "party", "fête", False),
        # Someone coming: "my brother Paul arrives on 9 January", "mon frère Paul arrive le 3 janvier".
        (r"\b(?:arriv(?:e|es|ing)|arrivent|arrivera|visit(?:s|ing)?|coming to (?:see|visit)|comes? to (?:see|visit)|"
         r"vien(?:t|nent) (?:me |nous )?voir|viendra|rend(?:ra)? visite|visite|débarque)\b", "visit", "visite", False),
        (r"\b(?:marathon|race|course|match|competition|compétition|tournament|tournoi)\b", "competition",
         "compétition", False),
    )
)  # fmt: skip

# The words for a dated thing that are no one's name: lowercased wherever a model capitalised them.
COMMON_LABELS = frozenset(
    {word for _, en, fr, _ in EVENT_LABELS for word in (en, fr)}
    | {"birthday", "bday", "b-day", "anniversary", "wedding anniversary", "anniversaire de naissance", "fête"}
)


def as_written(what: str) -> str:
    """A dated thing's words as the person (or the model) wrote them: names keep their capitals ("Arrivée de
    Paul", "Claire's wedding"); a common word capitalised as a sentence start does not ("Birthday")."""
    what = " ".join(what.split())
    return what.lower() if what.lower() in COMMON_LABELS else what


RELATIONS = (
    "sister|brother|mom|mum|mother|dad|father|wife|husband|son|daughter|best friend|friend|boyfriend|"
    "girlfriend|partner|grandma|grandmother|grandpa|grandfather|grandad|granddad|granny|nan|aunt|uncle|cousin|boss|"
    "colleague|niece|nephew|"
    "sœur|soeur|frère|frere|mère|mere|maman|père|pere|papa|femme|mari|fils|fille|meilleure amie|meilleur ami|"
    "amie|ami|copain|copine|compagne|compagnon|grand-mère|grand-père|mamie|papi|tante|oncle|cousine|patron|"
    "patronne|chef|collègue|nièce|neveu"
)
PETS = (
    "cat|dog|kitten|puppy|rabbit|bunny|hamster|guinea pig|ferret|parrot|budgie|tortoise|turtle|horse|pony|goat|"
    "greyhound|retriever|labrador|terrier|spaniel|poodle|husky|beagle|collie|corgi|pug|dachshund|"
    "chat|chatte|chien|chienne|chaton|chiot|lapin|cochon d'inde|furet|perroquet|perruche|tortue|cheval|poney|chèvre"
)

MY_RELATION = re.compile(rf"\b(?:my|mon|ma|mes)\s+(?P<who>{RELATIONS}|{PETS})(?:'s)?\b", re.I)
# "my sister Léa", "ma grand-mère, Zoé", "my cat is called Miso": a relative or a pet and their name.
NAMED_RELATION = re.compile(
    rf"\b(?i:my|mon|ma|our|notre)\s+(?P<who>(?i:{RELATIONS}|{PETS}))(?:'s name is| is called| is named| named| called|"
    r" s'appelle| qui s'appelle| nommée?|,)?\s+(?P<name>[A-ZÀ-Ý][a-zà-ÿ-]+)\b"
)
NAME_POSSESSIVE = re.compile(r"\b(?P<who>[A-Z][a-zà-ÿ]+)'s\b|\bde (?P<who2>[A-Z][a-zà-ÿ]+)\b")

CHANGE = re.compile(
    r"\b(?:now|anymore|any more|no longer|these days|nowadays|stopped|quit|gave up|désormais|dorénavant|"
    r"maintenant|arrêté|(?:ne|n')\s*\w+\s+plus|j'\w+\s+plus|je\s+\w+\s+plus)\b",
    re.I,
)
SENSITIVE = re.compile(
    r"\b(?:passed away|died|death|funeral|grief|grieving|divorce|divorcing|break ?up|broke up|cancer|"
    r"depression|therapy|therapist|miscarriage|suicid\w*|est mort|est morte|décédée?|décès|deuil|divorcée?|"
    r"rupture|dépression|thérapie|psy|fausse couche|enterrement|harcèlement|harassment|abuse|"
    # Someone close in hospital (not working there): "my mum is in hospital", « mon père est hospitalisé ».
    r"(?<!work )(?<!works )(?<!working )in (?:the )?(?:hospital|icu|er)|hospitali[sz]ed|hospitalisée?s?|"
    r"(?:est|sont|suis|était|a été) (?:à l'hôpital|aux urgences|en réa\w*)|"
    # Someone close who is ill (not "sick of", not "that gig was sick", not oneself with a cold): "my dad has
    # been sick for weeks", "she's really ill", « mon père est malade », « elle est tombée malade ».
    rf"(?:he|she|(?:my|our|her|his|their)\s+(?:\w+\s+)?(?:{RELATIONS}|{PETS}))(?:'s|\s+is|\s+was|\s+has been|'s been|"
    r"\s+had been|\s+got|\s+fell|\s+became)\s+(?:(?:really|very|so|quite|seriously|terribly|badly|gravely)\s+)?"
    r"(?:sick|ill|unwell)(?!\s+(?:of|and tired)\b)|"
    rf"(?:(?:mon|ma|notre|sa|son)\s+(?:\w+\s+)?(?:{RELATIONS}|{PETS})|il|elle)\s+(?:est|était|a été)\s+(?:tombée?\s+)?"
    r"(?:(?:très|gravement|vraiment|si|tellement|encore)\s+)?malade)\b",
    re.I,
)
MEAT = re.compile(
    r"\b(?:steaks?|meat|beef|pork|bacon|ham|burgers?|chicken|sausages?|lamb|viande|bœuf|boeuf|porc|jambon|"
    r"poulet|saucisses?|agneau|entrecôte|charcuterie)\b",
    re.I,
)
DIET = re.compile(r"\b(?:vegetarian|vegan|végétarien\w*|végétalien\w*|végane|vegan\w*)\b", re.I)
