"""Hover: what the thing under the cursor means, and what the game looks like there.

A verb or keyword shows its form's meaning and the decision items behind it, quoted; an
object shows its card, place and history up to the line; a player their life and zones;
a structure line the whole state; a diagnostic its explanation; a CR number in a comment
the rule's text from the user's own copy of the rules.
"""

from __future__ import annotations

import asyncio
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.rules.registry import rule
from mtgr.rules.state import GONE, OWNED_ZONES, GameObject, GameState
from mtgr.rules.summary import (
    attachment_words,
    card_part_words,
    dungeon_words,
    render_state,
    ring_words,
    speed_words,
    turn_line,
)
from mtgr.server.features.cards import card_markdown
from mtgr.syntax import tree as t

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument, Settings


# ---- what is under the cursor ---------------------------------------------------------


def token_at(parsed: t.ParsedLine, column: int) -> t.Token | None:
    """The token whose span holds the column; at a boundary the one that starts there wins."""
    found: t.Token | None = None
    for token in parsed.tokens:
        if token.span.start <= column < token.span.end:
            return token
        if token.span.end == column:
            found = token
    return found


def object_refs(statement: t.Statement) -> tuple[t.ObjectRef, ...]:
    """Every `#N` a statement mentions, in the order written."""
    return statement.objects


def ref_at(statement: t.Statement, column: int) -> t.ObjectRef | t.PlayerRef | None:
    for ref in statement.references:
        if ref.span.contains(column):
            return ref
    return None


# ---- objects ---------------------------------------------------------------------------


def card_name(obj: GameObject | None) -> str:
    if obj is None:
        return "unknown"
    return obj.name or "hidden"


def where(obj: GameObject) -> str:
    if obj.melded_into is not None:  # decision 0065
        return f"one of the two cards of the melded permanent #{obj.melded_into}"
    if obj.zone == GONE:
        return "gone (no longer in the game)"
    if obj.zone == "battlefield":
        return f"on the battlefield under {obj.controller or '?'}'s control" + (
            ", tapped" if obj.tapped else ""
        )
    if obj.zone == "stack":
        return "on the stack"
    if obj.zone in OWNED_ZONES and obj.owner:
        return f"in {obj.owner}'s {obj.zone}"
    return f"in {obj.zone}" + (f" (owner {obj.owner})" if obj.owner else "")


_EVENT = {
    "cast": "cast",
    "play": "played",
    "resolve": "resolved",
    "fizzle": "fizzled",
    "countered": "countered",
    "reveal": "revealed",
    "identify": "identified",
    "control": "control changed",
    "activate": "activated",
    "trigger": "triggered",
}


def history(document: OpenDocument, number: int, since: int, upto: int) -> list[str]:
    """Where #N came from and how it moved, from the line that introduced it (`since`) up
    to and including line `upto` (0-based)."""
    events: list[str] = []
    for index in range(since, min(upto + 1, len(document.document))):
        statement = document.document.lines[index].parsed.statement
        event = _event(statement, number)
        if event is None:
            continue
        verb, zone_changes = event
        text = f"{verb} at line {index + 1}"
        if zone_changes:
            after = document.state_after(index).obj(number)
            if after is not None:
                text = f"{verb} -> {_zone_word(after)} at line {index + 1}"
        events.append(text)
    return events


def _zone_word(obj: GameObject) -> str:
    return "gone" if obj.zone == GONE else obj.zone


