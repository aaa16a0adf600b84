"""The board model: what a picture of the game at one line shows, as plain values.

`build_board` reads the walk's state after a line (never re-checking anything), the line
and its diagnostics, and the facts the lines add (targets, lands and creatures, see
facts.py). Renderers draw only this model, and `board_json` is what the server's
`mtgr/board` request answers with.

A new part of the game state reaches every picture through one place: an object's
badges come from `_marks` (attachments, face-down, designations add a line there), a
player's from `_player_marks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from mtgr.check import Diagnostic
from mtgr.render.facts import CREATURE, LAND, RecordFacts, Reference
from mtgr.rules.state import STEP_ORDER, GameObject, GameState, ObjectKind, PlayerState, Stage
from mtgr.rules.summary import speed_words

# the battlefield rows, as players lay out their permanents
ROWS = ("lands", "creatures", "other permanents")


@dataclass(frozen=True, slots=True)
class CardView:
    number: int
    name: str | None  # None: hidden, drawn as a card back
    kind: str  # card, token, copy, ability
    tapped: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    marks: tuple[str, ...] = ()  # badges: token, attacking, controlled by Bob, ...
    targets: tuple[str, ...] = ()  # for objects on the stack

    @property
    def hidden(self) -> bool:
        return self.name is None

    def label(self) -> str:
        return self.name if self.name is not None else "hidden card"


@dataclass(frozen=True, slots=True)
class LibraryView:
    size: int | None  # None: unknown
    top: tuple[tuple[int, CardView], ...] = ()  # (position from the top, 1 first)
    bottom: tuple[tuple[int, CardView], ...] = ()  # (position from the bottom, 1 first)


@dataclass(frozen=True, slots=True)
class RowView:
    name: str  # one of ROWS
    cards: tuple[CardView, ...]


@dataclass(frozen=True, slots=True)
class PlayerView:
    name: str
    life: int
    counters: tuple[tuple[str, int], ...]
    marks: tuple[str, ...]  # lost, active player, perspective, designations
    hand: tuple[CardView, ...]
    library: LibraryView
    graveyard: tuple[CardView, ...]
    exile: tuple[CardView, ...]
    command: tuple[CardView, ...]
    battlefield: tuple[RowView, ...]

    @property
    def hidden_in_hand(self) -> int:
        return sum(1 for card in self.hand if card.hidden)


@dataclass(frozen=True, slots=True)
class TurnView:
    number: int
    player: str | None
    phase: str | None
    step: str | None
    text: str  # "Turn 3, Alice: main phase (precombat)"


@dataclass(frozen=True, slots=True)
class DiagnosticView:
    code: str
    severity: str
    message: str
    column: int  # 1-based


@dataclass(frozen=True, slots=True)
class LineView:
    number: int  # 1-based; 0 before the first line
    text: str
    diagnostics: tuple[DiagnosticView, ...]


@dataclass(frozen=True, slots=True)
class Board:
    title: str | None
    game: int
    total_lines: int
    line: LineView
    problems_so_far: int  # diagnostics on this line and above it
    turn: TurnView
    players: tuple[PlayerView, ...]  # the perspective player last (drawn at the bottom)
    stack: tuple[CardView, ...]  # top first
    effects: tuple[str, ...]

    def player(self, name: str) -> PlayerView | None:
        return next((p for p in self.players if p.name == name), None)


def board_json(board: Board) -> dict[str, object]:
    return asdict(board)


def build_board(
    state: GameState,
    facts: RecordFacts,
    line: int,
    text: str,
    total_lines: int,
    diagnostics: Sequence[Diagnostic] = (),
    problems_so_far: int = 0,
) -> Board:
    """The board after 1-based `line` (0: before the first), whose state is `state`;
    `diagnostics` are those placed on that line."""
    index = line - 1
    view = _Viewer(state, facts, index)
    players = [view.player(p) for p in state.players]
    bottom = state.perspective or (state.players[0].name if state.players else None)
    players.sort(key=lambda p: p.name == bottom)  # stable: seating order otherwise
    return Board(
        title=facts.title,
        game=state.game,
        total_lines=total_lines,
        line=LineView(
            number=line,
            text=text,
            diagnostics=tuple(
                DiagnosticView(d.code, d.severity.value, d.message, d.span.start + 1)
                for d in diagnostics
            ),
        ),
        problems_so_far=problems_so_far,
        turn=_turn(state),
        players=tuple(players),
        stack=tuple(view.card(n) for n in reversed(state.stack)),
        effects=tuple(
            f"{view.reference(e.source)}: {e.text}"
            + (f" on {view.reference(e.on)}" if e.on else "")
            + (f" until {e.until}" if e.until else "")
            for e in state.effects
        ),
    )


class _Viewer:
    """Turns the state's objects and players into views, with the facts up to a line."""

    def __init__(self, state: GameState, facts: RecordFacts, index: int) -> None:
        self.state, self.facts, self.index = state, facts, index

    def reference(self, ref: Reference) -> str:
        if isinstance(ref, str):
            return ref
        obj = self.state.obj(ref)
        return f"#{ref} {obj.name}" if obj is not None and obj.name else f"#{ref}"

    def card(self, number: int) -> CardView:
        obj = self.state.obj(number)
        if obj is None:
            return CardView(number, None, "card")
        return CardView(
            number=number,
            name=self._name(obj),
            kind=obj.kind.value,
            tapped=obj.tapped,
            counters=obj.counters,
            marks=self._marks(obj),
            targets=tuple(self.reference(r) for r in self.facts.targets_at(number, self.index))
            if obj.zone == "stack"
            else (),
        )

    def _name(self, obj: GameObject) -> str | None:
        if obj.kind is ObjectKind.ABILITY and obj.name is None and obj.source is not None:
            source = self.state.obj(obj.source)
            return f"ability of {source.name}" if source and source.name else "ability"
        return obj.name

    def _marks(self, obj: GameObject) -> tuple[str, ...]:
        marks: list[str] = []
        if obj.kind is ObjectKind.TOKEN:
            marks.append("token")
        elif obj.kind is ObjectKind.COPY:
            marks.append(f"copy of {self.reference(obj.source)}" if obj.source else "copy")
        if obj.attacking:
            marks.append("attacking")
        if obj.blocking:
            marks.append("blocking " + ", ".join(self.reference(n) for n in obj.blocking))
        if obj.controller and obj.owner and obj.controller != obj.owner:
            marks.append(f"owned by {obj.owner}")
        # faces, attachments and phasing (decisions 0023, 0025, 0028, 0029, 0099)
        if obj.face_down:
            marks.append("face down")
        if obj.back_face:
            marks.append("back face up")
        if obj.attached_to is not None:
            marks.append(f"attached to {self.reference(obj.attached_to)}")
        if obj.phased_out:
            marks.append("phased out")
        if obj.unlocked:
            marks.append("unlocked: " + ", ".join(obj.unlocked))
        if obj.level is not None:
            marks.append(f"level {obj.level}")
        # split, adventurer, flip and meld cards, the Ring-bearer (decisions 0062 to 0065)
        if obj.half is not None:
            marks.append(f"as {obj.half}")
        if obj.adventure:
            marks.append("Adventure" if obj.zone == "stack" else "on an adventure")
        if obj.flipped:
            marks.append("flipped")
        if obj.melded_with is not None:
            marks.append(f"melded with #{obj.melded_with}")
        if obj.ring_bearer:
            marks.append("Ring-bearer")
        return tuple(marks)

    def _row(self, obj: GameObject) -> str:
        if obj.face_down:
            return "creatures"  # a 2/2 creature (CR 708.2a)
        role = self.facts.role_at(obj.number, self.index)
        if role == LAND:
            return "lands"
        if role == CREATURE or any(kind in ("+1/+1", "-1/-1") for kind, _ in obj.counters):
            return "creatures"
        return "other permanents"

    def _zone(self, zone: str, owner: str) -> tuple[CardView, ...]:
        found = sorted(
            (o for o in self.state.objects.values() if o.zone == zone and o.owner == owner),
            key=lambda o: o.number,
        )
        return tuple(self.card(o.number) for o in found)

    def player(self, player: PlayerState) -> PlayerView:
        state = self.state
        rows: dict[str, list[CardView]] = {row: [] for row in ROWS}
        for obj in sorted(state.objects.values(), key=lambda o: o.number):
            if obj.zone == "battlefield" and obj.controller == player.name:
                rows[self._row(obj)].append(self.card(obj.number))
        library = player.library
        return PlayerView(
            name=player.name,
            life=player.life,
            counters=player.counters,
            marks=self._player_marks(player),
            hand=self._zone("hand", player.name),
            library=LibraryView(
                size=library.size,
                top=tuple(
                    (i + 1, self.card(n)) for i, n in enumerate(library.top) if n is not None
                ),
                bottom=tuple(
                    (i + 1, self.card(n)) for i, n in enumerate(library.bottom) if n is not None
                ),
            ),
            graveyard=self._zone("graveyard", player.name),
            exile=self._zone("exile", player.name),
            command=self._zone("command", player.name),
            battlefield=tuple(RowView(name, tuple(cards)) for name, cards in rows.items()),
        )

    def _player_marks(self, player: PlayerState) -> tuple[str, ...]:
        marks: list[str] = []
        if player.lost:
            marks.append("lost")
        if self.state.turn.player == player.name and self.state.turn.number:
            marks.append("active player")
        if self.state.perspective == player.name:
            marks.append("perspective")
        state = self.state  # designations (decisions 0026, 0062, 0063)
        if state.monarch == player.name:
            marks.append("monarch")
        if state.initiative == player.name:
            marks.append("initiative")
        if player.citys_blessing:
            marks.append("city's blessing")
        if player.ring_tempted:
            marks.append(f"tempted {player.ring_tempted}")
        if player.speed is not None:
            marks.append(speed_words(player.speed))
        if player.venture_room is not None:
            marks.append(f"in {player.venture_room}")
        return tuple(marks)


def _turn(state: GameState) -> TurnView:
    turn = state.turn
    if not turn.number:
        text = {
            Stage.HEADER: "Before the game",
            Stage.PREGAME: "Pregame",
            Stage.OVER: "Game over",
        }.get(state.stage, "Before the first turn")
        if state.starting_player:
            text += f", {state.starting_player} starts"
        return TurnView(0, None, None, None, text)
    where = "start of the turn"
    if turn.step:
        where = f"{turn.step.replace('-', ' ')} step"
    elif turn.phase:
        where = f"{turn.phase} phase"
        if turn.phase == "main" and 0 <= turn.position < len(STEP_ORDER):
            where += " (precombat)" if turn.position < 5 else " (postcombat)"
    text = f"Turn {turn.number}, {turn.player}: {where}"
    if state.stage is Stage.OVER:
        text += " (game over)"
    return TurnView(turn.number, turn.player, turn.phase, turn.step, text)
