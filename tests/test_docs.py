"""The examples in README.md and docs/*.md run and print what they say.

Python examples: plain ``python`` blocks are executed in order, then the file's ``>>>``
examples are checked as doctests in the same namespace (so a block can define a game that the
examples use).

Shell examples: every line starting with ``$ `` in a ```` ```console ```` block is a command,
and the lines after it, up to the next ``$ `` line or the end of the block, are its expected
standard output. The convention, for whoever writes docs:

- A command runs from the repository root in ``sh`` (pipes, ``2>&1``, here-documents and
  ``\\``-continued lines work), with this checkout's ``gametree`` and ``python`` first on PATH,
  empty standard input and a timeout. It must exit with status 0.
- Standard output is compared; standard error only where the command sends it to standard
  output (``2>&1``). Trailing spaces and trailing blank lines do not count.
- ``...`` on a line of its own matches any number of lines; ``...`` inside a line matches any
  text on that line. Use it to show the interesting part of a long output.
- What varies from run to run is masked on both sides: times (``0.0182 s``, ``1.9 ms``,
  ``147 µs``, ``"seconds": 4.1e-05``), the compiled-kernel cache directory, and the one-time
  "compiling the ... kernel" notice.
- A block without ``$ `` prompts is an illustration and is not run: installation commands,
  interactive sessions, benchmarks, command synopses. A ``$ `` prompt in any other kind of
  block is an error, so that no example that looks runnable silently goes untested.
"""

from __future__ import annotations

import difflib
import doctest
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gametree.compiled import cache_directory

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)
FENCE = re.compile(r"^```.*$", re.M)
FENCE_LINE = re.compile(r"^( *)```(.*)$")

PROMPT = "$ "
ELLIPSIS = "..."
TIMEOUT = 300  # seconds; the first run of a compiled game compiles its kernel
HEREDOC = re.compile(r"(?<!<)<<-?\s*(['\"]?)([A-Za-z_]\w*)\1")  # <<EOF, <<-'EOF'; not <<<
TIMES = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:e[-+]?\d+)? ?(?:s|ms|µs|us)\b")
SECONDS_FIELD = re.compile(r'("seconds": )-?\d+(?:\.\d+)?(?:e[-+]?\d+)?')
COMPILE_NOTICE = re.compile(r"^gametree: compiling .*$\n?", re.M)


COMPILES_KERNELS = {"kernels.md"}
"""Documents whose Python examples compile kernels of their own (a minute of CPU): outside the
core suite (``slow``)."""


@pytest.mark.parametrize("path", [
    pytest.param(path, marks=pytest.mark.slow) if path.name in COMPILES_KERNELS else path
    for path in DOCUMENTS], ids=lambda path: path.name)
