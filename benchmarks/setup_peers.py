"""Install the Python peers into their own environment: ``python benchmarks/setup_peers.py``.

Creates ``benchmarks/.peers/venv`` (git-ignored; the project's own environment is untouched)
with the pinned packages of ``peer-requirements.txt`` and ``aima3``, then checks that every
peer search imports. Run it once before the benchmark scripts; ``--force`` starts afresh.

aima-python itself is not on PyPI; ``aima3`` 1.0.11 packages its games module (see
``peers_aima.py``). aima3 declares ``networkx==1.11`` and ``jupyter`` as dependencies that its
games module never imports (and networkx 1.11 does not import on current Pythons), so it is
installed with ``--no-deps``; ``tqdm`` and ``numpy``, which the module does import, are pinned in
the requirements file.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS_DIR = HERE / ".peers"
VENV_DIR = PEERS_DIR / "venv"
REQUIREMENTS = HERE / "peer-requirements.txt"
AIMA = "aima3==1.0.11"

IMPORT_CHECK = (
    "import easyAI, pyspiel\n"
    "from easyAI import Negamax\n"
    "from open_spiel.python.algorithms.minimax import alpha_beta_search\n"
    "from aima3.games import alphabeta_search, TicTacToe\n"
    "from importlib.metadata import version\n"
    "print(' '.join(f'{name}=={version(name)}' for name in ('easyAI', 'open_spiel', 'aima3')))\n"
)


def peer_python() -> Path:
    """The peer environment's interpreter (it may not exist yet)."""
    return VENV_DIR / "bin" / "python"


def run(*command: str | Path, shown: str | None = None) -> None:
    """Run a command, echoing it (or ``shown``); stop with its message if it fails."""
    print("+", shown or " ".join(str(part) for part in command), flush=True)
    completed = subprocess.run([str(part) for part in command], check=False)
    if completed.returncode != 0:
        raise SystemExit(f"setup_peers: {command[0]} failed with exit code "
                         f"{completed.returncode}; see its output above")


def main(argv: list[str] | None = None) -> int:
    """Create the environment, install the peers, check that they import."""
    command = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    command.add_argument("--force", action="store_true",
                         help="delete an existing peer environment first")
    options = command.parse_args(argv)
    if options.force and VENV_DIR.exists():
        shutil.rmtree(VENV_DIR)
    if not peer_python().exists():
        print(f"creating {VENV_DIR.relative_to(HERE.parent)} with {sys.executable}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV_DIR)
    python = peer_python()
    run(python, "-m", "pip", "install", "--quiet", "-r", REQUIREMENTS)
    run(python, "-m", "pip", "install", "--quiet", "--no-deps", AIMA)
    run(python, "-c", IMPORT_CHECK, shown=f"{python} -c <import every peer search>")
    print(f"peer environment ready: {python}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
