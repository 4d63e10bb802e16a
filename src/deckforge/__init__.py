"""deckforge: card-game content in YAML to print-ready PDFs."""

__version__ = "0.1.0"