def _event(statement: t.Statement | None, number: int) -> tuple[str, bool] | None:
    """What a line did to #N, and whether it can have changed its zone."""
    if isinstance(statement, t.Draw) and statement.drawn.number == number:
        return "drawn", False
    if not isinstance(statement, t.ObjectStatement) or statement.subject.number != number:
        return None
    verb = statement.verb.value
    if isinstance(statement, t.New):
        return f"introduced ({statement.what.value}) in {statement.place.zone.value}", False
    if isinstance(statement, t.Move):
        return f"moved {statement.source.zone.value}", True
    if isinstance(statement, t.SnapshotObject):
        return f"keyframe: {statement.place.zone.value}", False
    if isinstance(statement, t.Identify):
        return f'identified as "{statement.card.value}"', False
    if verb in ("cast", "play", "resolve", "fizzle", "countered", "control"):
        return _EVENT[verb], verb != "control"
    if isinstance(statement, t.AbilityOf):
        if statement.source is None:  # an inherent ability of a designation (decision 0026)
            of = f"the {statement.designation.value}" if statement.designation else "a designation"
            return f"{_EVENT[verb]} (ability of {of})", False
        return f"{_EVENT[verb]} (ability of #{statement.source.number})", False
    return None


def object_hover(document: OpenDocument, line: int, number: int) -> str:
    state = document.state_after(line)
    obj = state.obj(number)
    if obj is None:
        return f"**#{number}**: not introduced by line {line + 1}"
    number_of = document.document.number_of
    name = card_name(obj)
    kind = "" if obj.kind.value == "card" else f" {obj.kind.value}"
    whose = f" ({obj.owner}'s)" if obj.owner else ""
    head = f"**#{number}** {name}{kind}{whose}"
    if obj.source is not None:
        source = state.obj(obj.source)
        head += f", of #{obj.source} ({card_name(source)})"
    rows = [head, ""]
    rows.append(f"- owner: {obj.owner or '?'}, controller: {obj.controller or '—'}")
    since = obj.last_moved if obj.last_moved is not None else obj.introduced
    since_line = number_of(since)
    since_text = f" since line {since_line + 1}" if since_line is not None else ""
    rows.append(f"- after line {line + 1}: {where(obj)}{since_text}")
    introduced = number_of(obj.introduced)
    if introduced is not None:
        hidden = " hidden" if obj.introduced_hidden else ""
        rows.append(f"- introduced{hidden} at line {introduced + 1} in {obj.introduced_zone}")
    if obj.counters:
        rows.append("- counters: " + ", ".join(f"{n} {k}" for k, n in obj.counters))
    if obj.damage:
        rows.append(f"- {obj.damage} damage marked until the cleanup step (CR 514.2)")
    if obj.face_down:
        rows.append("- face down: only its controller may look at it (CR 708.5)")
    if obj.back_face:
        rows.append("- back face up (CR 712.8e, 712.8f)")
    rows.extend(f"- {words} (CR 709, 710, 712, 715, 716)" for words in card_part_words(obj))
    if obj.ring_bearer:
        rows.append(f"- {obj.controller}'s Ring-bearer (CR 701.54a)")
    if obj.kept_by_legend is not None:
        rows.append("- kept under the legend rule (CR 704.5j)")
    if obj.phased_out:
        how = " with what it is attached to" if obj.phased_indirectly else ""
        rows.append(f"- phased out{how}, under {obj.phased_under}'s control (CR 702.26b)")
    if obj.attacking:
        entered = ", put onto the battlefield attacking" if obj.entered_attacking else ""
        target = f" {obj.attack_target}" if isinstance(obj.attack_target, str) else ""
        if isinstance(obj.attack_target, int):
            target = f" #{obj.attack_target}"
        rows.append(f"- attacking{target}{entered}" + (", blocked" if obj.blocked else ""))
    if obj.blocking:
        rows.append("- blocking " + ", ".join(f"#{n}" for n in obj.blocking))
    for effect in obj.control_effects:
        rows.append(f"- control from #{effect.source} until {effect.until}, then {effect.previous}")
    rows.extend(f"- {words}" for words in attachment_words(obj, state))
    events = history(document, number, introduced or 0, line)
    if events:
        rows.append("- history: " + "; ".join(events))
    card = document.cards.lookup(obj.name) if document.cards and obj.name else None
    if card is not None and obj.kind.value == "card":
        rows += ["", "---", "", card_markdown(card)]
    return "\n".join(rows)


