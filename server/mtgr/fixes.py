"""Fixes: each rewrites the lines a diagnostic is about into the encoding asked for.

A fix is worked out from the diagnostic's code and place and from the document as it is
now (the rebuilt state before the line), never from a copy of the message, so a stale
diagnostic gets no fix rather than a wrong one. Fixes are plain data in code-point
columns (`Fix`, `Edit`), shared by the language server's quick fixes and `mtgr check
--fix`, so tests can apply them to a text and check it again. Every checker diagnostic
also gets "silence on this line" (`// allow CODE`, CR 733); syntax errors cannot be
silenced, but a misspelt word gets the closest word the grammar takes there. A fix is `safe` when it only re-encodes what the record already says (moving a
line, dropping a repeated name, renumbering); `mtgr check --fix` applies only those.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from mtgr.cards.model import CardIndex
from mtgr.check import Diagnostic, diagnostics, silences
from mtgr.rules.checks.a101_unknown_card_name import SUGGESTIONS
from mtgr.rules.context import Finding
from mtgr.rules.registry import Severity
from mtgr.rules.state import GameState, casting_stage
from mtgr.rules.walk import Walk, end_of_file, state_before, step, walk
from mtgr.syntax import tree as t
from mtgr.syntax.document import Document, parse_line, split_lines
from mtgr.syntax.occurrences import occurrences_in_line
from mtgr.syntax.parser import suggested_word
from mtgr.syntax.tree import Line

_ALLOW = re.compile(r"\ballow\s*:?\s*((?:[A-Z]+[0-9]+)(?:\s*,?\s*[A-Z]+[0-9]+)*)")
_REPLACEMENT_ZONES = ("battlefield", "command")
MAX_CANDIDATES = 8


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text from (line, start) to (end_line, end), in code-point columns."""

    line: int
    start: int
    end_line: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    code: str
    edits: tuple[Edit, ...]
    preferred: bool = False
    safe: bool = False  # only re-encodes what the record says: `mtgr check --fix` applies it

    def edits_on(self, line: int) -> list[Edit]:
        """The edits within one line, moved to line 0: to apply them to that line alone."""
        return [
            Edit(0, e.start, 0, e.end, e.text)
            for e in self.edits
            if e.line == line and e.end_line == line
        ]


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """The text after the edits (which must not overlap): how tests check a fix."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    result = text
    for edit in sorted(edits, key=lambda e: (e.line, e.start), reverse=True):
        start = offsets[edit.line] + edit.start
        end = offsets[edit.end_line] + edit.end
        result = result[:start] + edit.text + result[end:]
    return result


# ---- building blocks -------------------------------------------------------------------


class Checked(Protocol):
    """A document and its walk: the server's open document, or `CheckedText`."""

    document: Document

    @property
    def cards(self) -> CardIndex | None: ...

    def state_before(self, line: int) -> GameState: ...


class CheckedText:
    """A whole text checked once: what the command line fixes."""

    def __init__(
        self, text: str, cards: CardIndex | None = None, perspective: str | None = None
    ) -> None:
        self.document = Document(text)
        self.walk: Walk = walk(self.document.lines, cards, perspective)

    @property
    def cards(self) -> CardIndex | None:
        return self.walk.cards

    def state_before(self, line: int) -> GameState:
        return state_before(self.walk, self.document.lines, line)

    def diagnostics(
        self, severities: Mapping[str, Severity | None] | None = None
    ) -> list[Diagnostic]:
        return diagnostics(self.document, self.walk, severities)


class _Doc:
    """The document as the fixes see it: texts, parsed lines, states, line ids."""

    def __init__(self, document: Checked) -> None:
        self.document = document
        self.texts = document.document.texts
        self.lines = document.document.lines

    def statement(self, line: int) -> t.Statement | None:
        return self.lines[line].parsed.statement if 0 <= line < len(self.lines) else None

    def index(self, line_id: int | None) -> int | None:
        return self.document.document.number_of(line_id)

    def delete_line(self, line: int) -> Edit:
        if line + 1 < len(self.texts):
            return Edit(line, 0, line + 1, 0, "")
        if line > 0:
            return Edit(line - 1, len(self.texts[line - 1]), line, len(self.texts[line]), "")
        return Edit(line, 0, line, len(self.texts[line]), "")

    def remove_word(self, line: int, span: t.Span) -> Edit:
        """A token and the blanks before it: the rest of the line stays single-spaced."""
        text = self.texts[line]
        start = span.start
        while start > 0 and text[start - 1] in " \t":
            start -= 1
        return Edit(line, start, line, span.end, "")


