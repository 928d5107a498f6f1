"""``python -m gametree`` runs the command line."""

from .cli import run

if __name__ == "__main__":  # not when a worker process of gametree serve imports it
    run()