# ---- players, structure ----------------------------------------------------------------


def player_hover(document: OpenDocument, line: int, name: str) -> str:
    state = document.state_after(line)
    player = state.player(name)
    if player is None:
        return f'**"{name}"**: not a player by line {line + 1}'
    hand = len(state.in_zone("hand", name))
    library = "unknown" if player.library.size is None else str(player.library.size)
    rows = [f"**{name}** after line {line + 1}", ""]
    rows.append(f"- life {player.life}")
    if player.counters:
        rows.append("- counters: " + ", ".join(f"{n} {k}" for k, n in player.counters))
    rows.append(f"- hand {hand}, library {library}")
    graveyard = len(state.in_zone("graveyard", name))
    battlefield = sum(1 for o in state.in_zone("battlefield") if o.controller == name)
    rows.append(f"- battlefield {battlefield}, graveyard {graveyard}")
    if state.monarch == name:
        rows.append("- the monarch (CR 725)")
    if state.initiative == name:
        rows.append("- has the initiative (CR 726)")
    if player.citys_blessing:
        rows.append("- has the city's blessing (CR 702.131c)")
    if player.ring_tempted:
        rows.append(f"- {ring_words(state, player)} (CR 701.54)")
    if player.speed is not None:
        rows.append(f"- {speed_words(player.speed)} (CR 702.179)")
    rows.extend(f"- {words} (CR 309)" for words in dungeon_words(player))
    attached = state.attachments_of(name) if state.attached else []
    if attached:
        rows.append("- attached: " + ", ".join(o.label() for o in attached))
    if player.lost:
        rows.append("- has lost the game")
    return "\n".join(rows)


def state_hover(state: GameState, line: int) -> str:
    return f"**{turn_line(state)}** (after line {line + 1})\n\n```text\n{render_state(state)}\n```"


# ---- verbs and keywords: forms, decisions, CR quotations -------------------------------

_RULE_IN_TEXT = re.compile(r"(?<![\d.])(\d{3}\.\d+[a-z]?)")
_SNAPSHOT_PLAYER_KEYS = {
    "life": "snapshot_life_phrase",
    "library": "snapshot_library_phrase",
    "damage": "snapshot_commander_damage_phrase",
}


_JUDGE_FORMS = {
    "call": "judge_call_statement",
    "penalty": "judge_penalty_statement",
    "missed-trigger": "judge_missed_statement",
    "time": "judge_time_statement",
    "backup": "judge_backup_statement",
}


