"""Souvenir against mem0: the parts of `python -m bench.compare_mem0` (the box of people, each side, the plot),
not run on its own.

It imports mem0 (the `bench` extra), Souvenir's memory as the app opens it (`bot.app.memory`, `memory`), the
LoCoMo data and matplotlib."""
