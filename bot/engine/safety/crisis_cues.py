"""The words the crisis reading looks for, French and English, on lower-cased accent-stripped text with straight
apostrophes (`normalised`): phrases of wanting to die or of self-harm, what makes one a danger right now (a plan,
means, a time), and what makes one something else (a denial, an idiom, someone else, a story, an accident).

Phrases, not words: "kill myself", "envie de mourir", "kms", "better off without me", "je me scarifie". They are
one reading of several (`bot.engine.safety.crisis`): the learned reader over the message's embedding catches what no
list holds.
"""

from __future__ import annotations

import re
import unicodedata

# After "live" / "vivre": where or with whom, not whether ("I don't want to live in this city anymore", « jveux plus
# vivre à Paris »). Left out, since they can mean in this world or with this pain: "here", « ici », "with", « avec »,
# "on", « sur (cette terre) ».
_LIVE_WHERE = (
    r"(?! (?:in|at|near|abroad|alone|together|a|au|aux|dans|chez|en|pres|seule?|ensemble|comme "
    r"(?:des|un|une) (?:colocs?|etudiants?|nomades?))\b)"
)
_PHRASES_EN = (
    r"kill(?:ing|ed)? my ?self|\bkms\b|\bkys\b|unaliv\w* (?:my ?self|me)|\bunalive\b|sewer ?slide|\bctb\b|"
    r"end(?:ing)? my (?:own )?life|tak(?:e|ing) my (?:own )?life|end(?:ing)? it all|end(?:ing)? things|"
    r"(?:i|i'm|im|to|like|gonna|going to|want to|wanna|will|i'll|should) (?:just )?end(?:ing)? it(?= *(?:$|[.,!?;]|"
    r"tonight|today|now|soon|all|for good|once and for all))|"
    r"suicidal|(?:commit|committing|commited|committed|thinking about|think about|thought about|thoughts of|"
    r"contemplating|considering|attempted|attempt at|tried) suicide|(?:no|the|any) point (?:of|in) (?:living|life|going on)|"
    r"(?:want|wanna|going|wish|wished|ready|deserve|need|hope) (?:to )?(?:just )?die\b|wanna die|i should die|"
    r"(?:wish|hope) (?:i|i'd) (?:was|were|had been|could be|would be) dead|better off dead|"
    r"better off without me|(?:better|easier) (?:for everyone |for them |for all )?(?:if|when) i(?:'m| am| was| were|'d)? "
    r"(?:gone|dead|not here|not around|disappeared|didn't exist|was ?n't (?:here|around|alive))|"
    r"(?:nobody|no one|no-one) (?:would|will|'d) (?:notice|care|miss me)|"
    r"no reason (?:left )?to (?:live|stay|keep going)|nothing (?:left )?to live for|"
    r"(?:do ?n't|do not|dont) want to (?:live" + _LIVE_WHERE + r"|be alive|be here|exist|wake up)|"
    r"(?:never|not) (?:to )?wake up(?= *(?:$|[.,!?;]|again|ever|tomorrow))|sleep forever|"
    r"(?:go to sleep|fall asleep) and (?:never|not) wake|"
    r"can'?t go on|can'?t do this anymore|can'?t keep going|tired of (?:living|being alive|life|existing)|"
    r"what'?s the point (?:of|in) (?:living|life|going on|anything)|"
    r"(?:life|living) (?:is ?n't|is not|is no longer|aint|ain't) worth (?:living|it)|"
    r"(?:cut|cutting|burn|burning|burned|burnt|hurt|hurting|harm|harming|starve|starving|punish|punishing) my ?self|"
    r"hang(?:ing)? my ?self|slit(?:ting)? my (?:wrists?|throat)|"
    r"jump(?:ing)? (?:off|from|in front of) (?:a|the|this|that|my) (?:bridge|building|roof|cliff|balcony|train)|"
    r"(?:think|thinking|thought|thoughts) (?:about|of) (?:dying|death|killing myself|ending (?:it|things|my life))|"
    r"(?:want|need) (?:it all|everything|the pain|this|it) to (?:stop|end) (?:for good|forever|permanently)|"
    r"make it (?:all )?stop (?:for good|forever)|disappear (?:forever|for good|permanently)|"
    r"(?:cease|stop) to exist|stop existing|not (?:be )?(?:exist|here) anymore|"
    r"(?:i|i've|ive|i have|i had) (?:attempted|tried)(?: to)?(?: kill myself| end it| suicide)?\b(?= *(?:$|[.,!?;]|again))|"
    r"i (?:cut|burned|relapsed) (?:again|last night|today)|"
    r"(?:take|taking|swallow|swallowing|took|swallowed) (?:all|every(?: one of)?|the whole (?:bottle|box|pack) of|a bunch of|"
    r"too many|a handful of) (?:my |the |these |those )?(?:pills|meds|tablets|sleeping pills|painkillers)|"
    r"(?:pills|meds|tablets) (?:saved|stockpiled|lined up|counted|ready)|"
    r"(?:a |my )?suicide (?:note|letter)|wrote (?:a|my) (?:note|letter) (?:to|for) my|"
    r"won'?t be (?:around|here|alive) (?:much longer|anymore|for long|by|tomorrow)|"
    r"(?:last time|last message) you(?:'ll| will) (?:hear|see) from me|"
    r"(?:a|the) burden (?:to|on|for) (?:everyone|everybody|them|my|you)|i'?m (?:just )?a burden|"
    r"(?:wish|hope) i (?:was|were|had) never (?:been )?born"
)
_PHRASES_FR = (
    r"me suicider|suicidaire|"
    r"(?:vais|veux|voudrais|jvais|j'?vais|jveux|j'?veux|envie de|pense a|penser a|penses a) me (?:tuer|buter|flinguer)|"
    r"(?:veux|voudrais|aimerais|envie de|vais|jveux|j'?veux|prefere|prefererais|merite de|hate de)(?: juste| vraiment| seulement| tellement| tant)? (?:mourir|crever)\b|"
    r"idee de (?:mourir|la mort|me tuer|en finir|disparaitre)|la mort (?:serait|est|c'est) (?:un soulagement|la seule|une delivrance)|"
    r"mourir (?:c'est|serait|est) la seule|(?:tout )?arreter pour de bon|que tout s'arrete,? (?:pour de bon|definitivement|pour toujours)|"
    r"tout arreter, la vie|en finisse? avec (?:ma vie|la vie|tout)|plus la force de (?:continuer|vivre|me battre)|"
    r"(?:serai|serais) plus (?:la|un probleme|un poids)|derniere fois qu'on se parle|j'en aurai plus besoin|"
    r"avant que je (?:parte|m'en aille)|quand je serai (?:partie?|plus la)|si (?:jamais )?je suis plus la|"
    r"(?:voudrais|aimerais|prefererais|mieux) (?:etre )?morte?\b|"
    r"(?:n'?ai|ai|n'?a|a|j'?ai) plus (?:envie|gout|la force|aucune envie) de vivre" + _LIVE_WHERE + "|"
    r"(?:ne )?veux plus vivre" + _LIVE_WHERE + "|"
    r"(?:fatiguee?|lasse?|epuisee?|marre) de (?:vivre|la vie|exister)|"
    r"en finir(?! avec (?:ce|cette|ces|le|la|les|mon|ma|mes) (?!vie)\w)|"
    r"mettre fin a (?:mes jours|ma vie|tout)|mieux sans moi|me foutre en l'?air|me pendre|"
    r"me (?:jeter|jette|jetterai|jetterais) (?:sous|du haut|d'?un|par la|dans le vide|du pont|du toit)|(?:plus|aucune|pas) (?:de )?raison de vivre|"
    r"(?:ne (?:plus|jamais plus|pas) me reveiller|plus jamais me reveiller|dormir pour toujours)|"
    r"disparaitre (?:pour toujours|a jamais|definitivement|pour de bon)|partir pour (?:de bon|toujours)|"
    r"(?:peux|peut|arrive) plus (?:de )?(?:vivre|continuer|tenir)|vie ne vaut (?:plus|pas) (?:la peine|le coup)|"
    r"me (?:fais|faire|fait|suis fait|suis faite) du mal|"
    r"pense (?:tout le temps |sans arret |souvent )?(?:a la mort|a mourir)|ne plus exister|plus exister|"
    r"(?:n'?etais|n'?existais|ne serais|serai|serais) plus (?:la|ici|en vie)|"
    r"(?:personne|aucun) (?:ne )?(?:remarquerai[ts]?|verrai[ts]?|s'?en rendrai[ts]? compte)|"
    r"me suis (?:encore )?(?:coupee?|scarifiee?|brulee?)(?= *(?:$|[.,!?;]|ce soir|hier|encore|aujourd'hui|la nuit|"
    r"expres|les))|"
    r"(?:avaler|avale|gober) (?:toute?s? )?(?:tous )?(?:mes|les|la boite de|la plaquette de|toute la boite)|"
    r"(?:prendre|pris) (?:toute?s? |tous )(?:mes|les|la boite de|la plaquette de) (?:pilules|medicaments|medocs|cachets|somniferes)|"
    r"me (?:coupe|couper|suis coupee?|taillade) (?:les|le|la) (?:bras|poignets?|veines|cuisses?|peau)|"
    r"(?:un|le|mon) poids pour (?:tout le monde|eux|ma famille|les autres)|"
    r"(?:meme )?plus (?:envie |gout )?de vivre" + _LIVE_WHERE + r"|(?:jamais|pas) (?:du )?(?:etre )?nee?\b|a quoi bon (?:vivre|continuer)"
)
# Words that name the subject rather than say the writer's own wish: "suicide", "self-harm", "overdose", "relapse",
# a goodbye, a rope. A school essay, the news, a friend's story and a coffee "overdose" use them as often as a person
# in crisis does, so on the reply path they count only when the learned reader sees some crisis too.
_TOPICS_EN = (
    r"suicide(?! (?:squad|rates?|prevention|awareness|bomb\w*|mission|hotline|forest))|self[- ]?harm\w*|"
    r"overdos\w*|\bod\b(?= *(?:$|[.,!?;]|tonight|on))|relaps\w*|"
    r"(?:saying|say) (?:my )?goodbyes?\b(?! for now| for tonight| to (?:the|my) (?:old|apartment|house|summer))|"
    r"no way out|(?:bought|got|have|found|tied|ready) (?:a |the )?(?:rope|noose)|noose|(?:goodbye|farewell) (?:note|letter)"
)
_TOPICS_FR = (
    r"suicide(?! (?:commercial|politique|social))|tentative de suicide|scarifi\w*|automutil\w*|rechut\w*|"
    r"un fardeau|lettre d'?adieu|(?:dire|te dis|vous dis) (?:adieu|au revoir)(?! (?:a|au|aux) (?!tout)\w)|"
    r"plus d'?issue|pas d'?issue|aucune issue"
)
PHRASES = re.compile(r"(?:" + _PHRASES_EN + "|" + _PHRASES_FR + ")")
TOPICS = re.compile(r"(?:" + _TOPICS_EN + "|" + _TOPICS_FR + ")")

