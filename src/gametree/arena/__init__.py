"""Matches between engines (``gametree match``, docs/matches.md): a round robin of any
players over any game, from a set of openings with colours swapped, on every core, with a
crosstable, Elo estimates with 95% intervals, an optional SPRT, saved results and a plot.

* :mod:`~gametree.arena.players`: the players, from their specs (``depth=6``, ``level=3``,
  ``uci=/usr/games/stockfish,skill=0,time=0.1``);
* :mod:`~gametree.arena.openings`: the openings;
* :mod:`~gametree.arena.schedule`: the games and the processes that play them;
* :mod:`~gametree.arena.stats`: Elo, intervals and the SPRT;
* :mod:`~gametree.arena.results`: the results file and the crosstable;
* :mod:`~gametree.arena.runner`: a match from start to end;
* :mod:`~gametree.arena.plot`: the PNG.
"""
