"""The games that come with gametree. Each lives in a module of its own."""

from .tree import GameTree, TreeFormatError, load_tree

__all__ = ["GameTree", "TreeFormatError", "load_tree"]
