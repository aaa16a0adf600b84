"""What the card-aware rules (the A1xx codes) ask about the cards in play.

A printed characteristic is only where a rule starts: effects, other permanents and the
card's own abilities can give an object haste, flash or a creature type. A card-aware rule
therefore stays silent whenever something the lines show could have changed what it reads:
a lasting effect on the object or on no object in particular, or a permanent (the object
itself included) whose Oracle text mentions the quality (decision 0050 item 3; another
permanent's lines that list only its own keywords give it nothing), or a token attached
to it (a Role: the lines never give a token's text), a token named after a card (most
likely a copy of it, whose text it has), or one whose
text is not its printed card's (a clone, a melded permanent) or that the card index does not
know (decision 0050 item 4: the index may be older than the card); an emblem, whose abilities
work in the command zone (CR 114.4); a card in a graveyard whose ability works there
(Anger, CR 113.6b).
"""

from __future__ import annotations

import re

from mtgr.cards.model import Card, Face
from mtgr.rules.context import Context
from mtgr.rules.state import THE_RING, GameObject, ObjectKind
from mtgr.syntax import tree as t


def could_be_given(
    ctx: Context,
    obj: GameObject,
    phrases: tuple[str, ...],
    any_effect_on_it: bool = False,
    from_spells: bool = False,
) -> bool:
    """Whether the object's own text, a recorded effect or a permanent on the battlefield
    mentions one of the phrases (casefolded), so that it may have the quality they name;
    with `any_effect_on_it`, every lasting effect on the object counts; with `from_spells`,
    so does an instant or sorcery in a graveyard or exile whose text mentions one (a
    record may leave out the lasting effect a combat trick left, decision 0013 item 5)."""
    for kind, _count in obj.counters:  # a keyword counter gives its keyword (CR 122.1b)
        if any(phrase.strip() in kind.replace("-", " ") for phrase in phrases):
            return True
    for effect in ctx.state.effects:
        if effect.on in (None, obj.number) or effect.source == obj.number:
            if any_effect_on_it and effect.on == obj.number:
                return True
            text = effect.text.casefold()
            if any(phrase in text for phrase in phrases):
                return True
    objects = ctx.state.objects.values()
    others = [obj, *(o for o in objects if o.zone == "battlefield")]
    for other in others:
        card = ctx.card(other)
        if card is not None:
            # another permanent's keyword lines are its own: only its other text may give
            mentions = card.text_mentions if other is obj else card.text_mentions_beyond_keywords
            if any(mentions(phrase) for phrase in phrases):
                return True
        if card is None and other is not obj and other.attached_to == obj.number:
            return True  # a token attached to it (a Role, an Aura token): its text is not known
        if card is None and other is not obj and other.name is not None and ctx.cards:
            if other.kind is ObjectKind.TOKEN and not other.face_down:
                # a token named after a card is most likely a copy of it (CR 707.2)
                copied = ctx.cards.lookup(other.name)
                if copied is not None and any(
                    copied.text_mentions_beyond_keywords(phrase) for phrase in phrases
                ):
                    return True
                continue
            if other.kind is not ObjectKind.CARD or other.face_down:
                continue  # a copy on the stack or a face-down permanent: no card to read
            printed = ctx.cards.lookup(other.name)
            if printed is None or ctx.wears_another_card(other, printed):
                # a card the index does not know (A101: a newer set), a clone, a melded
                # permanent: its text is not on the lines, and may give anything
                return True
    for other in objects:
        if from_spells and other.zone in ("graveyard", "exile") and ctx.cards is not None:
            card = ctx.card(other)
            if (
                card is not None
                and (card.any_face_has_type("Instant") or card.any_face_has_type("Sorcery"))
                and any(card.text_mentions_beyond_keywords(phrase) for phrase in phrases)
            ):
                return True
        if other.zone == "command" and other.kind is ObjectKind.EMBLEM:
            if _emblem_could_give(ctx, other, phrases):
                return True
        elif other.zone == "graveyard" and ctx.cards is not None:
            card = ctx.card(other)  # Anger: "As long as Anger is in your graveyard"
            if (
                card is not None
                and card.text_mentions("is in your graveyard")
                and any(card.text_mentions(phrase) for phrase in phrases)
            ):
                return True
    return False