# A time, a plan or means: danger right now (the emergency number first).
IMMINENT = re.compile(
    r"\b(?:tonight|right now|rn|now|today|this (?:evening|weekend|morning|afternoon)|in an hour|after (?:everyone|they)|"
    r"when (?:everyone|they)(?:'re| are)? (?:asleep|gone)|tomorrow|at \d|this is it|the last time|"
    r"i'?m (?:on|at|standing on|sitting on) (?:the|a|my) (?:roof|bridge|edge|ledge|tracks|balcony|cliff)|"
    r"pills|meds|tablets|rope|noose|gun|knife|blade|razor|bridge|roof|tracks|train|bottle|saved up|stockpil|"
    r"(?:i have|i've got|i got|i bought|bought) (?:a|the|some|enough)|(?:have|made|got) a plan|planned|decided|"
    r"wrote (?:a|the|my) (?:note|letter)|note|goodbye|"
    r"ce soir|cette nuit|maintenant|la tout de suite|tout de suite|aujourd'?hui|demain|ce week-?end|dans une heure|"
    r"medicaments|medocs|cachets|pilules|somniferes|corde|arme|fusil|couteau|lames?|rasoir|pont|toit|rails|"
    r"(?:j'?ai|g) (?:achete|prepare|prevu|decide|ecrit)|(?:un|mon) plan|lettre|adieu|c'?est (?:decide|fini|la fin))\b"
)
# Before a phrase, the same clause: it is denied ("I'm not suicidal", "je ne suis pas suicidaire").
_NEGATION = re.compile(
    r"\b(?:not|never|no way|dont|wont|cant|didnt|doesnt|isnt|wouldnt|pas|jamais|aucunement|nullement|aucune?)\b|n't\b"
)
# Between a negation and the phrase: the negation governs another verb, not the phrase ("can't stop thinking
# about suicide", "je n'arrête pas de penser à mourir", "je ne sais pas pourquoi je veux mourir").
_NOT_A_DENIAL = re.compile(
    r"\b(?:stop|help|quit|shake|get (?:it|this) out|know|understand|see why|sure|tell|care|think i can|get rid|"
    r"anymore|any more|see|arrete|arreter|empecher|sais|sait|comprends|comprend|vois|peux|peut|supporte|arrive)\b"
)
_NEGATION_WORDS = 4
_GOVERNED_WORDS = 7  # how far back the verb a negation governs may be ("je n'arrête pas de penser au suicide")
# Just after a phrase: an idiom or an accident, not a wish ("want to die laughing", "hurt myself playing").
NOT_A_WISH = re.compile(
    r"^[ .,…-]*(?:laughing|of laughter|of embarrassment|of boredom|of shame|from laughing|of cringe|playing|at the gym|"
    r"while|when i\b|falling|skiing|running|cooking|lifting|during|in the kitchen|on the (?:stove|oven|pan)|"
    r"de rire|de honte|de faim|de fatigue|d'ennui|de chaud|de froid|de soif|a slice|a piece|a bit|some\b|"
    r"avec (?:ce|cette|ces|le|mon|ma|mes) (?:dossier|boulot|travail|projet|taf|exam)|vieux|vieille|old\b|of old age|"
    r"de vieillesse|in my sleep at|si je dois)"
)
CLAUSE = re.compile(r"[.;!?\n]|,(?! *(?:je|i)\b)|\b(?:but|mais|though|however|pourtant)\b")
# Someone else's words or acts, a story, a joke: the phrase is not the writer's own.
OTHERS = re.compile(
    r"\b(?:my|his|her|their|our) (?:best |close |old )?(?:friend|brother|sister|mom|mum|dad|mother|father|cousin|son|"
    r"daughter|uncle|aunt|neighbou?r|colleague|coworker|classmate|partner|boyfriend|girlfriend|wife|husband|grand\w+|"
    r"roommate|flatmate|housemate|mate|bestie|bff|student|patient|teen|kid)\b|"
    r"\b(?:he|she|they)(?: has| have|'s|'ve)? (?:said|says|tried|attempted|wants|wanted|killed|died|self)|"
    r"\b(?:a friend|someone|somebody|a coworker|a classmate|un ami|une amie|un pote|une pote|quelqu'un|une collegue)\b|"
    r"\b(?:mon|ma|mes|son|sa|ses|notre) (?:meilleure? |petite? )?(?:ami|amie|pote|frere|soeur|mere|pere|cousin|cousine|"
    r"fils|fille|oncle|tante|voisin|voisine|collegue|copain|copine|mari|femme|grand-\w+|grand\w+|coloc\w*|eleve|"
    r"patiente?|ado)\b|\b(?:il|elle|ils|elles) (?:a|ont|veut|voulait|"
    r"s'est|se sont|dit)\b"
)
STORY = re.compile(
    r"\b(?:in the (?:game|movie|film|book|show|series|novel|story|episode|song)|my character|the character|"
    r"chapter|season \d|lyrics|article|fundraiser|podcast|lecture|conference|report|study|statistics|"
    r"un film sur|un article|un reportage|une etude|statistiques|narrat\w*|heroine|roman|nouvelle|livre|journal|"
    r"expose|debat|sujet|tabou|suicides|the song|the book|the film|the movie|the hero|the villain|documentary|history|"
    r"dans (?:le|la|mon|ce) (?:jeu|film|livre|roman|serie|episode|chanson|histoire)|mon perso|le personnage|"
    r"le heros|chapitre|documentaire|paroles)\b"
)
IDIOMS = re.compile(
    r"\b(?:hungover|hangover|gueule de bois|lendemain de (?:soiree|cuite))\b|\b(?:is|are|was|'s|it's|its|you're|ur) killing me|killing me (?:softly|lol|haha)|(?:could|would) kill for|"
    r"i'?m dead\b|dead (?:lol|haha|💀)|died laughing|kill me now|shoot me now|"
    r"(?:political|commercial|social|career|professional|electoral) suicide|suicide (?:squad|commercial|politique|social)|"
    r"mort de rire|morte de rire|ca me tue|me tue (?:ce|cette|ces|le|la)|crever de (?:chaud|faim|froid|rire)|"
    r"meurs de (?:faim|soif|chaud|froid|envie)|je suis morte?\b(?= *(?:$|[.,!?;]|mdr|ptdr|lol|de rire))"
)


# Laughter after a phrase in the same sentence ("je me jette par la fenêtre mdr"): hyperbole as often as not, so the
# phrase then speaks only with the learned reader's support, like a word naming the subject.
LAUGHING_AFTER = re.compile(r"^[^.!?\n]*(?:\b(?:mdr|ptdr|lol|lmao|haha\w*|xd)\b|😂|🤣|💀)")


def normalised(text: str) -> str:
    """Lower case, accents stripped, straight apostrophes, single spaces: what every cue is written for."""
    text = unicodedata.normalize("NFKD", text.replace("’", "'").replace("‘", "'").replace("`", "'"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return " ".join(text.split())


def denied(before: str) -> bool:
    """Whether the clause just before a phrase denies it: a negation that governs the phrase itself."""
    clause = CLAUSE.split(before)[-1]
    words = clause.split()
    near = " ".join(words[-_NEGATION_WORDS:])
    # "ne sais pas", "n'arrête pas": in French the governed verb comes before the negation, so a wider window.
    return _NEGATION.search(near) is not None and _NOT_A_DENIAL.search(" ".join(words[-_GOVERNED_WORDS:])) is None
