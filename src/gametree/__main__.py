"""``python -m gametree`` runs the command line."""

from .cli import main

raise SystemExit(main())
