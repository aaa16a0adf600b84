"""Completion from the game state at the cursor: what could come next on this line, here.

The line being typed rarely parses yet, so the prefix is split into words here and the
offers follow the grammar's order of parts; which objects, verbs and steps are offered
comes from the state before the line (where each object is, what is on the stack).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.rules.state import GONE, STEP_ORDER, ZONES, GameObject, GameState, Stage
from mtgr.server.features.cards import card_markdown
from mtgr.syntax import tree as t
from mtgr.syntax.parser import grammar_words

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument

_WORD = re.compile(r'"(?:[^"\\]|\\.)*"?|\S+')

# Verbs that make sense for an object, by where it is (the verb tables of the notes).
VERBS_BY_ZONE: dict[str, tuple[str, ...]] = {
    "stack": (
        "resolve",
        "target",
        "choose",
        "pay",
        "fizzle",
        "countered",
        "move",
        "effect",
        "control",
    ),
    "hand": ("cast", "play", "move", "reveal", "identify", "choose", "effect"),
    "battlefield": (
        "tap",
        "untap",
        "attack",
        "block",
        "move",
        "counters",
        "damage",
        "effect",
        "control",
        "identify",
        "attach",
        "unattach",
        "phase",
        "regenerate",
        "turn",
        "transform",
        "convert",
        "stays",
        "leaves",
        "flip",
        "unlock",
        "lock",
        "level",
    ),
    "graveyard": ("move", "cast", "play", "identify", "reveal", "effect"),
    "exile": ("move", "cast", "play", "identify", "reveal", "effect", "meld"),
    "library": ("move", "identify", "reveal", "cast", "play"),
    "command": ("move", "cast", "effect", "complete"),
}
NEW_OBJECT_VERBS = ("new", "activate", "trigger")
PLAYER_VERBS = (
    "draw",
    "life",
    "counters",
    "search",
    "shuffle",
    "mulligan",
    "keep",
    "roll",
    "flip",
    "concede",
    "lose",
    "win",
    "monarch",
    "initiative",
    "citys-blessing",
    "sideboard",
    "mana",
    "choose",
    "ring-bearer",
    "venture",
)
DESIGNATIONS = ("monarch", "initiative", "citys-blessing")
# what a keyframe entry of a permanent may say after its zone and player (0060 item 1)
SNAPSHOT_PARTS = (
    "owner",
    "back",
    "melded",
    "flipped",
    "tapped",
    "face-down",
    "attached",
    "phased-out",
    "damage",
    "counters",
)
KINDS = grammar_words("kind")
NEW_WHAT = ("card", "hidden", "token", "copy", "commander", "emblem")
CAST_MODES = grammar_words("cast_mode")  # decision 0081: every way to cast CR 702 names
DURATIONS = grammar_words("duration")
ENTERING = ("tapped", "face-down", "attached", "attacking", "blocking")  # 0020, 0023, 0028
HEADER_KEYWORDS = ("mtgr", "title", "rules", "variant", "player", "perspective", "start")
STRUCTURE_KEYWORDS = (
    "turn",
    "phase",
    "step",
    "keyframe",
    "end",
    "incomplete",
    "game",
    "match",
    "judge",
    "day",
    "night",
)
JUDGE_EVENTS = ("call", "penalty", "missed-trigger", "time", "backup")
PENALTIES = ("warning", "game-loss", "match-loss")
_CARD_NAME_AFTER = frozenset({"card", "token", "identify", "commander"})


@dataclass
class Offers:
    """Completion items in the order they should be shown."""

    label_details: bool = True  # only for clients that show them (labelDetailsSupport)
    typed: str = ""  # the word being typed, for the card index's search
    items: list[types.CompletionItem] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def add(
        self,
        label: str,
        kind: types.CompletionItemKind,
        detail: str | None = None,
        insert: str | None = None,
        description: str | None = None,
        filter_text: str | None = None,
    ) -> None:
        if label in self.seen:
            return
        self.seen.add(label)
        self.items.append(
            types.CompletionItem(
                label=label,
                kind=kind,
                detail=detail,
                label_details=types.CompletionItemLabelDetails(description=description)
                if description and self.label_details
                else None,
                insert_text=insert,
                filter_text=filter_text,
                sort_text=f"{len(self.items):04d}",
            )
        )

    def objects(self, state: GameState, objects: Iterable[GameObject], why: str = "") -> None:
        for obj in objects:
            name = obj.name or "hidden"
            detail = f"{name} ({where_short(obj)})" + (f" · {why}" if why else "")
            self.add(f"#{obj.number}", types.CompletionItemKind.Variable, detail, None, name)

    def players(self, names: Iterable[str], why: str = "player") -> None:
        for name in names:
            self.add(f'"{name}"', types.CompletionItemKind.Constant, why)

    def keywords(self, words: Iterable[str], detail: str | None = None) -> None:
        for word in words:
            self.add(word, types.CompletionItemKind.Keyword, detail)

    def zones(self, zones: Iterable[str]) -> None:
        for zone in zones:
            self.add(zone, types.CompletionItemKind.EnumMember, "zone")


def where_short(obj: GameObject) -> str:
    if obj.zone == "battlefield":
        return f"battlefield, {obj.controller}" if obj.controller else "battlefield"
    if obj.zone in ("hand", "library", "graveyard") and obj.owner:
        return f"{obj.owner}'s {obj.zone}"
    return obj.zone


# ---- what the state offers ----------------------------------------------------------------


def acting_objects(state: GameState) -> list[GameObject]:
    """Objects that can act: the stack top first, then the battlefield, then hands."""
    stack = [state.objects[n] for n in reversed(state.stack) if n in state.objects]
    battlefield = sorted(state.in_zone("battlefield"), key=lambda o: o.number)
    hands = sorted(state.in_zone("hand"), key=lambda o: o.number)
    return [*stack, *battlefield, *hands]


def _permanents(state: GameState) -> list[GameObject]:
    return sorted(state.in_zone("battlefield"), key=lambda o: o.number)


def next_steps(state: GameState) -> list[str]:
    """Structure lines in the order the turn goes on from here (CR 500.1)."""
    turn = state.turn
    upcoming: list[str] = []
    if turn.number:
        for phase, step in STEP_ORDER[turn.position + 1 :]:
            line = f"step {step}" if step else f"phase {phase}"
            if line not in upcoming:
                upcoming.append(line)
    following = next_turn(state)
    if following:
        upcoming.append(following)
    return upcoming


def next_turn(state: GameState) -> str | None:
    order = state.turn_order()
    if not order:
        return None
    if not state.turn.number or state.turn.player not in order:
        return f'turn {state.turn.number + 1} "{order[0]}"'
    player = order[(order.index(state.turn.player) + 1) % len(order)]
    return f'turn {state.turn.number + 1} "{player}"'


def card_names(document: OpenDocument) -> list[str]:
    """Card names already written in the file, first seen first."""
    names: dict[str, None] = {}
    for line in document.document.lines:
        statement = line.parsed.statement
        for value in _card_texts(statement):
            names.setdefault(value, None)
    return list(names)


def _card_texts(statement: t.Statement | None) -> list[str]:
    found: list[str] = []
    if isinstance(statement, t.ObjectStatement) and statement.name is not None:
        found.append(statement.name.value)
    card = getattr(statement, "card", None)
    if isinstance(card, t.Text):
        found.append(card.value)
    return found


# ---- the line so far -------------------------------------------------------------------------


@dataclass(frozen=True)
class Prefix:
    words: list[str]  # complete words before the cursor
    partial: str  # the word being typed ("" after a space)
    start: int  # column where the partial word starts


def split_prefix(text: str) -> Prefix | None:
    """The words before the cursor; None inside a comment or a finished string."""
    words = [(m.group(), m.start()) for m in _WORD.finditer(text)]
    for word, _start in words:
        if word.startswith("//"):
            return None
    if not words or text[-1:].isspace():
        return Prefix([w for w, _ in words], "", len(text))
    *done, (last, start) = words
    if last.startswith('"') and len(last) > 1 and last.endswith('"') and not last.endswith('\\"'):
        return None  # the cursor is after a closed string with no space yet
    return Prefix([w for w, _ in done], last, start)


def object_number(word: str) -> int | None:
    if re.fullmatch(r"#[0-9]{1,9}", word):
        return int(word[1:])
    return None


def player_name(word: str) -> str | None:
    if len(word) >= 2 and word.startswith('"') and word.endswith('"'):
        return word[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return None


# ---- the offers ------------------------------------------------------------------------------


def offers(document: OpenDocument, line: int, prefix: Prefix, label_details: bool = True) -> Offers:
    state = document.state_before(line)
    out = Offers(label_details, prefix.partial)
    words = prefix.words
    quoting = prefix.partial.startswith('"')
    if not words:
        _line_start(out, state, prefix.partial)
        return out
    first = words[0]
    number = object_number(first)
    if number is not None:
        _after_object(out, document, state, number, words[1:], quoting)
    elif (name := player_name(first)) is not None:
        _after_player(out, document, state, name, words[1:], quoting)
    else:
        _after_keyword(out, state, first, words[1:])
    return out


def _line_start(out: Offers, state: GameState, partial: str) -> None:
    if not partial.startswith('"'):
        free = state.next_free_number()
        out.add(f"#{free}", types.CompletionItemKind.Variable, "next free object number")
        out.objects(state, acting_objects(state))
    if partial.startswith("#"):
        return
    out.players(state.player_names())
    if partial.startswith('"'):
        return
    if state.stage is Stage.HEADER and not state.players:
        out.keywords(HEADER_KEYWORDS, "header")
    if state.stage is Stage.OVER:  # after a game: the next one, or the match's result
        out.add(f"game {state.game + 1}", types.CompletionItemKind.Keyword, "next game")
    for line in next_steps(state)[:1]:
        out.add(line, types.CompletionItemKind.Keyword, "expected next")
    out.keywords(STRUCTURE_KEYWORDS, "structure")
    if state.stage is Stage.HEADER:
        out.keywords(HEADER_KEYWORDS, "header")


def _after_keyword(out: Offers, state: GameState, keyword: str, rest: list[str]) -> None:
    if keyword in ("step", "phase") and not rest:
        upcoming = [s.split(" ", 1)[1] for s in next_steps(state) if s.startswith(keyword + " ")]
        out.keywords(upcoming, "next in turn order")
        every = [s for _, s in STEP_ORDER if s] if keyword == "step" else [p for p, _ in STEP_ORDER]
        out.keywords(every, keyword)
    elif keyword == "turn" and not rest:
        following = next_turn(state)
        if following:
            out.add(following.split(" ", 1)[1], types.CompletionItemKind.Keyword, "next turn")
        out.add(str(state.turn.number + 1), types.CompletionItemKind.Value, "turn number")
    elif keyword == "game" and not rest:
        if state.stage is not Stage.OVER:
            out.keywords(["drawn"], "the game ended in a draw")
        out.add(str(state.game + 1), types.CompletionItemKind.Value, "next game")
    elif keyword == "judge":
        _after_judge(out, state, rest)
    elif keyword == "variant" and not rest:
        out.keywords(["commander"], "the Commander variant")
        out.keywords(["brawl"], "the Brawl option of the Commander variant")
    elif keyword == "match" and not rest:
        out.players(state.player_names(), "won the match")
        out.keywords(["drawn"], "a drawn match")
    elif keyword in ("turn", "start", "perspective") and len(rest) <= 1:
        out.players(state.turn_order() or state.player_names())
    elif rest and rest[-1] == "by":
        _causes(out, state, None)
    elif keyword in ("step", "phase", "turn") and rest:
        out.keywords(["by"])


def _after_judge(out: Offers, state: GameState, rest: list[str]) -> None:
    """`judge EVENT ...`: a judge's lines (decision 0033)."""
    if not rest:
        out.keywords(JUDGE_EVENTS, "a judge's record")
        return
    event, parts = rest[0], rest[1:]
    if event in ("call", "penalty") and not parts:
        out.players(state.player_names())
    elif event == "penalty" and len(parts) == 1:
        out.keywords(PENALTIES, "penalty")
    elif event == "missed-trigger" and not parts:
        out.objects(state, acting_objects(state), "whose trigger was missed")
        out.keywords(("monarch", "initiative", "speed"), "a designation's trigger (0106)")
    elif event == "missed-trigger" and len(parts) == 1:
        out.keywords(("added", "skipped"), "how it was handled")
    elif event == "time" and not parts:
        out.keywords(["turns"])
    else:
        out.keywords(["allow"], "the ruling lets an illegal play stand")


