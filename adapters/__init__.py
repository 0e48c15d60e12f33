"""The front ends: where people reach Souvenir. Each one turns what its users send into the engine's plain values
(`bot.engine.model`) and the engine's replies into what its users see: `telegram` and `discord` (the platforms),
`terminal` (the terminal chat, with `terminal_prompt` and `terminal_pictures`) and `web` (the memory browser);
`message_split` cuts a long reply for any of them.

An adapter imports the engine (its values, ports, commands and texts), a few plain helpers of `bot` (errors, the
avatar) and its own library, which no other part imports (discord.py, python-telegram-bot, prompt-toolkit,
Jinja2); never memory, the jobs or the wiring (`bot.app`), and no Redis but Discord's IDENTIFY gate (contracts in
pyproject.toml)."""
