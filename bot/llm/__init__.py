"""Language model providers behind the engine's `LanguageModel` port (OpenAI-compatible, Anthropic).

Open one with `bot.llm.factory.open_language_model(endpoint)`: a `bot.llm.endpoint.ChatEndpoint` the wiring
builds from the settings.
"""
