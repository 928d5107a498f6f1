"""Solution databases: solve once, keep forever (``gametree db``; docs/solving.md)."""
