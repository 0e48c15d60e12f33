"""When things happen for a person: the clock, the dates people write, how far a day is in words, time
zones and the cities that name them, and the occasions ahead.

It imports plain data (`bot.engine.model`) and the engine's texts, nothing else of the engine.
"""
