"""What the companion says about pictures in its own voice, in English and French."""

from __future__ import annotations

from bot.engine.texts.say import say_in

_PICTURE_TEXTS: dict[str, dict[str, str]] = {
    "picture_off": {
        "en": "I'd love to send you a picture, but pictures aren't set up here. Words will have to do for now!",
        "fr": "J'adorerais t'envoyer une photo, mais les images ne sont pas activées ici. Les mots devront suffire !",
    },
    "picture_limit": {
        "en": "That's all the pictures I can send today — ask me again tomorrow?",
        "fr": "C'est tout pour les photos aujourd'hui — redemande-moi demain ?",
    },
    "picture_refused": {
        "en": "I can't make that picture — could we imagine something else?",
        "fr": "Je ne peux pas faire cette image — on imagine autre chose ?",
    },
    "picture_failed": {
        "en": "I tried to make you a picture, but it didn't work this time. Try again a bit later?",
        "fr": "J'ai essayé de te faire une photo, mais ça n'a pas marché cette fois. Tu réessaies un peu plus tard ?",
    },
    "picture_real_person": {
        "en": (
            "I can't make pictures from photos of real people — not even with the best intentions. "
            "I'm happy to send you one of me, though!"
        ),
        "fr": (
            "Je ne fais pas d'images à partir de photos de vraies personnes, même avec les meilleures intentions. "
            "Par contre, je t'envoie volontiers une photo de moi !"
        ),
    },
    "picture_usage": {
        "en": "Tell me what you'd like to see, e.g. /picture at the beach at sunset",
        "fr": "Dis-moi ce que tu aimerais voir, par ex. /picture à la plage au coucher du soleil",
    },
    "picture_caption": {
        "en": "Here I am!",
        "fr": "Me voilà !",
    },
}


def say_picture(key: str, language: str | None, /, **values: object) -> str:
    return say_in(_PICTURE_TEXTS, key, language, **values)
