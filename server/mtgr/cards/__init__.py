"""Card knowledge: an optional local index of Magic cards, built from the files players
already use (Scryfall bulk data, MTGJSON AtomicCards.json).

Nothing else needs it: the notation and every rule that reads no card work without it.
The rules reach an index only through the `CardIndex` protocol in `model.py`, handed to
the walk by whoever has one (the command line, the language server).
"""
