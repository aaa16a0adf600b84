"""What a rule sees when it checks a line, and what it reports."""

from __future__ import annotations

from dataclasses import dataclass

from mtgr.cards.model import Card, CardIndex
from mtgr.rules.registry import Rule, Severity
from mtgr.rules.state import GameObject, GameState, LineId, ObjectKind
from mtgr.syntax import tree as t


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that explains a finding: where an object was introduced, or last moved."""

    line: LineId
    span: t.Span | None
    message: str


def tapped_here(obj: GameObject) -> tuple[Related, ...]:
    """Where a tapped permanent was tapped (its `tap` line, or the `attack` of a creature
    without vigilance), when the lines show it: a creature that attacked stays tapped
    until its controller's untap step, the usual surprise."""
    if obj.tapped_at is None:
        return ()
    return (Related(obj.tapped_at, None, f"{obj.label()} was tapped here"),)


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    line: LineId
    span: t.Span
    message: str
    related: tuple[Related, ...] = ()


# Oracle words of a permanent that takes on another's characteristics (CR 707.5)
BECOMES_A_COPY = ("as a copy of", "becomes a copy of", "become a copy of")


class Context:
    """The state before a line, the line itself, the findings it has produced so far, and
    the card index when there is one (card-aware rules stay silent without it)."""

    __slots__ = ("cards", "findings", "line", "state", "statement")

    def __init__(
        self,
        state: GameState,
        line: LineId,
        statement: t.Statement | None,
        findings: list[Finding],
        cards: CardIndex | None = None,
    ) -> None:
        self.cards = cards
        self.state = state
        self.line = line
        self.statement = statement
        self.findings = findings

    def report(
        self,
        rule: Rule,
        message: str,
        span: t.Span | None = None,
        *,
        line: LineId | None = None,
        related: tuple[Related, ...] = (),
    ) -> None:
        self.findings.append(
            Finding(
                rule.code,
                rule.severity,
                self.line if line is None else line,
                span or (self.statement.span if self.statement is not None else t.Span(0, 0)),
                message,
                related,
            )
        )

    def card(self, obj: GameObject | None, written: t.Text | None = None) -> Card | None:
        """The card an object is, by its name or the name this line gives it; None without an
        index, for a hidden object, for a name the index does not know, for a face-down
        object the line does not name (a face-down permanent is a 2/2 creature with no name
        and no text, whatever its card: CR 708.2a), and for a permanent whose printed card
        may not be what it is (`wears_another_card`) that the line does not name."""
        if self.cards is None or (obj is not None and obj.face_down and written is None):
            return None
        name = written.value if written is not None else obj.name if obj is not None else None
        if name is None or (obj is not None and obj.kind is not ObjectKind.CARD):
            return None
        card = self.cards.lookup(name)
        if written is None and obj is not None and card is not None:
            return None if self.wears_another_card(obj, card) else card
        return card

    def wears_another_card(self, obj: GameObject, card: Card) -> bool:
        """Whether a permanent may have characteristics its printed card does not give, which
        the lines do not say: a melded permanent has only those of its pair's combined back
        face (CR 712.8g), and a clone or shapeshifter those of what it copies (CR 707.2,
        707.5), whether its own text or a lasting effect made it a copy: one on it, or on no
        object in particular (Mirrorweave makes each other creature a copy)."""
        if obj.zone != "battlefield":
            return False
        if obj.melded_with is not None:
            return True
        if any(card.text_mentions(words) for words in BECOMES_A_COPY):
            return True
        return any(
            effect.on in (obj.number, None)
            and ("copy" in effect.text.casefold() or "copies" in effect.text.casefold())
            for effect in self.state.effects
        )

    def where(self, obj: GameObject) -> tuple[Related, ...]:
        """Related locations for an object: where it was introduced and where it last moved."""
        related = [Related(obj.introduced, None, f"{obj.label()} introduced here")]
        if obj.last_moved is not None and obj.last_moved != obj.introduced:
            related.append(Related(obj.last_moved, None, f"{obj.label()} last moved here"))
        return tuple(related)
