"""What a person can ask of the companion outside of conversation: settings (/timezone, /voice, /profile...),
their own memories (/memories, /forget, /export, why a reply said what it did) and linking their accounts.
The adapters call `UserCommands` and render its plain results (`bot.engine.commands.results`).

It imports plain data, the ports and the other rooms it sets (the age, the time zone, the voice); never the
conversation engine.
"""
