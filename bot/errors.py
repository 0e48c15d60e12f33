"""Souvenir's one exception tree. Catch `SouvenirError` at boundaries; subclasses say what went wrong."""


class SouvenirError(Exception):
    """Base of every error Souvenir raises on purpose."""


class ConfigError(SouvenirError):
    """Settings are missing or invalid. The message names the variable and what is expected."""


class LLMUnavailable(SouvenirError):
    """The language model could not answer after its retries (down, rate-limited, timed out, garbled)."""


class StoreUnavailable(SouvenirError):
    """Redis or Qdrant could not be reached or started."""


class InvalidInput(SouvenirError):
    """A person's input cannot be used as given; the message is safe to show them."""


class UserUnreachable(SouvenirError):
    """The platform refuses to deliver to this person (they blocked the bot or closed their DMs)."""


class DataDirInUse(StoreUnavailable):
    """Another Souvenir process holds the data dir's embedded stores; the message names its pid."""


class ErasedMeanwhile(SouvenirError):
    """The person erased their data while something about them was being written: the write was dropped."""


class ConversationLockLost(SouvenirError):
    """A reply's conversation lock expired and another process took it: this reply's writes were refused."""


class UnreadableText(SouvenirError):
    """A text stored encrypted cannot be opened: its person's data key was destroyed (erased) or is absent."""
class VoiceUnavailable(SouvenirError):
    """Transcription or speech could not be had: not configured, or the audio service failed."""
class PictureUnavailable(SouvenirError):
    """The image endpoint could not make a picture (down, misconfigured, garbled); already logged."""


class PictureRefused(PictureUnavailable):
    """The image endpoint refused the prompt (its content policy)."""