def form_keys(statement: t.Statement | None, token: t.Token, word: str) -> list[str]:
    """Where forms.toml keeps a word: statement forms by grammar rule, keywords as written."""
    if token.kind is t.TokenKind.VERB:
        if isinstance(statement, t.Phasing):
            return ["phasing_phrase"]
        if isinstance(statement, t.TurnFaceUp):
            return ["turn_face_phrase"]
        if isinstance(statement, t.Transform):
            return ["transform_phrase"]
        if isinstance(statement, t.Designation):
            return ["designation_phrase", word]
        if isinstance(statement, t.DayNight):
            return ["day_night_statement", word]
        if isinstance(statement, t.LegendChoice):
            return ["legend_choice_phrase"]
        if isinstance(statement, t.RingTempts):
            return ["ring_phrase"]
        if isinstance(statement, t.Venture):
            return ["venture_phrase"]
        if isinstance(statement, t.Speed):
            return ["speed_phrase"]
        if isinstance(statement, t.Complete):
            return ["complete_phrase"]
        if isinstance(statement, t.Flip):
            return ["flip_phrase"]
        if isinstance(statement, t.Unlock):
            return ["unlock_phrase"]
        if isinstance(statement, t.ClassLevel):
            return ["class_level_phrase"]
        if isinstance(statement, t.CoinFlip):
            return ["coin_phrase"]
        if isinstance(statement, t.Meld):
            return ["meld_phrase"]
        if isinstance(statement, t.AbilityOf) and statement.designation is not None:
            return ["designation_trigger_phrase"]
        if isinstance(statement, t.PlayerCounters):
            return ["player_counters_phrase"]
        if isinstance(statement, t.SnapshotPlayer):
            if statement.counter is not None:
                return ["snapshot_player_counters_phrase"]
            return [_SNAPSHOT_PLAYER_KEYS.get(word, ""), "keyframe_statement"]
        if isinstance(statement, t.GameDrawn):
            return ["game_drawn_statement"]
        if isinstance(statement, t.JudgeEvent):
            return [_JUDGE_FORMS[statement.event.value]]
        return [f"{word}_phrase", f"{word}_header", f"{word}_statement", word]
    if token.kind is t.TokenKind.STRING and isinstance(statement, t.ObjectStatement):
        if statement.name is not None and statement.name.span == token.span:
            return ["identify_name"]
        return []
    if isinstance(statement, t.New) and word in ("card", "hidden", "token", "copy", "commander"):
        return [f"new_{word}", "new_phrase"]
    keys = [word]
    if isinstance(statement, t.JudgeEvent):
        keys.append(_JUDGE_FORMS[statement.event.value])  # call, penalty...: their statement
    if isinstance(statement, t.SnapshotObject) and token.kind is t.TokenKind.ZONE:
        keys.append("snapshot_object_phrase")
    return keys


def keyword_hover(statement: t.Statement | None, token: t.Token, word: str) -> str | None:
    try:
        from mtgr.syntax.forms import load_forms

        forms = load_forms()
    except (ImportError, OSError, ValueError):  # no forms yet: hover still answers the rest
        return None
    form = next((forms[k] for k in form_keys(statement, token, word) if k in forms), None)
    if form is None:
        return None
    rows = [f"**{word}**: {form.meaning}"]
    if form.syntax:
        rows += ["", f"`{form.syntax}`"]
    if form.rules:
        rows += ["", "CR " + ", ".join(form.rules)]
    shown: set[str] = set()  # each Rules basis bullet once, under the first item it backs
    for reference in form.decisions:
        section = decision_markdown(reference, form.rules, shown)
        if section:
            rows += ["", section]
    return "\n".join(rows)


def decision_markdown(
    reference: str, form_rules: tuple[str, ...], shown: set[str] | None = None
) -> str | None:
    """One decision item with the Rules basis bullets that quote the CR rules behind it."""
    try:
        from mtgr.decisions import decision_item, load_decisions

        text = decision_item(reference)
        decision = load_decisions()[int(reference.split(".")[0])]
    except (ImportError, OSError, KeyError, ValueError):
        return None
    number, _, item = reference.partition(".")
    rows = [f"**Decision {number} item {item}** ({decision.title}): {' '.join(text.split())}"]
    wanted = dict.fromkeys((*form_rules, *_RULE_IN_TEXT.findall(text)))
    shown = set() if shown is None else shown
    bullets: dict[str, list[str]] = {}
    for cr in wanted:
        bullet = decision.rules_basis.get(cr)
        if bullet and bullet not in shown:
            bullets.setdefault(bullet, []).append(cr)
    for bullet, rules in bullets.items():
        shown.add(bullet)
        quoted = " ".join(bullet.split())
        numbered = _RULE_IN_TEXT.match(quoted) is not None
        rows.append(f"- {quoted}" if numbered else f"- CR {rules[0]}: {quoted}")
    return "\n".join(rows)


# ---- diagnostics ------------------------------------------------------------------------


