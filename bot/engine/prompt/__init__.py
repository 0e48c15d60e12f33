"""What the model is told: the system prompt, the persona and its character card, lore, the person model, the
tone taken from how a person has been feeling, what of the talk the prompt holds already, and the token
budget that keeps it all within the context.

It imports plain data, the texts, the words for days (`bot.engine.when`) and the pause that ends a talk
(`bot.engine.safety.rules.breaks`); never the commands, the media or the conversation engine.
"""