def _after_player(
    out: Offers,
    document: OpenDocument,
    state: GameState,
    name: str,
    rest: list[str],
    quoting: bool,
) -> None:
    if not rest:
        if state.in_keyframe is not None:
            out.keywords(
                ("life", "library", "counters", *DESIGNATIONS, "venture"), "keyframe entry"
            )
        else:
            out.keywords(PLAYER_VERBS, "player action")
        return
    verb, last = rest[0], rest[-1]
    if last == "by":
        _causes(out, state, None)
    elif last == "replacement" or (object_number(last) is not None and "replacement" in rest):
        out.objects(state, _permanents(state), "replacement effect")
    elif verb == "draw" and len(rest) == 1:
        player = state.player(name)
        top = player.library.top_card() if player else None
        if top is not None and top in state.objects:  # a draw takes the tracked top card
            out.objects(state, [state.objects[top]], "top of the library")
        out.add(
            f"#{state.next_free_number()}", types.CompletionItemKind.Variable, "next free number"
        )
    elif verb == "draw" and len(rest) == 2 and quoting:
        _card_names(out, document)
    elif verb == "search" and len(rest) == 1:
        out.keywords(["library", "graveyard", "hand"])
    elif verb == "shuffle" and len(rest) == 1:
        out.keywords(["library"])
    elif verb == "sideboard":
        _after_sideboard(out, document, rest[1:], quoting)
    elif verb == "ring-bearer" and state.in_keyframe is not None and len(rest) <= 2:
        out.keywords(["tempted"], "how often the Ring tempted the player (decision 0062)")
    elif verb in ("choose", "ring-bearer") and len(rest) == 1:  # decisions 0061, 0062
        mine = [o for o in _permanents(state) if o.controller == name]
        if verb == "choose":
            out.objects(state, mine, "the legendary permanent kept (legend rule)")
        else:
            out.objects(state, mine, "the Ring-bearer")
            out.keywords(["by"])
    elif quoting:
        out.players(state.player_names())
    elif verb in ("draw", "life", "counters", "win", "lose"):
        out.keywords(["by", "replacement"])  # any replaced event (decision 0040)
    else:
        out.keywords(["by"])