def diagnostic_hover(document: OpenDocument, settings: Settings, line: int, column: int) -> str:
    parts: list[str] = []
    for diagnostic in document.diagnostics(settings):
        if diagnostic.line != line or not diagnostic.span.contains(column):
            continue
        found = rule(diagnostic.code)
        if found is None:
            parts.append(f"**{diagnostic.code}**: {diagnostic.message}")
            continue
        rows = [f"**{found.code}: {found.title}**", "", diagnostic.message]
        flags = found.doc.section("What it flags")
        if flags:
            rows += ["", "*What it flags*", "", flags]
        instead = found.doc.section("Use instead")
        if instead:
            rows += ["", "*Use instead*", "", instead]
        parts.append("\n".join(rows))
    return "\n\n---\n\n".join(parts)


# ---- CR numbers in comments --------------------------------------------------------------

_CR_NUMBER = re.compile(r"\b([1-9][0-9]{2}(?:\.[0-9]+[a-z]?)?)\b(?!\.[0-9])")
_RULE_START = re.compile(r"^([1-9][0-9]{2}(?:\.[0-9]+[a-z]?)?)\.?\s")


def cr_number_at(text: str, comment: t.Span, column: int) -> str | None:
    """A rule number (`614.6`, `704`, `101.4a`) under the cursor inside a comment."""
    for match in _CR_NUMBER.finditer(text, comment.start, comment.end):
        if match.start() <= column <= match.end():
            number = match.group(1)
            before = text[max(comment.start, match.start() - 3) : match.start()]
            if "." in number or "CR" in before:
                return number
    return None


@dataclass(frozen=True)
class _RulesText:
    rules: dict[str, str]


# The Comprehensive Rules are about 1 MB; a setting can name any path, so the server
# reads only a regular file, at most this big, on a worker thread and within a time limit.
MAX_RULES_FILE_BYTES = 16 * 1024 * 1024
RULES_READ_SECONDS = 2.0

_Stamp = tuple[int, int, int, int]  # device, inode, size, modification time
_loaded_rules: dict[str, tuple[_Stamp, _RulesText]] = {}


def _regular_file_stamp(path: str) -> _Stamp | None:
    """What identifies the file's contents, or None for anything but a regular file within
    the size limit (a FIFO, a device, /dev/stdin, a directory, a huge file)."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_RULES_FILE_BYTES:
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def _read_rules_file(path: str) -> str | None:
    """Opens without blocking (a FIFO put in the file's place after the stat is not waited
    on), checks again that it is a regular file, and reads at most the limit."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        data = file.read(MAX_RULES_FILE_BYTES + 1)
    if len(data) > MAX_RULES_FILE_BYTES:
        return None
    return data.decode("utf-8-sig", errors="replace")


def _parse_rules(text: str) -> _RulesText:
    rules: dict[str, list[str]] = {}
    current: list[str] | None = None
    started = False
    for raw in text.splitlines():
        line = raw.strip()
        match = _RULE_START.match(line)
        if match:
            number = match.group(1)
            if number == "100.1":
                started = True
                rules.clear()  # the contents list comes first; the rules themselves start here
            current = rules.setdefault(number, [])
            if current:  # a second entry for one number (glossary): keep the first
                current = None
                continue
            current.append(line)
            continue
        if line.lower() == "glossary" and started:
            current = None
            continue
        if current is not None and line:
            current.append(line)
    return _RulesText({k: "\n\n".join(v) for k, v in rules.items() if v})


def _rules_path(rules_file: str | None) -> str | None:
    if not rules_file:
        return None
    try:
        return str(Path(rules_file).expanduser())
    except RuntimeError:  # `~` with no home directory to stand for
        return None


async def load_rules(rules_file: str | None) -> None:
    """Reads the rules file named by the settings into memory, off the event loop, when
    it is not there yet or has changed; a file that cannot be read is left out."""
    path = _rules_path(rules_file)
    if path is None:
        return
    stamp = _regular_file_stamp(path)
    known = _loaded_rules.get(path)
    if stamp is None or (known is not None and known[0] == stamp):
        return
    try:
        text = await asyncio.wait_for(
            asyncio.to_thread(_read_rules_file, path), timeout=RULES_READ_SECONDS
        )
    except (OSError, TimeoutError, ValueError):
        return
    if text is not None:
        if len(_loaded_rules) >= 4:
            _loaded_rules.clear()
        _loaded_rules[path] = (stamp, _parse_rules(text))