def _emblem_could_give(ctx: Context, emblem: GameObject, phrases: tuple[str, ...]) -> bool:
    """Whether an emblem's abilities, which work in the command zone (CR 114.4), may give
    the quality: the text of the planeswalker its name names says, and an emblem whose
    card the index does not know may (the lines never give an emblem's text)."""
    name = (emblem.name or "").removesuffix(" emblem").removesuffix(" Emblem")
    if name.casefold() == THE_RING.casefold() or ctx.cards is None:
        return name.casefold() != THE_RING.casefold()
    card = ctx.cards.lookup(name) if name else None
    return card is None or any(card.text_mentions(phrase) for phrase in phrases)


# keyword abilities that are static: a card whose keywords are all among them has no
# triggered or activated ability beyond its text's lines (prowess, ward, exalted, dash,
# undying are triggered, and written as keywords alone)
STATIC_KEYWORDS = frozenset(
    [
        *("flying", "haste", "trample", "vigilance", "reach", "menace", "deathtouch"),
        *("lifelink", "hexproof", "indestructible", "defender", "flash", "shroud"),
        *("first strike", "double strike", "intimidate", "fear"),
    ]
)
# text that gives other permanents abilities ("Other creatures you control have exalted",
# "Creatures you control have '{T}: ...'") or makes them copies as they enter
GIVES_ABILITIES = ("have ", "has ", "copy")


def only_static_keywords(card: Card) -> bool:
    """Whether every keyword of the card is a static one (no triggered or activated ability
    hides in a keyword: Goblin Guide's haste, not Sage-Eye Avengers' prowess)."""
    return all(keyword.casefold() in STATIC_KEYWORDS for keyword in card.keywords)


def moved_by_an_object(ctx: Context, move: t.Move) -> tuple[GameObject, GameObject] | None:
    """The object a move's cause names and the object moved, when both are known."""
    cause = move.cause
    if cause is None or not isinstance(cause.agent, t.ObjectRef):
        return None
    causing = ctx.state.obj(cause.agent.number)
    moved = ctx.state.obj(move.subject.number)
    return None if causing is None or moved is None else (causing, moved)


def activated_under_the_rules(ctx: Context, line: t.AbilityOf) -> GameObject | None:
    """The permanent an `activate of` line activates an ability of, when no effect allows
    the activation (no `by`, decision 0070) and the step is written whole; else None."""
    state = ctx.state
    if line.verb.value != "activate" or line.source is None or line.cause is not None:
        return None
    if state.incomplete_since_step or state.turn.player is None:
        return None
    permanent = state.obj(line.source.number)
    return permanent if permanent is not None and permanent.zone == "battlefield" else None


def whose_text(ctx: Context, obj: GameObject) -> GameObject | None:
    """The object whose printed text a spell or ability carries out: an ability's source,
    or the spell itself."""
    return ctx.state.obj(obj.source) if obj.kind is ObjectKind.ABILITY and obj.source else obj


def may_gain_abilities(ctx: Context, number: int) -> bool:
    """Whether a lasting effect on the object, or a permanent attached to it, may give it
    abilities its card does not have."""
    state = ctx.state
    if any(effect.on == number for effect in state.effects):
        return True
    return any(o.attached_to == number and o.zone == "battlefield" for o in state.objects.values())


def toughness_with_counters(card: Card | None, obj: GameObject) -> int | None:
    """A creature card's printed toughness with its +1/+1 counters; None where the lines
    and the card do not tell it: not a creature card, a toughness that is not a number
    (`*`) or differs between its faces (which is up, the lines do not say), or counters
    of another kind (-1/-1, level or keyword counters: CR 122.1b, 711.2a)."""
    if card is None or "Creature" not in card.front.types():
        return None
    if any(kind != "+1/+1" for kind, _ in obj.counters):
        return None
    printed = card.front.toughness
    if printed is None or not printed.lstrip("-").isdigit():
        return None
    if any(face.toughness != printed for face in card.faces):
        return None
    return int(printed) + obj.counter("+1/+1")