def _after_sideboard(out: Offers, document: OpenDocument, parts: list[str], quoting: bool) -> None:
    """`sideboard [in | out [K] "Name" | deck N]` (decision 0030 item 3)."""
    if not parts:
        out.keywords(("in", "out"), "cards in or out of the deck")
        out.keywords(["deck"], "the deck's size after sideboarding")
    elif parts[0] in ("in", "out") and quoting:
        _card_names(out, document)


def _after_object(
    out: Offers,
    document: OpenDocument,
    state: GameState,
    number: int,
    rest: list[str],
    quoting: bool,
) -> None:
    obj = state.obj(number)
    if rest and player_name(rest[0]) is not None:  # `#N "Name" ...` identifies as it happens
        rest = rest[1:]
    if not rest:
        if quoting:
            _card_names(out, document)
            return
        out.keywords(object_verbs(state, obj), where_short(obj) if obj else "not yet introduced")
        return
    verb, last = rest[0], rest[-1]
    if last == "by":
        _causes(out, state, obj)
    elif last == "replacement" or (object_number(last) is not None and "replacement" in rest):
        out.objects(state, _permanents(state), "replacement effect")
    elif last == "as":
        out.keywords(KINDS, "kind of move")
    elif last == "attacking":  # entering in combat (decision 0020)
        controller = obj.controller if obj else None
        out.players((p for p in state.player_names() if p != controller), "attacked player")
        out.objects(state, _permanents(state), "attacked planeswalker or battle")
    elif last in ("blocking", "block"):
        attackers = [o for o in state.in_zone("battlefield") if o.attacking]
        out.objects(state, attackers, "attacking")
    elif last in ("attached", "attach"):  # decision 0023
        out.objects(state, [o for o in _permanents(state) if o is not obj], "attach to")
        out.players(state.player_names(), "attach to a player")
    elif last == "owner":
        out.players(state.player_names(), "owner")
    elif last == "until":
        out.keywords(DURATIONS, "duration")
    elif last == "->":
        source = rest[1] if verb == "move" and len(rest) > 1 else None
        if verb == "damage":
            out.players(state.player_names())
            out.objects(state, _permanents(state))
        else:
            out.zones(z for z in ZONES if z != source)
    elif quoting and (last in _CARD_NAME_AFTER or verb == "identify"):
        _card_names(out, document, from_index=last != "token")
    elif verb == "move":
        _after_move(out, state, obj, rest[1:])
    elif verb == "new":
        _after_new(out, state, rest[1:])
    elif verb in ("activate", "trigger"):
        if len(rest) == 1:
            out.keywords(["of"])
        else:
            out.objects(state, acting_objects(state), "source")
            if verb == "trigger":  # an inherent ability of a designation (decision 0026)
                out.keywords(["monarch", "initiative"], "designation")
    elif verb in ("target", "choose"):
        out.objects(state, acting_objects(state))
        out.players(state.player_names())
    elif verb == "attack":
        controller = obj.controller if obj else None
        out.players((p for p in state.player_names() if p != controller), "defending player")
        out.keywords(["untapped"])
    elif verb == "damage" and len(rest) == 2:
        out.keywords(["->"])
    elif verb == "damage" and len(rest) == 4:
        out.keywords(["double-strike", "trample"], "the source has it (decision 0073)")
        out.keywords(["deathtouch"], "the source has deathtouch (decision 0027)")
        out.keywords(["replacement"], "prevented or redirected (decision 0040)")
    elif verb == "cast":
        if obj is not None and obj.number in state.commanders and obj.zone == "command":
            earlier = state.commander_cast_count(obj.number, obj.owner)
            if earlier and "tax" not in rest:
                out.add(f"tax {2 * earlier}", types.CompletionItemKind.Keyword, "commander tax")
        out.keywords(("from", "back", "half", *CAST_MODES, "by"))
        out.keywords(["split-second"], "the spell has split second (decision 0072)")
    elif verb in ("resolve", "fizzle") and len(rest) == 1:
        out.keywords(["->", "replacement"])
    elif verb == "resolve" and "battlefield" in rest:
        out.keywords(ENTERING, "how it enters")
        out.keywords(["replacement"])
    elif verb == "play" and len(rest) == 1:
        out.keywords(["from", "back", "tapped", "by"])
        out.players(state.player_names(), "the player who plays it, when not its owner")
    elif verb == "countered" and len(rest) == 1:
        out.keywords(["by"])
    elif verb == "effect" and len(rest) >= 2:
        if last == "until":
            out.keywords(DURATIONS, "duration")
        elif last == "on":
            out.objects(state, _permanents(state))
        else:
            out.keywords(["on", "until"])
    elif state.in_keyframe is not None and verb in ZONES and verb != "library":
        out.keywords(SNAPSHOT_PARTS, "keyframe entry")
    elif verb == "meld" and len(rest) == 1:  # decision 0065: the other card of the pair
        out.objects(state, [o for o in state.in_zone("exile") if o is not obj], "meld with")
    elif verb == "turn" and len(rest) == 1:  # decision 0028
        out.keywords(["face-up"], "a face-down permanent is turned face up")
    elif verb == "phase" and len(rest) == 1:  # decision 0025
        out.keywords(["in"] if obj is not None and obj.phased_out else ["out", "in"], "phasing")
    elif verb == "control" and len(rest) == 1:
        out.players(state.player_names(), "new controller")
    elif verb == "control":
        out.keywords(["until", "by"])
    else:
        out.keywords(["by", "replacement"])


