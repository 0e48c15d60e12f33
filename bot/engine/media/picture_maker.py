"""Making one picture of the companion: enabled, within the person's daily limit, the same base prompt and
reference every time. Whatever happens, the caller gets a picture or the key of a kind text; never an error."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date

from bot.engine.media.picture_ports import ImageGenerator, PictureQuota
from bot.engine.media.picture_rules import picture_prompt
from bot.engine.media.pictures import Picture
from bot.engine.prompt.persona import Persona
from bot.errors import PictureRefused, PictureUnavailable

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PictureOutcome:
    picture: Picture | None = None
    refusal: str = ""  # a `bot.engine.texts.pictures` key when there is no picture


class PictureMaker:
    def __init__(
        self,
        *,
        persona: Persona,
        generator: ImageGenerator | None,  # None: pictures are not configured
        quota: PictureQuota,
        daily_limit: int,
        reference: bytes | None = None,  # the persona's avatar: the face every picture keeps
    ) -> None:
        self._persona = persona
        self._generator = generator
        self._quota = quota
        self._daily_limit = daily_limit
        self._reference = reference

    @property
    def enabled(self) -> bool:
        return self._generator is not None

    async def make(self, user_key: str, day: date, scene: str, *, explicit_allowed: bool = False) -> PictureOutcome:
        """A picture for a person who asked, counted on their local `day`."""
        if self._generator is None:
            log.info("a picture was asked for but pictures are off (SOUVENIR_IMAGES_ENABLED)")
            return PictureOutcome(refusal="picture_off")
        try:
            allowed = await self._quota.take(user_key, day, self._daily_limit)
        except Exception:
            log.exception("could not count a picture against the daily limit; not making it")
            return PictureOutcome(refusal="picture_failed")
        if not allowed:
            log.info("picture not made: %s reached SOUVENIR_IMAGES_DAILY_LIMIT=%d", user_key, self._daily_limit)
            return PictureOutcome(refusal="picture_limit")
        outcome = await self.draw(scene, explicit_allowed=explicit_allowed)
        if outcome.picture is None:
            try:
                await self._quota.give_back(user_key, day)
            except Exception:
                log.exception("could not uncount a picture that was not made")
        return outcome

    async def draw(self, scene: str, *, explicit_allowed: bool = False) -> PictureOutcome:
        """A picture outside the daily count (a birthday card the companion sends of its own accord)."""
        if self._generator is None:
            return PictureOutcome(refusal="picture_off")
        try:
            prompt = picture_prompt(self._persona, scene, explicit_allowed)
            image = await self._generator.generate(prompt, self._reference)
        except PictureRefused:
            return PictureOutcome(refusal="picture_refused")
        except PictureUnavailable:
            return PictureOutcome(refusal="picture_failed")
        except Exception:
            log.exception("the image endpoint failed unexpectedly")
            return PictureOutcome(refusal="picture_failed")
        return PictureOutcome(Picture(image, scene))