def test_examples_run(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    namespace: dict[str, object] = {"__name__": f"docs_{path.stem}"}
    for block in PYTHON_BLOCK.findall(text):
        exec(compile(block, str(path), "exec"), namespace)
    parser = doctest.DocTestParser()
    # A closing fence would read as expected output: blank the fence lines out.
    examples = FENCE.sub("", text)
    test = parser.get_doctest(examples, namespace, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} example(s) in {path.name} failed"


# -- shell examples -------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A fenced block: its info string (``console``), first content line and lines."""

    path: Path
    info: str
    line: int
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ShellExample:
    """One ``$ `` command of a ```` ```console ```` block and the output the doc shows."""

    path: Path
    line: int
    command: str
    expected: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> Iterator[Block]:
    """The fenced blocks of a Markdown document; a block indented in a list item loses the
    indentation of its fence."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start: int | None = None
    info, indent = "", 0
    for number, line in enumerate(lines, 1):
        fence = FENCE_LINE.match(line)
        if fence is None:
            continue
        if start is None:
            start, info, indent = number, fence.group(2).strip(), len(fence.group(1))
        else:
            content = (text[indent:] if text.startswith(" " * indent) else text.lstrip()
                       for text in lines[start:number - 1])
            yield Block(path, info, start + 1, tuple(content))
            start = None


def shell_examples(block: Block) -> Iterator[ShellExample]:
    """The commands of a console block, each with the lines of output after it."""
    lines = block.lines
    index = 0
    while index < len(lines) and not lines[index].startswith(PROMPT):
        index += 1  # stray lines before the first command: see the convention test
    while index < len(lines):
        line = lines[index]
        first = block.line + index
        command = [line[len(PROMPT):]]
        index += 1
        while command[-1].endswith("\\") and index < len(lines):
            command.append(lines[index])
            index += 1
        for match in HEREDOC.finditer("\n".join(command)):
            terminator = match.group(2)
            while index < len(lines):
                command.append(lines[index])
                index += 1
                if command[-1].strip() == terminator:
                    break
        output_start = index
        while index < len(lines) and not lines[index].startswith(PROMPT):
            index += 1
        yield ShellExample(block.path, first, "\n".join(command),
                           tuple(lines[output_start:index]))


def is_shell(block: Block) -> bool:
    return any(line.startswith(PROMPT) for line in block.lines)


SHELL_EXAMPLES = [example for path in DOCUMENTS for block in blocks(path)
                  if block.info == "console" and is_shell(block)
                  for example in shell_examples(block)]


def normalise(text: str) -> list[str]:
    """The lines of an output with what varies between runs masked, trailing spaces and
    trailing blank lines removed."""
    text = COMPILE_NOTICE.sub("", text)
    text = text.replace(str(cache_directory()), "<cache>")
    text = SECONDS_FIELD.sub(r"\1<seconds>", text)
    text = TIMES.sub("<time>", text)
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with each ``...`` standing for any text: any lines
    when it is a line of its own, any characters of one line inside a line."""
    pattern = "".join(
        r"(?:.*\n)*?" if line.strip() == ELLIPSIS
        else ".*?".join(re.escape(part) for part in line.split(ELLIPSIS)) + r"\n"
        for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


@pytest.fixture(scope="session")
def shell_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of the examples: this interpreter as ``python`` and its scripts
    directory (where pip put the ``gametree`` command) first on PATH."""
    bin_dir = tmp_path_factory.mktemp("bin")
    python = bin_dir / "python"  # a script, not a symlink: a venv's python must stay in its venv
    python.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent),
                            os.environ.get("PATH", "")])
    # COLUMNS: argparse wraps --help text to it, so help output is the same everywhere.
    return {**os.environ, "PATH": path, "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"}


def check(example: ShellExample, env: dict[str, str]) -> str | None:
    """Run ``example``: ``None`` if it exits with status 0 and prints what the doc shows, else
    a message with the command, the exit status, a diff and the whole actual output."""
    result = subprocess.run(example.command, shell=True, cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, capture_output=True, encoding="utf-8",
                            timeout=TIMEOUT, check=False)
    expected, actual = normalise("\n".join(example.expected)), normalise(result.stdout)
    if result.returncode == 0 and matches(expected, actual):
        return None
    diff = "\n".join(difflib.unified_diff(expected, actual, "expected (the doc)", "actual",
                                          lineterm=""))
    return (f"{example.where}: the shell example does not print what the doc says\n"
            f"$ {example.command}\n"
            f"exit status {result.returncode} (0 expected)\n"
            f"--- diff (times masked; '...' in the doc matches any text) ---\n{diff}\n"
            f"--- actual standard output ---\n{result.stdout}"
            f"--- standard error ---\n{result.stderr}")


SHELL_DOCUMENTS = sorted({example.path for example in SHELL_EXAMPLES})
"""The documents with shell examples: each one's examples run in one test, in their order,
because later ones may read what earlier ones wrote (a database built in /tmp, then queried):
as tests of their own, two workers could run them at once."""


@pytest.mark.parametrize("document", SHELL_DOCUMENTS,
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_shell_examples(document: Path, shell_env: dict[str, str]) -> None:
    failures = [failure for example in SHELL_EXAMPLES if example.path == document
                if (failure := check(example, shell_env)) is not None]
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: path.name)
def test_shell_examples_follow_the_convention(path: Path) -> None:
    """``$ `` prompts appear only in console blocks, and there every block starts with one."""
    for block in blocks(path):
        if not is_shell(block):
            continue
        assert block.info == "console", (
            f"{path.name}:{block.line}: a block with `$ ` prompts is a runnable shell example "
            f"and must be fenced as ```console (it is ```{block.info})")
        assert block.lines[0].startswith(PROMPT), (
            f"{path.name}:{block.line}: a console block with commands starts with one")


def test_shell_examples_are_found() -> None:
    assert len(SHELL_EXAMPLES) >= 10
    assert {example.path.name for example in SHELL_EXAMPLES} >= {"README.md", "games.md"}


# -- the shell example runner itself ----------------------------------------------------------


def test_console_blocks_are_read_as_commands_and_outputs(shell_env: dict[str, str]) -> None:
    block = Block(ROOT / "README.md", "console", 10, (
        "$ echo one \\",
        "    two | tr a-z A-Z",
        "ONE TWO",
        "$ cat <<EOF",
        "took 0.25 s",
        "EOF",
        "took 1.5 s",
        "",
        "$ python -c 'import sys; print(sys.prefix)'",
        sys.prefix,
    ))
    examples = list(shell_examples(block))
    assert [(example.line, example.command, example.expected) for example in examples] == [
        (10, "echo one \\\n    two | tr a-z A-Z", ("ONE TWO",)),
        (13, "cat <<EOF\ntook 0.25 s\nEOF", ("took 1.5 s", "")),
        (18, "python -c 'import sys; print(sys.prefix)'", (sys.prefix,)),
    ]
    assert [check(example, shell_env) for example in examples] == [None, None, None]


def test_a_failing_example_shows_the_command_its_status_and_a_diff(
        shell_env: dict[str, str]) -> None:
    message = check(ShellExample(ROOT / "README.md", 7, "echo b; exit 3", ("a",)), shell_env)
    assert message is not None
    assert message.startswith("README.md:7: ")
    assert "\n$ echo b; exit 3\nexit status 3" in message
    assert "\n-a\n+b\n" in message


@pytest.mark.parametrize(("expected", "actual", "result"), [
    (["a ... c"], ["a b c"], True),
    (["a ... c"], ["a b", "c"], False),
    (["a", "...", "d"], ["a", "b", "c", "d"], True),
    (["a", "...", "d"], ["a", "d"], True),
    (["a", "...", "d"], ["a", "b"], False),
    (["a", "b"], ["a", "b", "c"], False),
    (["a(1) [x]"], ["a(1) [x]"], True),
])
def test_matches(expected: list[str], actual: list[str], result: bool) -> None:
    assert matches(expected, actual) is result


def test_normalise_masks_times_and_the_compile_notice() -> None:
    assert normalise('done, 0.0182 s (1.9 ms, 147 µs) {"seconds": 4.1e-05}  \n\n') == [
        'done, <time> (<time>, <time>) {"seconds": <seconds>}']
    assert normalise(f"gametree: compiling the Nim kernel (once; cached in "
                     f"{cache_directory()})...\nok\n") == ["ok"]
    assert normalise("16 nodes, 3 cut-offs, 2 sticks") == ["16 nodes, 3 cut-offs, 2 sticks"]
