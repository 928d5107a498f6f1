"""``python -m gametree`` runs the command line."""

from .cli import run

run()