def _fix_v702(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """`new hidden` then named at once: `new card "X"` on the introducing line."""
    statement = doc.statement(line)
    if isinstance(statement, t.Draw):
        number, name = statement.drawn.number, statement.card
    elif isinstance(statement, t.Identify):
        number, name = statement.subject.number, statement.card
    elif isinstance(statement, t.ObjectStatement):
        number, name = statement.subject.number, statement.name
    else:
        return []
    obj = doc.document.state_before(line).obj(number)
    intro = doc.index(obj.introduced) if obj is not None else None
    new = doc.statement(intro) if intro is not None else None
    if name is None or intro is None or not isinstance(new, t.New) or new.what.value != "hidden":
        return []
    edits = [
        Edit(intro, new.what.span.start, intro, new.what.span.end, f"card {quote(name.value)}")
    ]
    if isinstance(statement, t.Identify):
        edits.append(doc.delete_line(line))
        title = f'Introduce #{number} as `new card "{name.value}"` and delete the identify line'
    else:
        edits.append(doc.remove_word(line, name.span))
        title = f'Introduce #{number} as `new card "{name.value}"` and drop the name here'
    return [Fix(title, "V702", tuple(edits), preferred=True, safe=True)]


def _fix_p505(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """Entering counters: move the line to straight after the move (and its other counters)."""
    statement = doc.statement(line)
    if not isinstance(statement, t.ObjectCounters):
        return []
    number = statement.subject.number
    obj = doc.document.state_before(line).obj(number)
    if obj is None:
        return []
    target = doc.index(obj.last_moved if obj.last_moved is not None else obj.introduced)
    if target is None or target >= line:
        return []
    while target + 1 < line and _own_counters(doc.statement(target + 1), number):
        target += 1
    if target + 1 == line:
        return []
    moved = [doc.texts[line], *doc.texts[target + 1 : line]]
    edit = Edit(target + 1, 0, line, len(doc.texts[line]), "\n".join(moved))
    title = f"Move this line to straight after #{number}'s move (line {target + 1})"
    return [Fix(title, "P505", (edit,), preferred=True, safe=True)]


def _own_counters(statement: t.Statement | None, number: int) -> bool:
    return isinstance(statement, t.ObjectCounters) and statement.subject.number == number


def _fix_d801(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """Damage without its result: the life (or loyalty) line, with the damage's source."""
    statement = doc.statement(line)
    if not isinstance(statement, t.Damage) or statement.amount.value <= 0:
        return []
    source, amount = statement.subject.number, statement.amount.value
    recipient = statement.recipient
    state = doc.document.state_before(line)
    if state.obj(source) is None:
        return []  # an unknown source: the result line would only repeat O201
    if isinstance(recipient, t.PlayerRef):
        if state.player(recipient.name) is None:
            return []
        result = f"{quote(recipient.name)} life -{amount} by #{source}"
    else:
        target = state.obj(recipient.number)
        if target is None:
            return []
        kind = "defense" if target is not None and target.counter("defense") else "loyalty"
        result = f"#{recipient.number} counters -{amount} {kind} by #{source}"
    later = _written_later(doc, line, statement)
    if later is not None:  # the result is there, but too late: bring it up
        moved = [doc.texts[later], *doc.texts[line + 1 : later]]
        edit = Edit(line + 1, 0, later, len(doc.texts[later]), "\n".join(moved))
        title = f"Move `{doc.texts[later].strip()}` (line {later + 1}) to straight after the damage"
        return [Fix(title, "D801", (edit,), preferred=True, safe=True)]
    end = len(doc.texts[line])
    # not safe: the damage may have had another result (infect, prevention) the writer knows
    title = f"Insert `{result}` after the damage"
    return [Fix(title, "D801", (Edit(line, end, line, end, "\n" + result),), preferred=True)]


def _written_later(doc: _Doc, line: int, damage: t.Damage) -> int | None:
    """A result line for this damage further down in the same turn, if the writer put one."""
    source, amount = damage.subject.number, damage.amount.value
    for index in range(line + 1, len(doc.lines)):
        statement = doc.statement(index)
        if isinstance(statement, t.Turn | t.GameStart):
            return None
        cause = statement.cause if statement is not None else None
        if cause is None or not isinstance(cause.agent, t.ObjectRef):
            continue
        if cause.agent.number != source or statement is None:
            continue
        recipient = damage.recipient
        if (
            isinstance(statement, t.Life)
            and isinstance(recipient, t.PlayerRef)
            and statement.subject.name == recipient.name
            and statement.delta.value == -amount
        ) or (
            isinstance(statement, t.ObjectCounters)
            and isinstance(recipient, t.ObjectRef)
            and statement.subject.number == recipient.number
            and statement.delta.value == -amount
        ):
            return index
    return None


def _fix_v701(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """A hidden card out of order: swap its number with the lowest one from this line on."""
    statement = doc.statement(line)
    if not isinstance(statement, t.ObjectStatement):
        return []
    number = statement.subject.number
    state = doc.document.state_before(line)
    obj = state.obj(number)
    hidden = state.hidden_in_hand(obj.owner) if obj is not None else []
    if not hidden or hidden[0] == number:
        return []
    lowest = hidden[0]
    swap = {number: f"#{lowest}", lowest: f"#{number}"}
    edits = [
        Edit(o.line, o.span.start, o.line, o.span.end, swap[o.number])
        for i in range(line, len(doc.lines))
        for o in occurrences_in_line(doc.texts[i], doc.lines[i].parsed, i)
        if o.number in swap
    ]
    title = (
        f"Write #{lowest} here (the lowest-numbered hidden card): "
        f"swap #{number} and #{lowest} from here on"
    )
    return [Fix(title, "V701", tuple(edits), preferred=True, safe=True)]


def _fix_n105(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """A name given again: leave it out (an `identify` that says nothing new goes)."""
    statement = doc.statement(line)
    if isinstance(statement, t.Identify):
        return [
            Fix(
                "Delete this identify line: the name is known",
                "N105",
                (doc.delete_line(line),),
                preferred=True,
                safe=True,
            )
        ]
    text = doc.texts[line]
    if not text[span.start : span.end].startswith('"'):
        return []
    name = text[span.start : span.end]
    return [Fix(f"Leave out the name {name}", "N105", (doc.remove_word(line, span),), True, True)]


def _fix_n107(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """An implied player named: leave the name out."""
    parsed = doc.lines[line].parsed
    if not any(k.span == span and k.kind is t.TokenKind.PLAYER for k in parsed.tokens):
        return []
    name = doc.texts[line][span.start : span.end]
    return [Fix(f"Leave out {name}", "N107", (doc.remove_word(line, span),), True, True)]


def _fix_r601(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """A replaced event: add `replacement #R`, for each likely replacement object."""
    statement = doc.statement(line)
    if not isinstance(statement, t.Move) or statement.replacements:
        return []
    state = doc.document.state_before(line)
    subject = statement.subject.number
    used = {
        r.number
        for other in doc.lines
        if other.parsed.statement is not None
        for r in other.parsed.statement.replacements
    }
    sources = {e.source for e in state.effects}

    def present(number: int) -> bool:
        obj = state.obj(number)
        return obj is not None and number != subject and obj.zone in _REPLACEMENT_ZONES

    likely = sorted(
        {n for n in used if present(n)}
        | {n for n in sources if n != subject and state.obj(n) is not None}
    )
    if not likely:
        likely = sorted(o.number for o in state.objects.values() if present(o.number))
    end = statement.span.end
    fixes = []  # never safe: which object replaced the event is the writer's to say
    for number in likely[:MAX_CANDIDATES]:
        obj = state.obj(number)
        label = f" ({obj.name})" if obj is not None and obj.name else ""
        fixes.append(
            Fix(
                f"Add `replacement #{number}`{label}",
                "R601",
                (Edit(line, end, line, end, f" replacement #{number}"),),
                preferred=len(likely) == 1,
            )
        )
    return fixes


def _fix_k332(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """A casting line written too late: move it up to before the first line of the part
    that must follow it (CR 601.2 order, decision 0045)."""
    statement = doc.statement(line)
    state = doc.document.state_before(line)
    casting = state.casting
    if statement is None or casting is None:
        return []
    stage = casting_stage(state, casting, statement)
    if stage is None:
        return []
    later = [doc.index(i) for i in casting.starts[stage + 1 :] if i is not None]
    targets = [i for i in later if i is not None and i < line]
    if not targets:
        return []
    target = min(targets)
    moved = [doc.texts[line], *doc.texts[target:line]]
    edit = Edit(target, 0, line, len(doc.texts[line]), "\n".join(moved))
    title = f"Move this line up to line {target + 1}, in the order of CR 601.2"
    return [Fix(title, "K332", (edit,), preferred=True, safe=True)]


def _fix_k333(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """A cast's cause: drop the card's own number, or name the resolving madness trigger."""
    statement = doc.statement(line)
    if not isinstance(statement, t.Cast):
        return []
    number = statement.subject.number
    cause = statement.cause
    if cause is not None and isinstance(cause.agent, t.ObjectRef) and cause.agent.number == number:
        text = doc.texts[line]
        start = cause.keyword.start
        while start > 0 and text[start - 1] in " \t":
            start -= 1
        edit = Edit(line, start, line, cause.agent.span.end, "")
        return [
            Fix(
                f"Remove `by #{number}`: the card's own keyword is its mode",
                "K333",
                (edit,),
                preferred=True,
                safe=True,
            )
        ]
    state = doc.document.state_before(line)
    trigger = state.obj(state.resolving) if state.resolving is not None else None
    if cause is not None or trigger is None or trigger.source != number:
        return []
    end = max(
        [statement.subject.span.end, statement.verb.span.end]
        + [m.span.end for m in statement.modes]
        + ([statement.source.span.end] if statement.source is not None else [])
        + ([statement.caster.span.end] if statement.caster is not None else [])
    )
    edit = Edit(line, end, line, end, f" by #{trigger.number}")
    title = f"Add `by #{trigger.number}`, the madness trigger"
    return [Fix(title, "K333", (edit,), preferred=True, safe=True)]


def _fix_a101(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """A card name the index does not know: one fix a close name, quotes and all."""
    cards = doc.document.cards
    written = doc.texts[line][span.start : span.end]
    if cards is None or not (written.startswith('"') and written.endswith('"')):
        return []
    return [
        Fix(
            f'Use the card name "{name}"',
            "A101",
            (Edit(line, span.start, line, span.end, quote(name)),),
            preferred=i == 0,
        )
        for i, name in enumerate(cards.close_names(written[1:-1], SUGGESTIONS))
    ]


def _fix_n103(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """The turn's untaps written before `step untap`: the line that begins the step, right
    after the turn line (decision 0010 items 3 and 5)."""
    state = doc.document.state_before(line)
    statement = doc.statement(line)
    turn = state.turn
    if (
        not isinstance(statement, t.TapChange)
        or statement.verb.value != "untap"
        or turn.position != -1
        or turn.number <= 0
    ):
        return []
    turn_line = doc.index(turn.line)
    if turn_line is None or turn_line >= line:
        return []
    edit = Edit(turn_line + 1, 0, turn_line + 1, 0, "step untap\n")
    return [Fix("Write `step untap` after the turn line", "N103", (edit,), True, safe=True)]


def _fix_s001(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """A misspelt word: the word the grammar takes there that is closest to it."""
    suggestion = suggested_word(doc.texts[line])
    if suggestion is None or suggestion[0].start != span.start:
        return []
    place, word = suggestion
    return [Fix(f'Write "{word}"', "S001", (Edit(line, place.start, line, place.end, word),), True)]


_FIXERS: dict[str, Callable[[_Doc, int, t.Span], list[Fix]]] = {
    "V702": _fix_v702,
    "P505": _fix_p505,
    "D801": _fix_d801,
    "V701": _fix_v701,
    "N105": _fix_n105,
    "N107": _fix_n107,
    "R601": _fix_r601,
    "K332": _fix_k332,
    "K333": _fix_k333,
    "A101": _fix_a101,
    "S001": _fix_s001,
    "N103": _fix_n103,
}


def allow_fix(doc: _Doc, code: str, line: int) -> Fix:
    """`// allow CODE` on the line: added to an allow list, a comment, or a new comment."""
    text = doc.texts[line]
    parsed = doc.lines[line].parsed
    title = f"Silence {code} on this line (// allow {code})"
    if parsed.comment is not None:
        match = _ALLOW.search(text, parsed.comment.start)
        if match is not None:
            return Fix(title, code, (Edit(line, match.end(1), line, match.end(1), f", {code}"),))
        end = parsed.comment.end
        return Fix(title, code, (Edit(line, end, line, end, f"; allow {code}"),))
    end = len(text.rstrip())
    return Fix(title, code, (Edit(line, end, line, len(text), f" // allow {code}"),))


def fixes(document: Checked, code: str, line: int, span: t.Span) -> list[Fix]:
    """Every fix for one diagnostic: the specific ones first, then silencing it.

    A specific fix is offered only when re-checking the text it leaves shows one finding
    of its code fewer and no other new one: a fix that would trade one error for another
    (a life line that a later keyframe contradicts) is worse than none.
    """
    doc = _Doc(document)
    if not 0 <= line < len(doc.lines):
        return []
    fixer = _FIXERS.get(code)
    found = [f for f in (fixer(doc, line, span) if fixer is not None else []) if _holds(doc, f)]
    if not silences(code):
        return found  # a line that does not parse is always reported (decision 0002 item 8)
    silence = allow_fix(doc, code, line)
    if code not in parse_line(apply_edits(doc.texts[line], silence.edits_on(line))).allowed:
        return found  # e.g. after an unterminated string the comment would be part of it
    return [*found, silence]


def _holds(doc: _Doc, fix: Fix) -> bool:
    first = min(e.line for e in fix.edits)
    # a line that did not parse was never checked: once it parses, what the checker finds
    # on it is news about that line; everywhere else the fix must add nothing
    own = fix.edits[0].line if fix.code == "S001" else None
    if own is not None and parse_line(apply_edits(doc.texts[own], fix.edits_on(own))).error:
        return False
    state = doc.document.state_before(first)
    before = _findings_from(doc, first, doc.texts, state.snapshot(), own)
    fixed = split_lines(apply_edits("\n".join(doc.texts), fix.edits))
    after = _findings_from(doc, first, fixed, state, own)
    if own is not None:
        return not after - before
    return after[fix.code] < before[fix.code] and not after - before


def _findings_from(
    doc: _Doc, first: int, texts: Sequence[str], state: GameState, leaving_out: int | None = None
) -> Counter[str]:
    """The codes found from line `first` to the end, walking on from the state before it,
    but those on line `leaving_out`."""
    allowed = {line.id: line.parsed.allowed for line in doc.lines[:first]}
    emitted: list[Finding] = []
    for i, text in enumerate(texts[first:]):
        line = Line(-10 - i, parse_line(text))  # ids that no real line has
        if first + i != leaving_out:
            allowed[line.id] = line.parsed.allowed
        state = step(state, line, emitted, doc.document.cards)
    emitted.extend(end_of_file(state, doc.document.cards))
    return Counter(
        f.code
        for f in emitted
        if f.line in allowed and (f.code not in allowed[f.line] or not silences(f.code))
    )


# ---- every safe fix at once (mtgr check --fix) -------------------------------------------

MAX_FIX_ROUNDS = 20


def fix_all(
    text: str,
    severities: Mapping[str, Severity | None] | None = None,
    cards: CardIndex | None = None,
    perspective: str | None = None,
) -> tuple[str, Counter[str]]:
    """The text with every safe fix applied, and how many of each code were fixed; checked
    as `check_text` does, with the same `perspective` assumed.

    Each round takes one safe fix a diagnostic, as long as their lines do not overlap,
    and checks the text again; fixes taken together that would leave a code more often
    than before are taken one at a time instead. The text is LF-separated.
    """
    applied: Counter[str] = Counter()
    for _ in range(MAX_FIX_ROUNDS):
        checked = CheckedText(text, cards, perspective)
        found = checked.diagnostics(severities)
        chosen = _disjoint_safe_fixes(checked, found)
        if not chosen:
            break
        fixed = apply_edits(text, [e for fix in chosen for e in fix.edits])
        if len(chosen) > 1 and not _no_worse(
            found, CheckedText(fixed, cards, perspective).diagnostics(severities)
        ):
            chosen = chosen[:1]
            fixed = apply_edits(text, chosen[0].edits)
        text = fixed
        applied.update(fix.code for fix in chosen)
    return text, applied


def _disjoint_safe_fixes(checked: CheckedText, found: Sequence[Diagnostic]) -> list[Fix]:
    chosen: list[Fix] = []
    taken: list[tuple[int, int]] = []
    for diagnostic in found:
        for fix in fixes(checked, diagnostic.code, diagnostic.line, diagnostic.span):
            if not fix.safe:
                continue
            lines = (min(e.line for e in fix.edits), max(e.end_line for e in fix.edits))
            if all(lines[1] < first or last < lines[0] for first, last in taken):
                chosen.append(fix)
                taken.append(lines)
            break
    return chosen


def _no_worse(before: Sequence[Diagnostic], after: Sequence[Diagnostic]) -> bool:
    return not Counter(d.code for d in after) - Counter(d.code for d in before)
