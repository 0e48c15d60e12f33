"""Language model providers behind the engine's `LanguageModel` port (OpenAI-compatible, Anthropic).

Open one with `bot.llm.factory.open_language_model(endpoint)`: a `bot.llm.endpoint.ChatEndpoint` the wiring
builds from the settings.

It alone imports the OpenAI and Anthropic SDKs. It imports aiohttp, the engine's ports and values (and the voice
note and metrics it reports to), plain helpers of `bot` (errors, the avatar's image format, the voice codec) and
the provider names of `bot.config`; never memory, the adapters or the wiring (contracts in pyproject.toml).
"""
