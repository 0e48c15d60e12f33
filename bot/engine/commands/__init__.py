"""What a person can ask of the companion outside of conversation: settings (/timezone, /voice, /profile...),
their own memories (/memories, /forget, /export, why a reply said what it did) and linking their accounts.
The adapters call `UserCommands` and render its plain results (`bot.engine.commands.results`).

It imports plain data, the ports, the texts and what its settings set (the age, the time zone, the person
model) or share with the conversation (cleaning what was typed, pseudonyms); never the conversation engine or
the media.
"""