def rule_text(rules_file: str | None, number: str) -> str | None:
    """The rule's text from the file `load_rules` read; never reads a file itself."""
    path = _rules_path(rules_file)
    if path is None:
        return None
    known = _loaded_rules.get(path)
    if known is None or known[0] != _regular_file_stamp(path):
        return None
    text = known[1].rules.get(number)
    return f"**CR {number}**\n\n{text}" if text else None


# ---- the handler ---------------------------------------------------------------------------


def hover_markdown(
    document: OpenDocument, settings: Settings, line: int, column: int
) -> str | None:
    """Everything to say at a code-point position, or None."""
    if not 0 <= line < len(document.document):
        return None
    parsed = document.document.lines[line].parsed
    text = document.document.texts[line]
    sections: list[str] = []
    if parsed.comment is not None and parsed.comment.contains(column):
        number = cr_number_at(text, parsed.comment, column)
        found = rule_text(document.rules_file(settings), number) if number else None
        if found:
            sections.append(found)
    else:
        main = _main_hover(document, parsed, line, column)
        if main:
            sections.append(main)
    explained = diagnostic_hover(document, settings, line, column)
    if explained:
        sections.append(explained)
    return "\n\n---\n\n".join(sections) if sections else None


def _main_hover(document: OpenDocument, parsed: t.ParsedLine, line: int, column: int) -> str | None:
    statement = parsed.statement
    if statement is None:
        return None
    token = token_at(parsed, column)
    ref = ref_at(statement, column)
    if isinstance(ref, t.ObjectRef):
        return object_hover(document, line, ref.number)
    if isinstance(ref, t.PlayerRef):
        return player_hover(document, line, ref.name)
    if token is None:
        return None
    word = document.document.texts[line][token.span.start : token.span.end]
    if isinstance(statement, t.Turn | t.PhaseOrStep):
        verb = statement.verb.value
        meaning = keyword_hover(statement, t.Token(statement.verb.span, t.TokenKind.VERB), verb)
        state = state_hover(document.state_after(line), line)
        return f"{meaning}\n\n{state}" if meaning else state
    if token.kind is t.TokenKind.COMMENT:
        return None
    meaning = keyword_hover(statement, token, word)
    named = _named_object(statement, token)
    if named is not None:  # a card name: what the object it names is doing
        card = object_hover(document, line, named)
        return f"{meaning}\n\n---\n\n{card}" if meaning else card
    return meaning


def _named_object(statement: t.Statement, token: t.Token) -> int | None:
    """The object a card-name string on this line names, if the token is one."""
    if token.kind is not t.TokenKind.STRING:
        return None
    if isinstance(statement, t.Draw):
        return statement.drawn.number
    if isinstance(statement, t.New) and statement.what.value == "copy":
        return None
    if isinstance(statement, t.ObjectStatement):
        texts = (statement.name, getattr(statement, "card", None))
        if any(isinstance(x, t.Text) and x.span == token.span for x in texts):
            return statement.subject.number
    return None


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return None
        await load_rules(document.rules_file(document.settings))
        document = server.session.get(params.text_document.uri)
        if document is None:  # closed while the rules were read
            return None
        line, column = document.to_column_position(params.position)
        markdown = hover_markdown(document, document.settings, line, column)
        if not markdown:
            return None
        token_range = _hover_range(document, line, column)
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
            range=token_range,
        )


def _hover_range(document: OpenDocument, line: int, column: int) -> types.Range | None:
    token = token_at(document.document.lines[line].parsed, column)
    if token is None or token.kind is t.TokenKind.COMMENT:
        return None
    return document.range(line, token.span)
