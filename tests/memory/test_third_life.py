"""A third life told in everyday words, English and French, written before the rules that read it: its teaching,
a baby with a name, an adopted pet, pets named together, someone close who is ill, a new hobby, and what must
not become a fact (someone else's pet, "sick of", teaching oneself). `HELD_BACK` was written at the same time
and left out of the tuning: it checks the rules on phrasings they were not shaped on."""

from __future__ import annotations

from tests.memory.life_story import Said, misses

TOBIAS = (
    Said("hey there, I'm Tobias btw", knows=("Name: Tobias",)),
    Said("I teach chemistry at a sixth form college", knows=("chemistry",)),
    Said("we just had a baby boy, his name is Arlo", knows=("Arlo (son)",)),
    Said("last spring we adopted a greyhound called Fudge", knows=("Fudge (",)),
    Said("we also have two guinea pigs, Salt and Pepper", knows=("Salt (guinea pig)", "Pepper (guinea pig)")),
    Said("my grandad has been really ill since the autumn and it's been weighing on me", gentle=("ill",)),
    Said("I've really gotten into birdwatching this year", knows=("birdwatching",)),
    Said("honestly I'm sick of marking essays every weekend", never=("marking",), not_gentle=True),
    Said("my friend's cat is called Rolo and he's hilarious", never=("Rolo",)),
    Said("I teach myself piano on youtube in the evenings", never=("piano",)),
    Said("my wife Hannah is a midwife", knows=("Hannah (wife)",)),
    Said("I took up running in January", knows=("running",)),
    Said("I'm a big fan of Wes Anderson films", knows=("Wes Anderson",)),
    Said("we got a kitten too, she's called Maple", knows=("Maple (kitten)",)),
    Said("that gig last night was sick", not_gentle=True),
)

NOEMIE = (
    Said("coucou, moi c'est Noémie", knows=("Prénom : Noémie",)),
    Said("j'enseigne l'histoire-géo dans un lycée", knows=("histoire-géo",)),
    Said("on vient d'avoir un petit garçon, il s'appelle Gaspard", knows=("Gaspard (fils)",)),
    Said("on a adopté un chaton qu'on a appelé Réglisse", knows=("Réglisse (chaton)",)),
    Said("j'ai deux lapins, Cannelle et Muscade", knows=("Cannelle (lapin)", "Muscade (lapin)")),
    Said("ma mère est malade depuis cet hiver et ça me pèse beaucoup", gentle=("malad",)),
    Said("je me suis mise à la poterie cet été", knows=("poterie",)),
    Said("j'en ai marre de la pluie", not_gentle=True),
    Said("le chat de ma copine s'appelle Filou", never=("Filou",)),
    Said("mon copain Yanis est pompier", knows=("Yanis (copain)",)),
    Said("je me suis remise au piano depuis peu", knows=("piano",)),
    Said("les lundis sont durs", knows=("lundis",)),
    Said("je suis fan de Miyazaki", knows=("Miyazaki",)),
    Said("nous avons aussi une chienne, elle s'appelle Olive", knows=("Olive (chienne)",)),
    Said("je m'apprends la guitare toute seule", never=("guitare",)),
    Said("le soir je donne des cours de yoga", knows=("yoga",)),
)

HELD_BACK_EN = (
    Said("I've been teaching at the same primary school for ten years", knows=("primary school",)),
    Said("our daughter Maisie turned two last week", knows=("Maisie (daughter)",)),
    Said("we rescued a three-legged cat named Tripod", knows=("Tripod (",)),
    Said("we have three kids, Ollie, Ava and Finn", knows=("Ollie (", "Ava (", "Finn (")),
    Said("my brother has been ill for a while now, it's hard", gentle=("ill",)),
    Said("I've got really into climbing", knows=("climbing",)),
    Said("my boss is sick of my excuses", not_gentle=True),
    Said("I'm teaching my son to ride a bike", never=("bike",)),
)

HELD_BACK_FR = (
    Said("je suis enseignante en maternelle", knows=("maternelle",)),
    Said("on a eu une petite fille en mai, elle s'appelle Rose", knows=("Rose (fille)",)),
    Said("on a recueilli un chat errant, il s'appelle Tigrou", knows=("Tigrou (",)),
    Said("on a deux chiens, Oslo et Lima", knows=("Oslo (chien)", "Lima (chien)")),
    Said("mon frère est gravement malade", gentle=("malad",)),
    Said("je me suis lancé dans la photo argentique", knows=("photo argentique",)),
    Said("mon voisin a un chien qui s'appelle Rex", never=("Rex",)),
    Said("j'étais malade hier", not_gentle=True),
)


def test_the_third_life_in_english_is_known() -> None:
    assert misses(TOBIAS, "en") == []


def test_the_third_life_in_french_is_known() -> None:
    assert misses(NOEMIE, "fr") == []


def test_phrasings_held_back_from_the_tuning_are_known_too() -> None:
    assert misses(HELD_BACK_EN, "en") == [] and misses(HELD_BACK_FR, "fr") == []