def object_verbs(state: GameState, obj: GameObject | None) -> tuple[str, ...]:
    """The verbs that make sense for an object where it is now."""
    if state.in_keyframe is not None:
        return ZONES
    if obj is None:
        return NEW_OBJECT_VERBS
    if obj.zone == GONE:
        return ()
    if obj.phased_out:
        return ("phase",)  # treated as though it does not exist (decision 0025)
    verbs = VERBS_BY_ZONE.get(obj.zone, ("move",))
    if obj.zone == "hand" and not obj.hidden and state.perspective not in (None, "", obj.owner):
        verbs = (*verbs, "hidden")  # another player's known card, mixed with unseen ones (0100)
    return verbs


def _after_move(out: Offers, state: GameState, obj: GameObject | None, parts: list[str]) -> None:
    if not parts:
        if obj is not None and obj.zone != GONE:
            out.add(obj.zone, types.CompletionItemKind.EnumMember, "where it is now")
        out.zones(ZONES)
    elif "->" not in parts:
        out.keywords(["->"])
    else:
        out.keywords(["as", *ENTERING, "by", "top", "bottom"])
        out.players(state.player_names())


def _after_new(out: Offers, state: GameState, parts: list[str]) -> None:
    if not parts:
        out.keywords(NEW_WHAT, "what is introduced")
    elif parts[0] == "copy" and len(parts) == 1:
        out.keywords(["of"])
    elif parts[-1] in ZONES:
        out.players(state.player_names(), "owner or controller")
        out.keywords(["top", "bottom", "by"])
    elif "battlefield" in parts:  # after the controller: how it enters, who owns it
        out.keywords(["owner", *ENTERING, "by"])
    else:
        out.zones(ZONES)


