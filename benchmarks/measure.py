"""The timing protocol every benchmark contender follows, gametree and peers alike.

Stdlib only: the peer worker imports this module too, from the separate peer environment.

One measurement of one contender on one task:

1. **Counting run.** The search runs once with its node counter on (gametree counts its own
   nodes; a peer is wrapped, see ``peer_worker.py``). It gives the answer and the node count,
   and doubles as the warm-up: every module is imported and every code path has run once.
2. **Timed runs.** The search runs again with no counting wrapper, timed with
   :func:`time.perf_counter` around the search call alone (building the game and the initial
   state are outside the clock). Up to ``repeat`` runs, stopping early once the timed runs add up
   to more than ``budget`` seconds, at least one. Each run starts from nothing: a fresh game
   object, a fresh transposition table. The process's CPU time (:func:`time.process_time`) is
   recorded beside the wall time: on a shared machine it shows how much of a wall time was
   spent waiting for a core.
3. The **median** of the timed runs is the figure reported; every timed run must give the same
   answer as the counting run, else the measurement fails.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Answer = dict[str, Any]
"""What a search concluded, as JSON-ready data, seen from the player to move at the root.

Keys, each present only if the contender reports it: ``outcome`` (``win``, ``draw``, ``loss``
for a proven result), ``plies`` (the distance it claims for a win or loss), ``score`` (a
heuristic root value, on the shared scale of ``heuristics.py``) and ``move`` (the move chosen,
in the task's common notation).
"""


class AnswerMismatchError(RuntimeError):
    """Two runs (or two contenders) gave different answers to the same question."""


@dataclass
class Measurement:
    """The outcome of :func:`measure`: the answer, the node count and the run times."""

    answer: Answer
    """The answer of the counting run (every timed run gave the same)."""

    nodes: int | None
    """States visited, counted in the counting run; ``None`` if the contender cannot count."""

    times: list[float] = field(default_factory=list)
    """Wall-clock seconds of each timed run, in the order they ran."""

    cpu_times: list[float] = field(default_factory=list)
    """CPU seconds of this process during each timed run."""

    @property
    def median(self) -> float:
        """The median of :attr:`times`: the figure the tables report."""
        return statistics.median(self.times)

    @property
    def cpu_median(self) -> float | None:
        """The median of :attr:`cpu_times`, if they were recorded."""
        return statistics.median(self.cpu_times) if self.cpu_times else None

    def as_dict(self) -> dict[str, Any]:
        """The measurement as JSON-ready data (what the peer worker prints)."""
        return {"answer": self.answer, "nodes": self.nodes, "times": self.times,
                "cpu_times": self.cpu_times}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Measurement:
        """Read back what :meth:`as_dict` wrote."""
        return cls(answer=dict(data["answer"]), nodes=data["nodes"],
                   times=[float(seconds) for seconds in data["times"]],
                   cpu_times=[float(seconds) for seconds in data.get("cpu_times", [])])


Search = Callable[[], Answer]
"""A prepared search: calling it runs the search and returns its answer."""


def measure(
    counted: Callable[[], tuple[Answer, int | None]],
    prepare: Callable[[], Search],
    *,
    repeat: int,
    budget: float,
) -> Measurement:
    """Run the protocol of this module's docstring.

    ``counted()`` runs the search with node counting and returns its answer and node count.
    ``prepare()`` builds everything a timed run needs afresh (game, initial state, table) and
    returns the search itself; the clock runs around that search call only.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    answer, nodes = counted()
    result = Measurement(answer=answer, nodes=nodes)
    spent = 0.0
    while len(result.times) < repeat and (not result.times or spent <= budget):
        search = prepare()
        cpu_started = time.process_time()
        started = time.perf_counter()
        again = search()
        seconds = time.perf_counter() - started
        cpu_seconds = time.process_time() - cpu_started
        if again != answer:
            raise AnswerMismatchError(
                f"a timed run answered {again}, the counting run {answer}")
        result.times.append(seconds)
        result.cpu_times.append(cpu_seconds)
        spent += seconds
    return result


def installed_environment(bytecode: str | os.PathLike[str]) -> dict[str, str]:
    """This process's environment for a ``gametree`` process that runs as an installed
    package's does: its modules' bytecode compiled once into the directory ``bytecode``
    (``PYTHONPYCACHEPREFIX``) and read from there afterwards. ``PYTHONDONTWRITEBYTECODE``,
    set on this project's development machines, is left out: with it every process would
    compile gametree's sources anew, about a tenth of a second of each start. The first
    process compiles them: a benchmark runs a warm-up first."""
    environment = dict(os.environ, PYTHONPYCACHEPREFIX=os.fspath(bytecode))
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment
