"""Chess as a gametree game, on `python-chess <https://python-chess.readthedocs.io>`_.

python-chess gives the rules (move generation, FEN, SAN, the ends of a game); this module
gives what a search needs besides: an evaluation, a move order, a table key and the moves
worth searching at the horizon. It needs the optional extra ``gametree[chess]`` (``pip
install chess``); without it the game is still listed, and building it says what to install::

    gametree solve chess --fen "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1" --depth 3

* **Players**: White is player 0, Black player 1, whoever moves first in a FEN.
* **States** are :class:`ChessState`: a ``chess.Board`` that is never changed once made, the
  state before it (the history that repetitions are counted in) and the evaluation's running
  sums. :func:`chess_state` makes one from a board.
* **Moves** are ``chess.Move`` values. They are written in SAN (``Nf3``, ``exd5``, ``O-O``,
  ``e8=Q+``), and read in SAN or UCI (``g1f3``, ``e7e8q``); a ``--moves`` line may carry PGN's
  move numbers (``1. e4 e5 2. Nf3``), which are skipped.
* **Outcomes** are python-chess's (``Board.outcome``): checkmate (+1 if White mates, -1 if
  Black does), and the draws that end a game without a claim (0): stalemate, insufficient
  material, the 75-move rule, and fivefold repetition, counted along the states' history
  (:func:`repetitions`). The claimable draws (threefold repetition, 50 moves) do not end it.
* **Evaluation** (:meth:`ChessGame.evaluate`): material and piece-square tables for the middle
  game and the end game, blended by the material left on the board (a *tapered* evaluation,
  in centipawns, White's view). The tables are this module's own, written as simple rules
  (:func:`piece_square_tables`); the sums are kept up to date move by move.
* **Move order** (:meth:`ChessGame.order_moves`, the engine's hint): captures of the most
  valuable victim by the least valuable attacker, promotions and checks first, then the
  other moves in python-chess's order. :meth:`ChessGame.noisy_moves` gives the captures and
  queen promotions that the engine's quiescence search plays at the horizon.
* **Key** (:meth:`ChessGame.key`): python-chess's Zobrist hash (``chess.polyglot``, the
  Polyglot book's keys) with how many times the position has been on the board before, so
  that a position met again is a position of its own for the transposition table (fivefold
  repetition makes them differ).

Chess has no compiled form: python-chess's move generation is Python code, which a numba
kernel cannot call, so the compiled tier refuses chess with that reason and ``--tier auto``
searches it on the Python tier.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..game import Game, IllegalMoveError
from ..registry import GameOption, GameSpec, Transcript
from ..result import SearchResult
from ..values import Value
from ..view import Grid, Mark, MoveSpot, View

if TYPE_CHECKING:
    import chess as pychess

    from ..compiled.form import CompiledForm

EXTRA = "gametree[chess]"
"""The optional extra that installs python-chess."""

MISSING = (f"the chess game needs python-chess, which is not installed: "
           f'pip install "{EXTRA}" (or pip install chess)')
"""The message when python-chess cannot be imported."""

NO_KERNEL = ("chess has no compiled form: its rules are python-chess's Python code, which a "
             "numba kernel cannot call (chess searches on the Python tier)")
"""Why the compiled tier cannot search chess."""

SEARCH_TIME = 10.0
"""Seconds a search of chess gets when it is given no depth, time or node budget: a search to
the end of the game would never end."""

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
"""python-chess's piece types (``chess.PAWN`` .. ``chess.KING``), written out so that this
module can be imported without python-chess."""

MIDDLE_GAME_VALUES = (0, 100, 320, 330, 500, 900, 0)
"""Material in the middle game by piece type, in centipawns (index 0 unused; the king has none)."""

END_GAME_VALUES = (0, 120, 300, 320, 520, 920, 0)
"""Material in the end game: pawns are worth more, minor pieces less."""

PHASE_WEIGHTS = (0, 0, 1, 1, 2, 4, 0)
"""How much each piece type counts towards the middle game."""

FULL_PHASE = 24
"""The phase of the starting position (4 minor pieces, 4 rooks x 2, 2 queens x 4): all middle
game. Phase 0 (kings and pawns) is all end game."""

GLYPHS = dict(zip("KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟", strict=True))
"""The pieces' glyphs by python-chess's symbols (White's in capitals)."""

ORDER_VALUES = (0, 1, 3, 3, 5, 9, 10)
"""Piece values for move ordering (most valuable victim, least valuable attacker)."""

CAPTURE_SCORE = 100
"""Move order: the base of a capture's score (plus ``10 x victim - attacker``)."""

PROMOTION_SCORE = 90
"""Move order: added for a promotion to a queen."""

CHECK_SCORE = 60
"""Move order: added for a move that gives check (above quiet moves and losing captures of a
pawn by a queen, below the other captures)."""


def _centre_distance(square: int) -> int:
    """0 for the four centre squares, 1 for the ring around them, .. 3 for the edge."""
    file, rank = square & 7, square >> 3
    return max(abs(2 * file - 7), abs(2 * rank - 7)) // 2


def piece_square_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The middle-game and end-game piece-square tables, White's view: ``table[piece][square]``
    in centipawns, squares numbered as python-chess does (``a1`` = 0, ``h8`` = 63).

    Written as rules rather than copied numbers: pawns gain as they advance (more in the end
    game) and in the centre; knights, bishops and queens gain in the centre; rooks on the
    seventh rank; the king stays home behind its pawns in the middle game and comes to the
    centre in the end game."""
    middle: list[tuple[int, ...]] = [(0,) * 64]
    end: list[tuple[int, ...]] = [(0,) * 64]
    squares = range(64)
    ranks = [square >> 3 for square in squares]
    files = [square & 7 for square in squares]
    centre = [_centre_distance(square) for square in squares]
    pawn_middle = []
    pawn_end = []
    for square in squares:
        rank, file = ranks[square], files[square]
        if rank in (0, 7):
            pawn_middle.append(0)
            pawn_end.append(0)
            continue
        central = 20 if file in (3, 4) and rank >= 3 else 10 if file in (2, 5) and rank >= 2 \
            else 0
        home = -15 if file in (3, 4) and rank == 1 else 0  # an unmoved centre pawn
        pawn_middle.append(6 * (rank - 1) + central + home)
        pawn_end.append(14 * (rank - 1))
    middle.append(tuple(pawn_middle))
    end.append(tuple(pawn_end))
    for middle_steps, end_steps in (((25, 12, -5, -30), (20, 10, -5, -25)),   # knight
                                    ((12, 10, 4, -8), (10, 6, 0, -10))):      # bishop
        middle.append(tuple(middle_steps[centre[square]] for square in squares))
        end.append(tuple(end_steps[centre[square]] for square in squares))
    middle.append(tuple((20 if ranks[square] == 6 else 0)
                        + (8 if ranks[square] == 0 and files[square] in (3, 4) else 0)
                        for square in squares))                               # rook
    end.append(tuple(12 if ranks[square] == 6 else 0 for square in squares))
    middle.append(tuple((6, 4, 0, -6)[centre[square]] for square in squares))   # queen
    end.append(tuple((12, 8, 0, -12)[centre[square]] for square in squares))
    king_home = (20, 30, 10, 0, 0, 10, 30, 20)
    middle.append(tuple(king_home[files[square]] if ranks[square] == 0
                        else -10 if ranks[square] == 1 else -25 - 10 * ranks[square]
                        for square in squares))                               # king
    end.append(tuple((30, 15, -5, -30)[centre[square]] for square in squares))
    return tuple(middle), tuple(end)


def _signed_tables() -> tuple[tuple[tuple[tuple[int, ...], ...], ...],
                              tuple[tuple[tuple[int, ...], ...], ...]]:
    """``table[colour][piece][square]``: material plus the piece-square table, positive for
    White (colour ``True``, index 1) and negative for Black (index 0, mirrored)."""
    middle, end = piece_square_tables()
    results = []
    for tables, values in ((middle, MIDDLE_GAME_VALUES), (end, END_GAME_VALUES)):
        white = tuple(tuple(values[piece] + tables[piece][square] for square in range(64))
                      for piece in range(7))
        black = tuple(tuple(-(values[piece] + tables[piece][square ^ 56])
                            for square in range(64)) for piece in range(7))
        results.append((black, white))
    return results[0], results[1]


MIDDLE, END = _signed_tables()
"""The evaluation's terms by ``[colour][piece][square]`` (colour ``False``/0 Black,
``True``/1 White), White's view: material plus position."""


def chess_module() -> Any:
    """The ``chess`` module (python-chess); :class:`ValueError` naming the extra if missing."""
    try:
        import chess  # noqa: PLC0415 - optional: only the chess game needs it
        import chess.polyglot  # noqa: PLC0415
    except ImportError:
        raise ValueError(MISSING) from None
    return chess


def board_terms(board: pychess.Board) -> tuple[int, int, int]:
    """``(middle game, end game, phase)`` of ``board`` counted from scratch: the sums the
    evaluation keeps move by move (:meth:`ChessGame.play`); tests check that both agree."""
    middle = end = phase = 0
    for square, piece in board.piece_map().items():
        kind, colour = piece.piece_type, piece.color
        middle += MIDDLE[colour][kind][square]
        end += END[colour][kind][square]
        phase += PHASE_WEIGHTS[kind]
    return middle, end, phase


def tapered(middle: int, end: int, phase: int) -> int:
    """The evaluation from its sums: middle and end game blended by ``phase`` (0..24)."""
    weight = phase if phase < FULL_PHASE else FULL_PHASE
    return (middle * weight + end * (FULL_PHASE - weight)) // FULL_PHASE


class ChessState:
    """A chess position as the search holds it: a ``chess.Board`` that nobody changes once
    the state is made, the state it was reached from (for repetitions and the game's moves),
    and the evaluation's sums. Hashable; two states are equal when their positions, their
    repetition counts and their half-move clocks are."""

    __slots__ = ("_key", "_moves", "_outcome", "_repeats", "board", "end", "middle", "move",
                 "parent", "phase")

    def __init__(self, board: pychess.Board, parent: ChessState | None = None,
                 move: pychess.Move | None = None,
                 terms: tuple[int, int, int] | None = None) -> None:
        """Wrap ``board`` (never change it afterwards), reached by ``move`` from ``parent``
        (``None`` for a starting position); ``terms``: its evaluation sums
        (:func:`board_terms`, counted when not given)."""
        self.board = board
        """The position (a ``chess.Board`` with at most its last move on its stack)."""
        self.parent = parent
        """The state before :attr:`move`, or ``None`` where the game was set up."""
        self.move = move
        """The move that led here from :attr:`parent`."""
        middle, end, phase = board_terms(board) if terms is None else terms
        self.middle = middle
        """The middle-game sum of material and position, White's view."""
        self.end = end
        """The end-game sum."""
        self.phase = phase
        """How much of the middle game is left: 24 at the start, 0 with only kings and pawns."""
        self._moves: list[pychess.Move] | None = None
        self._outcome: Value | bool | None = False  # False: not worked out yet
        self._key: int | None = None
        self._repeats: int | None = None

    @property
    def fen(self) -> str:
        """The position in FEN."""
        return self.board.fen()

    def line(self) -> list[pychess.Move]:
        """The moves played from the position the game was set up in to this one."""
        moves = []
        state: ChessState | None = self
        while state is not None and state.move is not None:
            moves.append(state.move)
            state = state.parent
        moves.reverse()
        return moves

    def start(self) -> ChessState:
        """The state the game was set up in (the first of :meth:`line`'s positions)."""
        state = self
        while state.parent is not None:
            state = state.parent
        return state

    def __copy__(self) -> ChessState:
        return ChessState(self.board.copy(stack=False), self.parent, self.move,
                          (self.middle, self.end, self.phase))

    def __deepcopy__(self, memo: dict[int, Any]) -> ChessState:
        # The states before it are values nobody changes: a copy shares them (copying them
        # too would copy the whole game at every position).
        return self.__copy__()

    def __reduce__(self) -> tuple[Any, tuple[str, tuple[str, ...]]]:
        # Pickled as a position and the moves since the last capture or pawn move (those
        # that repetitions are counted in), not as the whole chain of states before it.
        moves: list[str] = []
        state = self
        while state.parent is not None and state.move is not None and \
                len(moves) < self.board.halfmove_clock:
            moves.append(state.move.uci())
            state = state.parent
        return restored, (state.board.fen(), tuple(reversed(moves)))

    def _identity(self) -> tuple[int, int]:
        return state_key(self), self.board.halfmove_clock

    def __hash__(self) -> int:
        return hash(self._identity())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChessState) and self._identity() == other._identity()

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r})"


def repetitions(state: ChessState) -> int:
    """How many times ``state``'s position was on the board before, in the states it was
    reached through (since the last capture or pawn move: no position repeats across one).
    Positions are the same as python-chess compares them: pieces, side to move, castling
    rights and en-passant square."""
    repeats = state._repeats
    if repeats is not None:
        return repeats
    board = state.board
    occupied = board.occupied
    repeats = 0
    back = board.halfmove_clock
    earlier = state.parent
    step = 1
    while earlier is not None and step <= back:
        if step % 2 == 0:
            other = earlier.board
            if other.occupied == occupied and other.pawns == board.pawns and \
                    other.knights == board.knights and other.bishops == board.bishops and \
                    other.rooks == board.rooks and other.queens == board.queens and \
                    other.kings == board.kings and \
                    other.occupied_co[True] == board.occupied_co[True] and \
                    other.castling_rights == board.castling_rights and \
                    other.ep_square == board.ep_square:
                repeats += 1
        earlier = earlier.parent
        step += 1
    state._repeats = repeats
    return repeats


def restored(fen: str, moves: Sequence[str]) -> ChessState:
    """The state after ``moves`` (UCI) from the position ``fen``: how a pickled
    :class:`ChessState` is read back."""
    chess = chess_module()
    state = chess_state(chess.Board(fen))
    for text in moves:
        state = advance(state, chess.Move.from_uci(text))
    return state


def state_key(state: ChessState) -> int:
    """:meth:`ChessGame.key` of ``state``, worked out once."""
    key = state._key
    if key is None:
        key = chess_module().polyglot.zobrist_hash(state.board) | repetitions(state) << 64
        state._key = key
    return key


FIVEFOLD = 4
"""A position on the board for the fifth time (seen four times before) ends the game drawn."""


def advance(state: ChessState, move: pychess.Move) -> ChessState:
    """The state after ``move`` (legal in ``state``), its evaluation sums updated from
    ``state``'s (:meth:`ChessGame.play`)."""
    board = state.board
    start, target = move.from_square, move.to_square
    piece = board.piece_type_at(start)
    colour = board.turn
    mine, theirs = MIDDLE[colour], MIDDLE[not colour]
    mine_end, theirs_end = END[colour], END[not colour]
    middle, end, phase = state.middle, state.end, state.phase
    middle -= mine[piece][start]  # type: ignore[index]
    end -= mine_end[piece][start]  # type: ignore[index]
    placed = move.promotion or piece
    middle += mine[placed][target]  # type: ignore[index]
    end += mine_end[placed][target]  # type: ignore[index]
    if move.promotion:
        phase += PHASE_WEIGHTS[move.promotion]
    captured = board.piece_type_at(target)
    if captured:
        middle -= theirs[captured][target]
        end -= theirs_end[captured][target]
        phase -= PHASE_WEIGHTS[captured]
    elif piece == PAWN and target == board.ep_square:
        taken = target - 8 if colour else target + 8
        middle -= theirs[PAWN][taken]
        end -= theirs_end[PAWN][taken]
    elif piece == KING and (target - start == 2 or start - target == 2):
        rook_from, rook_to = (start + 3, start + 1) if target > start else \
            (start - 4, start - 1)
        middle += mine[ROOK][rook_to] - mine[ROOK][rook_from]
        end += mine_end[ROOK][rook_to] - mine_end[ROOK][rook_from]
    child = board.copy(stack=False)
    child.push(move)
    return ChessState(child, state, move, (middle, end, phase))


def state_outcome(state: ChessState) -> Value | None:
    """``None`` while the game goes on; +1 if White has mated, -1 if Black has, 0 for a draw
    that needs no claim (stalemate, insufficient material, the 75-move rule, fivefold
    repetition); worked out once (:meth:`ChessGame.outcome`)."""
    known = state._outcome
    if known is not False:
        return known
    ended = state.board.outcome()  # its stack is one move: no repetition shows there
    if ended is not None:
        value: Value | None = 0 if ended.winner is None else 1 if ended.winner else -1
    elif state.board.halfmove_clock >= 2 * FIVEFOLD and repetitions(state) >= FIVEFOLD:
        value = 0
    else:
        value = None
    state._outcome = value
    return value


def chess_state(board: pychess.Board) -> ChessState:
    """A state for ``board`` (a copy of its position; the moves on its stack are not kept)."""
    return ChessState(board.copy(stack=False))


class ChessGame(Game[ChessState, "pychess.Move"]):
    """Chess, by python-chess's rules, from the starting position or a FEN."""

    name = "chess"
    player_names = ("White", "Black")
    search_time = SEARCH_TIME

    def __init__(self, fen: str | None = None) -> None:
        """``fen``: the position to start from (default: the standard starting position).

        Raises :class:`ValueError` saying why for a FEN python-chess cannot read or a position
        that cannot occur (no king, pawns on the first rank, the side not to move in check),
        and naming the extra when python-chess is missing."""
        chess = chess_module()
        self._chess = chess
        board = chess.Board() if fen is None else read_fen(fen)
        self._start = chess_state(board)
        self.fen = board.fen()
        """The starting position in FEN."""
        self._zobrist = chess.polyglot.zobrist_hash

    # -- the contract ------------------------------------------------------------------------

    def initial_state(self) -> ChessState:
        """The starting position (the FEN given, else the standard one)."""
        return self._start

    def to_move(self, state: ChessState) -> int:
        """0 when White is to move, 1 for Black."""
        return 0 if state.board.turn else 1

    def moves(self, state: ChessState) -> list[pychess.Move]:
        """The legal moves in python-chess's order; none once the game is over."""
        moves = state._moves
        if moves is None:
            moves = [] if state_outcome(state) is not None else list(state.board.legal_moves)
            state._moves = moves
        return moves

    def play(self, state: ChessState, move: pychess.Move) -> ChessState:
        """The position after ``move`` (:func:`advance`)."""
        return advance(state, move)

    def outcome(self, state: ChessState) -> Value | None:
        """``None`` while the game goes on; +1 if White has mated, -1 if Black has, 0 for a
        draw that needs no claim (:func:`state_outcome`)."""
        return state_outcome(state)

    def evaluate(self, state: ChessState) -> Value:
        """Material and piece-square tables, tapered between middle and end game, in
        centipawns from White's side (:func:`tapered`)."""
        return tapered(state.middle, state.end, state.phase)

    def key(self, state: ChessState) -> int:
        """python-chess's Zobrist hash of the position (``chess.polyglot.zobrist_hash``), with
        how many times it was on the board before in bits 64 and up (:func:`repetitions`)."""
        key = state._key
        if key is None:
            key = self._zobrist(state.board) | repetitions(state) << 64
            state._key = key
        return key

    def order_moves(self, state: ChessState,
                    moves: Sequence[pychess.Move]) -> Sequence[pychess.Move]:
        """Captures (most valuable victim first, then least valuable attacker), promotions to
        a queen and checks first, by a score (:func:`move_scores`); the other moves keep
        python-chess's order."""
        scores = move_scores(self._chess, state.board, moves)
        if not any(scores):
            return moves
        order = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
        return [moves[index] for index in order]

    def noisy_moves(self, state: ChessState) -> Sequence[pychess.Move]:
        """The moves the quiescence search plays at the horizon: captures and promotions to a
        queen, most valuable victim first."""
        if state_outcome(state) is not None:
            return ()
        chess = self._chess
        board = state.board
        moves = list(board.generate_legal_captures())
        pawns = board.pawns & board.occupied_co[board.turn] & \
            (chess.BB_RANK_7 if board.turn else chess.BB_RANK_2)
        if pawns:
            moves += [move for move in board.generate_legal_moves(from_mask=pawns,
                                                                  to_mask=~board.occupied)
                      if move.promotion == QUEEN]
        if len(moves) > 1:
            scores = [_capture_score(board, move) for move in moves]
            order = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
            moves = [moves[index] for index in order]
        return moves

    # -- moves as text -----------------------------------------------------------------------

    def format_move(self, state: ChessState, move: pychess.Move) -> str:
        """``move`` in SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q#``)."""
        return state.board.san(move)

    def parse_move(self, state: ChessState, text: str) -> pychess.Move:
        """The legal move that ``text`` names in SAN (``Nf3``, ``O-O`` or ``0-0``) or UCI
        (``g1f3``, ``e7e8q``)."""
        chess = self._chess
        board = state.board
        wanted = text.strip()
        if state_outcome(state) is not None:
            raise IllegalMoveError("the game is over: there is no move to play")
        if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", wanted):
            move = chess.Move.from_uci(wanted)
            if move in self.moves(state):
                return move  # type: ignore[no-any-return]
            raise IllegalMoveError(f"{wanted} is not a legal move here; legal moves: "
                                   f"{self._choices(state)}")
        try:
            return board.parse_san(wanted)
        except ValueError:
            raise IllegalMoveError(f"{wanted!r} is not a legal move (in SAN or UCI) here; "
                                   f"legal moves: {self._choices(state)}") from None

    def _choices(self, state: ChessState) -> str:
        return ", ".join(self.format_move(state, move) for move in self.moves(state))

    def format_line(self, state: ChessState, moves: Iterable[pychess.Move]) -> list[str]:
        """The SAN of ``moves`` played one after another from ``state``."""
        board = state.board.copy(stack=False)
        texts = []
        for move in moves:
            texts.append(board.san(move))
            board.push(move)
        return texts

    def render(self, state: ChessState) -> str:
        """The board, White at the bottom, pieces as letters (White's in capitals), ranks and
        files labelled, then the FEN."""
        board = state.board
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = board.piece_at(rank * 8 + file)
                cells.append("." if piece is None else piece.symbol())
            rows.append(f"{rank + 1} {' '.join(cells)}")
        rows.append("  a b c d e f g h")
        rows.append(board.fen())
        return "\n".join(rows)

    def view(self, state: ChessState, last: pychess.Move | None = None) -> View:
        """The board as a grid of piece glyphs (``♔`` .. ``♟``), rank 8 at the top, ranks and
        files labelled, turned for Black (``flippable``); the FEN as its caption; the legal
        moves in SAN as a list; the last move's squares marked."""
        board = state.board

        def glyph(square: int) -> str:
            piece = board.piece_at(square)
            return "" if piece is None else GLYPHS[piece.symbol()]

        cells = tuple(tuple(glyph(rank * 8 + file) for file in range(8))
                      for rank in range(7, -1, -1))
        moves = () if state_outcome(state) is not None else tuple(
            MoveSpot(text, label=f"play {text}")
            for text in (self.format_move(state, move) for move in self.moves(state)))
        marks = () if last is None else tuple(
            Mark((7 - (square >> 3), square & 7), "last")
            for square in (last.from_square, last.to_square))
        return View(kind="grid", text=self.render(state), moves=moves, marks=marks,
                    caption=board.fen(), flippable=True,
                    grid=Grid(cells, pieces=(GLYPHS["K"], GLYPHS["k"]),
                              row_labels=tuple(str(rank) for rank in range(8, 0, -1)),
                              column_labels=tuple("abcdefgh"), column_labels_below=True))

    def compiled_form(self) -> CompiledForm[ChessState, pychess.Move] | None:
        """Chess has none: the compiled tier refuses it with :data:`NO_KERNEL`."""
        from ..compiled.kernel import KernelError  # noqa: PLC0415 - only when asked

        raise KernelError(NO_KERNEL)


def _capture_score(board: pychess.Board, move: pychess.Move) -> int:
    """A capture's or promotion's order, as :func:`move_scores` gives it without checks."""
    victim = board.piece_type_at(move.to_square) or (PAWN if board.is_en_passant(move) else 0)
    attacker = board.piece_type_at(move.from_square) or 0
    score = CAPTURE_SCORE + 10 * ORDER_VALUES[victim] - ORDER_VALUES[attacker] if victim else 0
    if move.promotion == QUEEN:
        score += PROMOTION_SCORE
    return score


def move_scores(chess: Any, board: pychess.Board, moves: Sequence[pychess.Move]) -> list[int]:
    """The move-ordering score of each of ``moves`` (legal on ``board``): captures
    :data:`CAPTURE_SCORE` plus ``10 x victim - attacker``, promotions to a queen
    :data:`PROMOTION_SCORE` more, checks :data:`CHECK_SCORE` more, other moves 0.

    Checks are found cheaply: a move can only give check if its piece attacks the king from
    its target square (found from the squares that attack the king, worked out once), or if
    it leaves the only square between the king and a rook, bishop or queen of the mover's (a
    discovered check), or castles, promotes or takes en passant; only the last three are
    asked of python-chess (``Board.gives_check``), and a move leaving such a square only if
    it stays on the line."""
    piece_type_at = board.piece_type_at
    king = board.king(not board.turn)
    occupied = board.occupied
    checking: list[int] = [0] * 7
    lines = 0
    if king is not None:
        diagonal = chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & occupied]
        straight = (chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & occupied]
                    | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & occupied])
        checking = [0, chess.BB_PAWN_ATTACKS[not board.turn][king],
                    chess.BB_KNIGHT_ATTACKS[king], diagonal, straight, diagonal | straight, 0]
        ours = board.occupied_co[board.turn]
        snipers = ours & (
            (chess.BB_RANK_ATTACKS[king][0] | chess.BB_FILE_ATTACKS[king][0])
            & (board.rooks | board.queens)
            | chess.BB_DIAG_ATTACKS[king][0] & (board.bishops | board.queens))
        between_of = chess.between
        for sniper in chess.scan_reversed(snipers):
            between = between_of(king, sniper) & occupied
            if between and not between & (between - 1) and between & ours:
                lines |= between  # the one piece between: moving it off the line checks
    gives_check = board.gives_check
    rays = chess.BB_RAYS[king] if king is not None else ()
    ep_square = board.ep_square
    scores = []
    for move in moves:
        start, target = move.from_square, move.to_square
        piece = piece_type_at(start) or 0
        victim = piece_type_at(target)
        promotion = move.promotion
        score = 0
        special = promotion is not None or (piece == KING and abs(target - start) == 2)
        if victim:
            score = CAPTURE_SCORE + 10 * ORDER_VALUES[victim] - ORDER_VALUES[piece]
        elif piece == PAWN and target == ep_square:
            score = CAPTURE_SCORE + 10 * ORDER_VALUES[PAWN] - ORDER_VALUES[PAWN]
            special = True
        if promotion == QUEEN:
            score += PROMOTION_SCORE
        if king is not None and (checking[promotion or piece] >> target & 1 or (
                lines >> start & 1 and not rays[start] >> target & 1) or (
                special and gives_check(move))):
            score += CHECK_SCORE
        scores.append(score)
    return scores


def pgn_text(state: ChessState, headers: dict[str, str] | None = None) -> str:
    """The game that led to ``state`` in PGN: the moves played from the position the game was
    set up in (its FEN in the ``FEN`` and ``SetUp`` headers when it is not the standard
    start), the result once the game is over, and ``headers`` (``{"White": "gametree"}``)."""
    chess_module()  # the one-line error when python-chess is missing
    import chess.pgn  # noqa: PLC0415 - optional, as the rest of python-chess here

    board = chess.Board(state.start().fen)
    for move in state.line():
        board.push(move)
    game = chess.pgn.Game.from_board(board)
    outcome = state_outcome(state)
    game.headers["Result"] = "*" if outcome is None else "1-0" if outcome > 0 else \
        "0-1" if outcome < 0 else "1/2-1/2"
    for name, value in (headers or {}).items():
        game.headers[name] = value
    return str(game)


_UNKNOWN = "?"
"""PGN's value of a header nobody knows."""


def pgn_from_record(record: Mapping[str, Any]) -> str:
    """A game record (its JSON object, docs/records.md) in PGN: the Seven Tag Roster with
    ``Event`` ``gametree game``, the record's players as ``White`` and ``Black``, its date as
    ``Date`` (and ``UTCDate`` and ``UTCTime``), the result the moves reach, and the start's
    FEN in ``FEN`` and ``SetUp`` when it is not the standard one (:func:`pgn_text`). Raises
    :class:`ValueError` for a FEN or a move that the record's game cannot play."""
    options = record.get("options") or {}
    game = ChessGame(options.get("fen"))
    state = game.initial_state()
    for text in record.get("moves", ()):
        state = game.play(state, game.parse_move(state, text))
    white, black = record.get("players") or (_UNKNOWN, _UNKNOWN)
    date = str(record.get("date") or "")
    headers = {"Event": "gametree game", "White": white, "Black": black}
    if re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", date):
        day = date[:10].replace("-", ".")
        headers.update(Date=day, UTCDate=day, UTCTime=date[11:19])
    return pgn_text(state, headers) + "\n"


def pgn_record(text: str) -> dict[str, Any]:
    """The first game of a PGN text as a record's ``options`` (``fen`` from its ``FEN``
    header), ``players`` (``White`` and ``Black``; an unknown one by its colour), ``moves``
    (SAN) and ``date`` (``UTCDate`` and ``UTCTime``, else ``Date``; ``None`` when unknown).
    Raises :class:`ValueError` in one line for a text that holds no game, a FEN python-chess
    cannot read, or a move that is not legal, naming it by its number (``move 3. Qxf7``)."""
    chess_module()  # the one-line error when python-chess is missing
    import io  # noqa: PLC0415 - only for reading a PGN

    import chess.pgn  # noqa: PLC0415 - optional, as the rest of python-chess here

    class Strict(chess.pgn.GameBuilder[chess.pgn.Game]):
        """python-chess's game builder, stopping at the first error (it logs and skips)."""

        def handle_error(self, error: Exception) -> None:
            try:
                board = self.variation_stack[-1].board()
            except ValueError:  # the FEN header itself is at fault
                board = None
            raise _PgnError(error, board) from None

    try:
        game = chess.pgn.read_game(io.StringIO(text), Visitor=Strict)
    except _PgnError as fault:
        raise ValueError(fault.words()) from None
    if game is None or (not text.lstrip().startswith("[") and game.end().ply() == 0):
        raise ValueError("not a PGN game: no tag pairs and no moves in it")
    headers = game.headers
    start = game.board()
    if type(start) is not chess.Board or start.chess960:  # a variant python-chess also reads
        raise ValueError(f"a game of {headers.get('Variant', 'a chess variant')}: gametree's "
                         f"chess plays standard chess only")
    fen = headers.get("FEN")
    options = {} if fen is None else {"fen": game.board().fen()}
    if fen is not None:
        read_fen(fen)  # a position that cannot occur is refused, as --fen refuses it
    board = game.board()
    moves = []
    for move in game.mainline_moves():
        moves.append(board.san(move))
        board.push(move)
    players = [name if (name := headers.get(colour, _UNKNOWN)) not in ("", _UNKNOWN)
               else colour for colour in ("White", "Black")]
    return {"options": options, "players": players, "moves": moves,
            "date": _pgn_date(headers.get("UTCDate") or headers.get("Date", ""),
                              headers.get("UTCTime", ""))}


