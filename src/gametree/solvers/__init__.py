"""Solvers that value every position of a game at once, beside the engines that search one
position at a time: :mod:`gametree.solvers.retrograde` (whole games by retrograde analysis, on
the Python tier or compiled on the game's kernel). A solution database's builder
(:mod:`gametree.builder`) stores what they find.
"""