def _causes(out: Offers, state: GameState, subject: GameObject | None) -> None:
    """What could have caused the line: the stack top first, then permanents and players."""
    stack = [state.objects[n] for n in reversed(state.stack) if n in state.objects]
    out.objects(state, stack, "on the stack")
    out.objects(state, _permanents(state))
    if subject is not None and subject.zone != GONE:
        out.objects(state, [subject], "itself")
    out.players(state.player_names(), "a player's choice")
    out.add("sba", types.CompletionItemKind.Keyword, "state-based action (CR 704)")


# How many names of the card index one completion offers; the list is marked incomplete, so
# the client asks again as the name is typed.
CARD_INDEX_LIMIT = 50


def _card_names(out: Offers, document: OpenDocument, from_index: bool = True) -> None:
    for name in card_names(document):
        out.add(f'"{name}"', types.CompletionItemKind.Text, "card name seen in this file")
    if from_index and document.cards is not None:
        typed = out.typed.strip('"')
        # the index's own order (prefix, then fuzzy): the client must not filter fuzzy matches out
        for name in document.cards.search(typed, CARD_INDEX_LIMIT):
            card = document.cards.lookup(name)
            detail = f"{card.front.type_line} {card.front.mana_cost}".strip() if card else None
            out.add(f'"{name}"', types.CompletionItemKind.Text, detail, filter_text=out.typed)
            if card is not None and out.items[-1].label == f'"{name}"':
                out.items[-1].documentation = types.MarkupContent(
                    kind=types.MarkupKind.Markdown, value=card_markdown(card)
                )


