"""Typed statements: what one line of a .mtgr file says, with the columns of every part.

Columns are code-point offsets within the line, so a statement does not change when lines
above it are inserted or removed; the document model adds the line number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import Enum
from operator import attrgetter


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int

    def contains(self, column: int) -> bool:
        return self.start <= column <= self.end


@dataclass(frozen=True, slots=True)
class ObjectRef:
    number: int
    span: Span


@dataclass(frozen=True, slots=True)
class PlayerRef:
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Text:
    """A quoted string: a card name, an effect's text, a title."""

    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class Word:
    """A keyword or a word from a fixed set (a zone, a step, a kind)."""

    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class Number:
    value: int
    span: Span


@dataclass(frozen=True, slots=True)
class Sba:
    """The cause `by sba`: a state-based action (CR 704)."""

    span: Span


Agent = ObjectRef | PlayerRef | Sba


@dataclass(frozen=True, slots=True)
class Cause:
    keyword: Span
    agent: Agent


@dataclass(frozen=True, slots=True)
class Position:
    end: Word  # "top" or "bottom"
    depth: Number | None

    @property
    def index(self) -> int:
        return self.depth.value if self.depth else 1


@dataclass(frozen=True, slots=True)
class Place:
    zone: Word
    player: PlayerRef | None
    position: Position | None
    span: Span


@dataclass(frozen=True, slots=True)
class CombatEntry:
    """`attacking "P" | #M` or `blocking #M` on a line that puts a creature onto the
    battlefield in combat (decision 0020): the keyword and what it attacks or blocks."""

    keyword: Word
    target: ObjectRef | PlayerRef


@dataclass(frozen=True, slots=True)
class LifeCost:
    amount: Number
    span: Span


class TokenKind(Enum):
    """What a piece of a line is, for highlighting and for finding what is under the cursor."""

    OBJECT = "object"
    PLAYER = "player"
    STRING = "string"
    VERB = "verb"
    KEYWORD = "keyword"
    ZONE = "zone"
    NUMBER = "number"
    OPERATOR = "operator"
    MANA = "mana"
    COMMENT = "comment"


@dataclass(frozen=True, slots=True)
class Token:
    span: Span
    kind: TokenKind


# ---- statements -------------------------------------------------------------------


class References:
    """What a statement names, in the order written: all of it, its players, its objects
    (made by `Statement._named`, or by the compiled parser as it makes the statement).
    A plain class: made once for nearly every line a walk reads, where a frozen dataclass's
    `__init__` (one `object.__setattr__` a field) costs more than finding the references."""

    __slots__ = ("all", "objects", "players")

    def __init__(
        self,
        all: tuple[ObjectRef | PlayerRef, ...],
        players: tuple[PlayerRef, ...],
        objects: tuple[ObjectRef, ...],
    ) -> None:
        self.all = all
        self.players = players
        self.objects = objects


@dataclass(frozen=True, slots=True, kw_only=True)
class Statement:
    verb: Word
    span: Span
    cause: Cause | None = None
    replacements: tuple[ObjectRef, ...] = ()
    replacement_keyword: Span | None = None
    # the objects and players the line names, in the order written; computed once a
    # statement (statements are shared by equal lines and reused by every walk)
    _references: References | None = field(default=None, init=False, repr=False, compare=False)

    def _named(self) -> References:
        cached = self._references
        if cached is None:
            found = _collect_references(self)
            # most lines name only objects or only players: one tuple serves twice
            # (about 1 MB on a 50,000-line record)
            players: tuple[PlayerRef, ...]
            objects: tuple[ObjectRef, ...]
            if not found:
                players = objects = ()
            else:
                player_refs = [r for r in found if type(r) is PlayerRef]
                if not player_refs:
                    players, objects = (), found  # type: ignore[assignment]
                elif len(player_refs) == len(found):
                    players, objects = found, ()  # type: ignore[assignment]
                else:
                    players = tuple(player_refs)
                    objects = tuple(r for r in found if type(r) is ObjectRef)
            cached = References(found, players, objects)
            object.__setattr__(self, "_references", cached)
        return cached

    # The walk reads these for nearly every line: a computed statement answers without a call.
    @property
    def references(self) -> tuple[ObjectRef | PlayerRef, ...]:
        return (self._references or self._named()).all

    @property
    def players(self) -> tuple[PlayerRef, ...]:
        return (self._references or self._named()).players

    @property
    def objects(self) -> tuple[ObjectRef, ...]:
        return (self._references or self._named()).objects