class _PgnError(Exception):
    """An error python-chess met reading a PGN, with the board where it met it."""

    def __init__(self, error: Exception, board: pychess.Board | None) -> None:
        super().__init__(str(error))
        self.error = error
        self.board = board

    def words(self) -> str:
        """The error in one line, naming the move by its number."""
        message = str(self.error).split(" while parsing ")[0]
        named = re.match(r"(illegal|invalid|ambiguous) san: '([^']*)'", message)
        if named is None or self.board is None:
            return f"not a PGN game python-chess can read: {message}"
        number = f"{self.board.fullmove_number}{'.' if self.board.turn else '...'}"
        return (f"move {number} {named.group(2)} cannot be played ({named.group(1)} SAN) in "
                f"{self.board.fen()}")


def _pgn_date(day: str, time: str) -> str | None:
    """A record's ``date`` from PGN's ``2026.11.27`` and ``12:15:48`` (``None`` if unknown)."""
    if not re.fullmatch(r"\d{4}\.\d\d\.\d\d", day):
        return None
    clock = time if re.fullmatch(r"\d\d:\d\d:\d\d", time) else "00:00:00"
    return f"{day.replace('.', '-')}T{clock}Z"


PGN = Transcript("PGN", ".pgn", pgn_from_record, pgn_record)
"""Chess's records in PGN (``gametree play chess --save game.pgn``)."""


def read_fen(fen: str) -> pychess.Board:
    """The board a FEN describes; :class:`ValueError` saying why for text python-chess cannot
    read or a position that cannot occur in a game."""
    chess = chess_module()
    try:
        board = chess.Board(fen.strip())
    except ValueError as error:
        raise ValueError(f"cannot read the FEN {fen.strip()!r}: {error}") from None
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = [flag.name.lower().replace("_", " ") for flag in chess.Status
                    if flag and flag in status and flag.name is not None]
        raise ValueError(f"the FEN {fen.strip()!r} is not a position of a game: "
                         f"{', '.join(problems)}")
    return board  # type: ignore[no-any-return]


_MOVE_NUMBER = re.compile(r"^\d+\.+")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})


def split_moves(text: str) -> list[str]:
    """A ``--moves`` text as the texts of single moves: split on spaces and semicolons, PGN's
    move numbers (``1.``, ``12...``, also glued on: ``1.e4``) and a result (``1-0``) left out."""
    words = []
    for word in text.replace(";", " ").split():
        bare = _MOVE_NUMBER.sub("", word)
        if bare and bare not in _RESULTS:
            words.append(bare)
    return words


def mate_json(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The JSON field chess adds beside ``value``: ``mate``, the proven win or loss in moves
    signed as UCI's ``score mate N`` (:attr:`SearchResult.mate`: 3 = the side to move mates
    in 3, -2 = it is mated in 2), ``null`` when none is proven."""
    return {"mate": result.mate}


def build(fen: str | None = None) -> ChessGame:
    """The ``chess`` game from its command-line options."""
    return ChessGame(fen)


SPEC = GameSpec(
    name="chess",
    summary="chess by python-chess's rules, from the start or a FEN (needs gametree[chess])",
    notation="SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q); moves are written in SAN",
    build=build,
    options=(
        GameOption("fen", "start from this position (FEN) instead of the standard one",
                   str, None, metavar="FEN"),
    ),
    split_moves=split_moves,
    extra_json=mate_json,
    transcript=PGN,
)