def face_up(card: Card, obj: GameObject) -> Face:
    """The face whose characteristics a permanent has: the back face of a transformed
    double-faced card (CR 712.8e), the flipped half of a flip card (CR 710.4), else the
    front."""
    if (obj.back_face or obj.flipped) and len(card.faces) > 1:
        return card.faces[1]
    return card.front


# the cost of a loyalty ability: +1, 0, or a minus (Oracle writes U+2212) and a number or X
_LOYALTY_COST = re.compile(r"[+\u2212-]?(?:\d+|x)")


def activates_only_loyalty_abilities(ctx: Context, obj: GameObject) -> bool:
    """Whether every activated ability of the permanent's face up is a loyalty ability (a
    planeswalker with no other cost before a colon), so that any `activate of` it is one."""
    card = ctx.card(obj)
    if card is None or obj.face_down:
        return False
    face = face_up(card, obj)
    if "Planeswalker" not in face.types():
        return False
    costs = [line.partition(":")[0].strip() for line in face.rules_lines() if ":" in line]
    if not costs or not all(_LOYALTY_COST.fullmatch(cost) for cost in costs):
        return False
    # an Equipment, Aura or effect on it, or another permanent, may give it another ability
    # (Sorcerer's Wand on an animated Gideon)
    return not (may_gain_abilities(ctx, obj.number) or could_be_given(ctx, obj, GIVES_ABILITIES))


def maximum_hand_size_may_differ(ctx: Context) -> bool:
    """Whether the lines, and the card index where there is one, leave a maximum hand size
    other than seven possible (CR 402.2): an effect about it, a Commander game, or, with an
    index, a permanent or emblem whose text mentions hand size or that it does not know;
    without one, an emblem (its text is never on the lines)."""
    state = ctx.state
    if ctx.cards is None:
        return state.maximum_hand_size_unsure()
    if state.hand_size_effect():
        return True
    for obj in state.objects.values():
        if obj.zone == "battlefield" or obj.kind is ObjectKind.EMBLEM:
            card = ctx.card(obj)
            if card is None or card.text_mentions("hand size"):
                return True
    return False


# Words of Oracle text that make a permanent a creature, or let it be one.
BECOMES_A_CREATURE = (
    "becomes a",
    "become ",
    "crew ",
    "is a creature",
    "are creatures",
    "artifact creature",
    "in addition to its other types",
    "in addition to their other types",  # Life and Limb
    "that's still a",  # "is a 4/4 ... creature ... that's still a planeswalker"
    "that are still",  # Nature's Revolt: "All lands are 2/2 creatures that are still lands"
    "he's a",  # Kaito, Bane of Nightmares: "he's a 3/4 Ninja creature" (and "she's a")
)


# Oracle text that keeps a player in the game (Platinum Angel, Phyrexian Unlife, Lich's
# Mastery, Angel's Grace; Abyssal Persecutor for its controller's opponents)
KEEPS_IN_THE_GAME = ("can't lose the game", "don't lose the game")


def a_loss_may_be_stopped(ctx: Context) -> bool:
    """Whether the lines show something that may keep a player in the game despite a
    state-based loss (CR 101.2: a "can't" effect wins): a lasting effect about losing the
    game, or, with a card index, a permanent whose text says a player can't lose it."""
    for effect in ctx.state.effects:
        if "lose the game" in effect.text.casefold():
            return True
    if ctx.cards is None:
        return False
    for obj in ctx.state.objects.values():
        if obj.zone != "battlefield":
            continue
        card = ctx.card(obj)
        if card is not None and any(card.text_mentions(p) for p in KEEPS_IN_THE_GAME):
            return True
    return False
