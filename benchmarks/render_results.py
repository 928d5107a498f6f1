"""Print the tables of saved benchmark results (the ``--json`` files of the peer benchmarks).

The tables are the ones the benchmark printed when it ran, rebuilt from the file, followed by
one summary line per peer: the time and CPU ratios and whether both reach 10x. This is how the
tables of docs/benchmarks.md are made.

Usage::

    python benchmarks/render_results.py benchmarks/results/tictactoe.json [...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness import Row, machine_line, table
from measure import Measurement

GOAL = 10.0


def rows_of(data: dict[str, Any]) -> tuple[Row, list[Row]]:
    """The reference row (gametree) and the peers' rows of one saved table."""
    rows = [Row(entry["name"], Measurement.from_dict(entry), list(entry.get("notes", [])))
            for entry in data["rows"]]
    return rows[0], rows[1:]


def summary(title: str, reference: Row, others: list[Row]) -> list[str]:
    """``| task | peer | time ratio | cpu ratio | 10x? |`` lines for one table."""
    lines = []
    base = reference.measurement
    for row in others:
        m = row.measurement
        time_ratio = m.median / base.median
        cpu_ratio = (m.cpu_median / base.cpu_median
                     if m.cpu_median is not None and base.cpu_median else None)
        cpu_text = f"{cpu_ratio:,.1f}" if cpu_ratio is not None else "-"
        reached = time_ratio >= GOAL and (cpu_ratio is None or cpu_ratio >= GOAL)
        lines.append(f"| {title} | {reference.name} | {row.name} | {time_ratio:,.1f} | "
                     f"{cpu_text} | {'**yes**' if reached else 'no'} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print every file's tables, then the summary of all of them."""
    command = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    command.add_argument("files", nargs="+", type=Path, help="JSON files written by --json")
    options = command.parse_args(argv)
    overview = ["| task | gametree | peer | time ratio | cpu ratio | 10x? |",
                "| --- | --- | --- | ---: | ---: | --- |"]
    for path in options.files:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            print(f"render_results.py: cannot read {path}: {error}", file=sys.stderr)
            return 2
        print(f"## {path.name}: `{data['command']}`")
        print()
        print(machine_line(data["machine"], {"load_average": data["load_after"]}))
        for saved in data["tables"]:
            reference, others = rows_of(saved)
            print()
            print(table(saved["title"], reference, others))
            overview.extend(summary(saved["title"], reference, others))
        print()
    print("\n".join(overview))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