# ---- the handler -------------------------------------------------------------------------------


def complete(
    document: OpenDocument, line: int, column: int, label_details: bool = True
) -> list[types.CompletionItem]:
    if not 0 <= line < len(document.document):
        return []
    text = document.document.texts[line]
    prefix = split_prefix(text[:column])
    if prefix is None:
        return []
    items = offers(document, line, prefix, label_details).items
    if prefix.partial[:1] in ('"', "#"):  # a typed `#` or `"` says what kind of word comes
        items = [item for item in items if item.label.startswith(prefix.partial[0])]
    end = column
    if prefix.partial.startswith('"') and text[column : column + 1] == '"':
        end += 1  # an editor's auto-closed quote is replaced too
    edit_range = document.range(line, t.Span(prefix.start, end))
    for item in items:
        item.text_edit = types.TextEdit(range=edit_range, new_text=item.insert_text or item.label)
        item.insert_text = None
        item.filter_text = item.filter_text or item.label
    return items


def register(server: MtgrServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[" ", "#", '"'], resolve_provider=False),
    )
    def completion(params: types.CompletionParams) -> types.CompletionList:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return types.CompletionList(is_incomplete=False, items=[])
        line, column = document.to_column_position(params.position)
        items = complete(document, line, column, _label_details(server))
        names = any(item.kind is types.CompletionItemKind.Text for item in items)
        return types.CompletionList(is_incomplete=names and document.cards is not None, items=items)


def _label_details(server: MtgrServer) -> bool:
    text_document = server.client_capabilities.text_document
    completion = text_document.completion if text_document else None
    item = completion.completion_item if completion else None
    return bool(item and item.label_details_support)