# what the compiled parser (`parser._compile`) gives a statement as it makes it
set_references: Callable[[Statement, References], None] = Statement.__dict__["_references"].__set__


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectStatement(Statement):
    subject: ObjectRef
    name: Text | None = None  # `#N "Name" ...` identifies a hidden object as the line happens


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStatement(Statement):
    subject: PlayerRef


@dataclass(frozen=True, slots=True, kw_only=True)
class New(ObjectStatement):
    what: Word  # card, hidden, token, copy, commander
    card: Text | None = None
    original: ObjectRef | None = None
    place: Place
    owner: PlayerRef | None = None  # `owner "Q"`: on the battlefield, when not the controller
    back: Word | None = None  # back face up (decision 0029)
    tapped: Word | None = None
    face_down: Word | None = None  # decision 0028
    attached: ObjectRef | PlayerRef | None = None  # `attached #M | "P"` (decision 0023)
    combat: CombatEntry | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Move(ObjectStatement):
    source: Place
    destination: Place
    kind: Word | None = None
    back: Word | None = None  # onto the battlefield "transformed" (decision 0082)
    tapped: Word | None = None
    face_down: Word | None = None  # manifest, cloak, foretell, hideaway (decision 0028)
    attached: ObjectRef | PlayerRef | None = None
    combat: CombatEntry | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Identify(ObjectStatement):
    card: Text


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal(ObjectStatement):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Cast(ObjectStatement):
    caster: PlayerRef | None = None
    source: Place | None = None
    back: Word | None = None  # cast with its back face up (decision 0029)
    half: Text | None = None  # the half of a split card cast (decision 0064)
    modes: tuple[Word, ...] = ()
    tax: Number | None = None  # the commander tax added to the cost (decision 0031)
    split_second: Word | None = None  # the spell has split second (decision 0072)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(ObjectStatement):
    player: PlayerRef | None = None  # who plays it, written when not its owner
    source: Place | None = None
    back: Word | None = None  # a modal double-faced land played back face up (0029)
    tapped: Word | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AbilityOf(ObjectStatement):
    """`activate of #M` or `trigger of #M`: a new ability object on the stack; `trigger of
    monarch | initiative` for an inherent ability of a designation, which has no source
    (decision 0026)."""

    source: ObjectRef | None = None
    designation: Word | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Target(ObjectStatement):
    targets: tuple[ObjectRef | PlayerRef, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Choose(ObjectStatement):
    choices: tuple[ObjectRef | Text | Number, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Pay(ObjectStatement):
    costs: tuple[Text | LifeCost, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Leave(ObjectStatement):
    """`resolve`, `fizzle` or `countered by`: an object leaves the stack."""

    destination: Place | None = None
    back: Word | None = None  # a permanent spell that enters transformed (decision 0088)
    tapped: Word | None = None  # a permanent spell that resolves onto the battlefield tapped
    attached: ObjectRef | PlayerRef | None = None  # an Aura spell (CR 608.3c)
    combat: CombatEntry | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TapChange(ObjectStatement):
    """`tap` or `untap`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StaysTapped(ObjectStatement):
    """`#N stays tapped by C`: an effect keeps a permanent from untapping (decision 0075)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LeavesCombat(ObjectStatement):
    """`#N leaves combat by C`: a creature removed from combat (decision 0076)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Attack(ObjectStatement):
    defender: ObjectRef | PlayerRef
    untapped: Word | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Block(ObjectStatement):
    blocked: ObjectRef


@dataclass(frozen=True, slots=True, kw_only=True)
class Damage(ObjectStatement):
    amount: Number
    recipient: ObjectRef | PlayerRef
    deathtouch: Word | None = None  # the source has deathtouch (decision 0027)
    double_strike: Word | None = None  # the source has double strike (decision 0073)
    trample: Word | None = None  # the source has trample (decision 0073)


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectCounters(ObjectStatement):
    delta: Number
    counter: Word


@dataclass(frozen=True, slots=True, kw_only=True)
class Effect(ObjectStatement):
    text: Text
    on: ObjectRef | None = None
    until: Word | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Control(ObjectStatement):
    controller: PlayerRef
    until: Word | None = None  # when the control-changing effect ends (decision 0021)


@dataclass(frozen=True, slots=True, kw_only=True)
class Attach(ObjectStatement):
    """`attach #M | "P"` or `unattach` (decision 0023); `host` is None for `unattach`."""

    host: ObjectRef | PlayerRef | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Phasing(ObjectStatement):
    """`phase out` or `phase in` (decision 0025)."""

    direction: Word


@dataclass(frozen=True, slots=True, kw_only=True)
class Regenerate(ObjectStatement):
    """`regenerate by C replacement #R`: a destruction replaced by regeneration (0027)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Transform(ObjectStatement):
    """`transform` or `convert`: a double-faced permanent turns over (decision 0029)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Meld(ObjectStatement):
    """`#N meld #M by C`: the meld pair N and M becomes one permanent, #N (decision 0065)."""

    other: ObjectRef


@dataclass(frozen=True, slots=True, kw_only=True)
class Flip(ObjectStatement):
    """`flip`: a flip card on the battlefield flips (decision 0064)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Unlock(ObjectStatement):
    """`#N unlock "Door" [by C]` or `#N lock "Door" by C`: a door of Room N gets or loses
    its unlocked designation (decision 0099, CR 709.5e to 709.5g)."""

    door: Text


@dataclass(frozen=True, slots=True, kw_only=True)
class ClassLevel(ObjectStatement):
    """`#N level K by C`: Class N's level becomes K (decision 0108, CR 716.2a)."""

    value: Number


@dataclass(frozen=True, slots=True, kw_only=True)
class Hidden(ObjectStatement):
    """`#N hidden [by C]`: a known card in a hand becomes hidden again, mixed with cards the
    perspective player did not see (decision 0100)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnFaceUp(ObjectStatement):
    """`turn face-up`: a face-down permanent is turned face up (decision 0028)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SnapshotObject(ObjectStatement):
    """A keyframe entry: where an object is, tapped or not, with which counters."""

    place: Place
    owner: PlayerRef | None = None
    back: Word | None = None
    melded: ObjectRef | None = None  # the other card of a melded permanent (decision 0065)
    flipped: Word | None = None  # a flipped flip card (decision 0064)
    tapped: Word | None = None
    face_down: Word | None = None
    attached: ObjectRef | PlayerRef | None = None
    phased_out: Word | None = None
    damage: Number | None = None  # damage marked on it (decision 0060)
    counters: tuple[tuple[Number, Word], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(PlayerStatement):
    drawn: ObjectRef
    card: Text | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Life(PlayerStatement):
    delta: Number


@dataclass(frozen=True, slots=True, kw_only=True)
class ManaAdded(PlayerStatement):
    """`"P" mana {G} by C`: mana added to P's mana pool (decision 0071)."""

    mana: Text


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerCounters(PlayerStatement):
    delta: Number
    counter: Word


@dataclass(frozen=True, slots=True, kw_only=True)
class LibraryAction(PlayerStatement):
    """`search ZONE` or `shuffle library`, of another player's zone when `owner` is set.

    `zone` is the zone searched (library, graveyard or hand, decision 0042); None for a
    shuffle, which is always of a library."""

    zone: Word | None = None
    owner: PlayerRef | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Roll(PlayerStatement):
    """`"P" roll [N]dK T [by C]`: P rolls N K-sided dice (one without N) for a total of T
    (decisions 0009, 0110)."""

    die: Word
    result: Number

    def dice(self) -> tuple[int, int]:
        """How many dice, and how many sides each has."""
        count, _, sides = self.die.value.partition("d")
        return int(count or 1), int(sides)


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinFlip(PlayerStatement):
    """`"P" flip heads | tails | won | lost [by C]`: P flips a coin (decision 0110, CR 705)."""

    result: Word


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerAction(PlayerStatement):
    """`mulligan`, `keep`, `concede`, `lose`, `win`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Sideboard(PlayerStatement):
    """`sideboard [in | out [K] "Name"]` or `sideboard deck N`: a deck changed between games."""

    way: Word | None = None  # "in" or "out"; None when the cards are not recorded
    count: Number | None = None
    card: Text | None = None
    deck: Number | None = None  # the deck's size after sideboarding, when known

    @property
    def cards(self) -> int:
        """How many cards this line adds to the deck (negative: takes out); 0 when unknown."""
        if self.way is None:
            return 0
        amount = self.count.value if self.count is not None else 1
        return amount if self.way.value == "in" else -amount


@dataclass(frozen=True, slots=True, kw_only=True)
class SnapshotPlayer(PlayerStatement):
    """A keyframe entry: `life N`, `library N`, `counters N KIND` or `damage N from #M`
    (the combat damage commander M has dealt the player, decision 0101)."""

    value: Number
    counter: Word | None = None
    commander: ObjectRef | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Header(Statement):
    """`mtgr`, `title`, `rules`, `variant`, `perspective`: one value each."""

    value: Word | Text | PlayerRef | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerDeclaration(Statement):
    player: PlayerRef
    deck: Number | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(Statement):
    player: PlayerRef


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStart(Statement):
    number: Number


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(Statement):
    number: Number
    player: PlayerRef


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseOrStep(Statement):
    """`phase NAME` or `step NAME`."""

    name: Word


@dataclass(frozen=True, slots=True, kw_only=True)
class GameDrawn(Statement):
    """`game drawn [by C]`: the game ended in a draw (CR 104.4)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResult(Statement):
    """`match "P" W-L[-D]` or `match drawn W-L[-D]`: how the match ended."""

    winner: PlayerRef | None  # None: a drawn match
    score: Word

    @property
    def games(self) -> tuple[int, ...]:
        """The score's numbers: games won, games lost and, when written, games drawn."""
        return tuple(int(part) for part in self.score.value.split("-"))


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeEvent(Statement):
    """A tournament event a judge records (decision 0033): not an event of the game."""

    event: Word  # call, penalty, missed-trigger, time, backup
    player: PlayerRef | None = None
    penalty: Word | None = None  # warning, game-loss, match-loss
    infraction: Text | None = None
    trigger_source: ObjectRef | None = None
    # a missed trigger of the monarch, the initiative or speed (decision 0106)
    trigger_designation: Word | None = None
    remedy: Word | None = None  # added, skipped
    turns: Number | None = None  # the turns played after time is called
    allow: tuple[Word, ...] = ()  # codes the ruling silences on the lines it covers


@dataclass(frozen=True, slots=True, kw_only=True)
class Designation(PlayerStatement):
    """`"P" monarch`, `"P" initiative`, `"P" citys-blessing` (decision 0026)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LegendChoice(PlayerStatement):
    """`"P" choose #M by sba`: P keeps #M under the legend rule (decision 0061)."""

    kept: ObjectRef


@dataclass(frozen=True, slots=True, kw_only=True)
class RingTempts(PlayerStatement):
    """`"P" ring-bearer [#M] [by C]`: the Ring tempts P, who chooses #M as Ring-bearer
    (decision 0062); without #M, P controlled no creature."""

    bearer: ObjectRef | None = None
    tempted: Number | None = None  # in a keyframe entry: how often the Ring tempted P


@dataclass(frozen=True, slots=True, kw_only=True)
class Speed(PlayerStatement):
    """`"P" speed K by C`: P's speed becomes K (decision 0098, CR 702.179)."""

    value: Number


@dataclass(frozen=True, slots=True, kw_only=True)
class Venture(PlayerStatement):
    """`"P" venture "Room" [by C]`: P moves their venture marker into that room of their
    dungeon (decision 0063); without a cause, inside a keyframe, where the marker is."""

    room: Text


@dataclass(frozen=True, slots=True, kw_only=True)
class Complete(ObjectStatement):
    """`#N complete [by C]`: dungeon #N is removed from the game, completed (0063)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DayNight(Statement):
    """`day` or `night`: it becomes day or night (decision 0026)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Marker(Statement):
    """`incomplete`, `keyframe`, `end`."""


# Fields of every statement that never hold a reference.
_NOT_REFERENCES = frozenset({"_references", "verb", "span", "replacement_keyword"})
# The types that hold a reference (see `_collect_references`): a field whose annotation
# names none of them holds none, and is not looked at.
_HOLDERS = ("ObjectRef", "PlayerRef", "Cause", "Place", "CombatEntry")
_REFERENCE_FIELDS: dict[type, Callable[[Statement], tuple[object, ...]]] = {}


def reference_fields(cls: type) -> Callable[[Statement], tuple[object, ...]]:
    """What reads the fields of a `cls` statement that may hold a reference, in one call
    (every statement type has at least two: `cause` and `replacements`)."""
    values = _REFERENCE_FIELDS.get(cls)
    if values is None:
        annotations = {f.name: str(f.type) for f in fields(cls)}
        slots = (name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))
        names = [
            name
            for name in slots
            if name not in _NOT_REFERENCES
            and any(holder in annotations.get(name, holder) for holder in _HOLDERS)
        ]
        values = _REFERENCE_FIELDS[cls] = attrgetter(*names)
    return values


def _collect_references(statement: Statement) -> tuple[ObjectRef | PlayerRef, ...]:
    cls = type(statement)
    values = _REFERENCE_FIELDS.get(cls) or reference_fields(cls)
    found: list[ObjectRef | PlayerRef] = []
    for value in values(statement):
        kind = type(value)
        if kind is ObjectRef or kind is PlayerRef:
            found.append(value)  # type: ignore[arg-type]
        elif kind is tuple:
            for item in value:  # type: ignore[attr-defined]
                if (ref := _reference_in(item)) is not None:
                    found.append(ref)
        elif value is not None and (ref := _reference_in(value)) is not None:
            found.append(ref)
    if len(found) > 1:
        found.sort(key=_START)
    return tuple(found)


def _reference_in(item: object) -> ObjectRef | PlayerRef | None:
    """The reference a part of a statement holds, if any: a word, a number, a text or a
    (count, kind) pair holds none."""
    kind = type(item)
    if kind is ObjectRef or kind is PlayerRef:
        return item  # type: ignore[return-value]
    if kind is Cause:
        agent = item.agent  # type: ignore[attr-defined]
        return None if type(agent) is Sba else agent  # type: ignore[no-any-return]
    if kind is Place:
        return item.player  # type: ignore[attr-defined,no-any-return]
    if kind is CombatEntry:
        return item.target  # type: ignore[attr-defined,no-any-return]
    return None


_START = attrgetter("span.start")


@dataclass(frozen=True, slots=True)
class LineError:
    """A line that does not parse: one per line, at the exact columns."""

    code: str
    message: str
    span: Span


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """Everything the parser knows about one line; equal text gives an equal result."""

    statement: Statement | None
    error: LineError | None
    comment: Span | None
    allowed: frozenset[str] = field(default=frozenset())  # codes silenced by `// allow CODE`
    # The statement's tokens as columns after `offset`, in the order of the text (the parse
    # tree read depth first), made into Tokens on first use: only
    # highlighting and navigation read them, and most lines of a long record never are.
    token_columns: tuple[tuple[int, int, TokenKind], ...] = ()
    offset: int = 0
    _tokens: tuple[Token, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def tokens(self) -> tuple[Token, ...]:
        """The line's tokens in order, the comment last."""
        tokens = self._tokens
        if tokens is None:
            offset = self.offset
            tokens = tuple(
                Token(Span(offset + start, offset + end), kind)
                for start, end, kind in self.token_columns
            )
            if self.comment is not None:
                tokens += (Token(self.comment, TokenKind.COMMENT),)
            object.__setattr__(self, "_tokens", tokens)
        return tokens


# A line's identity for as long as it lives (an edit elsewhere never changes it): what the
# rules' tables are keyed by, so that the states below an edit stay equal to the last walk's.
LineId = int


@dataclass(frozen=True, slots=True)
class Line:
    """A line of a record as the rules walk it: its lasting id and what the parser found."""

    id: LineId
    parsed: ParsedLine
