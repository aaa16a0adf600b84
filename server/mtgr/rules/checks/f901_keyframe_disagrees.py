"""A keyframe that disagrees with the game rebuilt from the lines above it.

## What it flags
Outside a gap, each fact of a keyframe that differs from the rebuilt state: an object's
zone, its controller (on the battlefield or the stack) or owner (elsewhere), on the
battlefield its owner (`owner "Q"`, written when it is not the controller) and what it is
attached to (`attached #M`), the damage marked on it (`damage K`), phased out or not
(`phased-out`), face down or not
(`face-down`, on the battlefield and in exile), back face up or not (`back`), flipped or
not (`flipped`), melded and with which card (`melded #M`), its position in a library,
tapped or untapped, its counters; a player's life, library size or counters, and the
combat damage a commander has dealt them where the keyframe lists it (`"P" damage K from
#M`); who is the monarch or has the initiative or the city's blessing, and day or
night (`"P" monarch`, `day`), the room of a player's venture marker (`"P" venture
"Room"`), the Ring's temptations and Ring-bearer (`"P" ring-bearer #M tempted K`). At
`end`, each object in a hand, on the battlefield, in a graveyard, in
exile, on the stack or in the command zone, and each tracked library card, that the
keyframe leaves out, and each player's life, tracked library size and counters, each
designation and day or night that it leaves out; not for a player who has left the game,
whose entries are compared when the keyframe has them (decision 0086). One finding for
each fact.

## Why
A keyframe is a snapshot of the whole state that the checker compares with its
reconstruction (decision 0019 item 8). After normal play it must match exactly: a
difference means a line above is missing or wrong, or the snapshot is. After
`incomplete` the keyframe establishes the state instead, and is not compared.

## Example
```mtgr
#22 tap by "Alice"
keyframe
#22 battlefield "Alice"
"Alice" life 20
end
```

## Use instead
```mtgr
#22 tap by "Alice"
keyframe
#22 battlefield "Alice" tapped
"Alice" life 20
end
```

## Rules basis
- Decision 0019 item 8: recordings can start late; `new` lines before the next keyframe introduce
  objects where that keyframe shows them.
- Decision 0015 item 6: a keyframe after normal play must match the rebuilt state exactly; each
  difference is an error.
- Decision 0015 item 5: a keyframe lists every tracked object that exists.
- Decision 0021 item 4: a keyframe entry on the battlefield names the owner after `owner` when
  it is not the controller.
- Decision 0023 item 5: a keyframe entry shows what a permanent is attached to.
- Decision 0025 item 4: a keyframe entry shows a phased-out permanent with `phased-out`.
- Decision 0028 item 3: a keyframe entry shows a face-down object with `face-down`.
- Decision 0029 item 4: a keyframe entry shows a permanent back face up with `back`.
- Decision 0060 items 1 and 2: a keyframe entry shows the damage marked on a permanent, and
  a keyframe lists the designations and day or night.
- Decision 0063 item 4: a keyframe lists the room of each venture marker.
- Decision 0062 item 6: a keyframe lists the Ring's temptations and the Ring-bearer.
- Decision 0064 item 4: a keyframe entry shows a flipped permanent with `flipped`.
- Decision 0065 item 4: a keyframe entry shows a melded permanent with `melded #M`.
- Decision 0086 items 1 and 2: a player who has left the game needs no entries; those given
  are compared.
- Decision 0101 item 3: a keyframe's commander damage entry matches the rebuilt total; one
  it leaves out is not compared.
- CR 400.1: "A zone is a place where objects can be during a game."
- CR 110.5: "A permanent's status is its physical state."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import holder_of, in_zone, library_position, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import (
    DAY_NIGHT_ENTRY,
    GONE,
    GameObject,
    GameState,
    PlayerState,
    Stage,
    keyframe_entry,
)
from mtgr.syntax import tree as t

RULE = define(
    "F901",
    "Keyframe disagrees with the rebuilt state",
    severity=Severity.ERROR,
    decisions=(
        "0015.6",
        "0015.5",
        "0019.8",
        "0021.4",
        "0023.5",
        "0025.4",
        "0028.3",
        "0029.4",
        "0060.1",
        "0060.2",
        "0063.4",
        "0062.6",
        "0064.4",
        "0065.4",
        "0086.1",
        "0086.2",
        "0101.3",
    ),
    cr=("400.1", "110.5"),
    doc=__doc__,
)

_LISTED_ZONES = frozenset(
    {"hand", "battlefield", "graveyard", "exile", "stack", "command", "library"}
)


def _comparing(state: GameState) -> bool:
    return state.in_keyframe is not None and state.stage is not Stage.GAP


def _shown(obj: GameObject, place: t.Place) -> str:
    """What the keyframe says of an object, in words (built only for a report)."""
    return f"the keyframe shows {obj.label()} {in_zone(place.zone.value, _name(place))}"


@RULE.on(t.SnapshotObject)
def check_object(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.SnapshotObject)
    state = ctx.state
    if not _comparing(state) or statement.subject.number in state.keyframe_seen:
        return
    obj = state.obj(statement.subject.number)
    if obj is None:
        return  # O201
    place = statement.place
    zone = place.zone.value
    if obj.zone == GONE:
        if obj.gone_by:
            now = f"it was {obj.gone_by} and is no longer tracked: leave it out"
        else:
            now = "it has ceased to exist: leave it out"
        ctx.report(
            RULE, f"{_shown(obj, place)}, but {now}", place.zone.span, related=ctx.where(obj)
        )
        return
    if obj.zone != zone:
        ctx.report(
            RULE,
            f"{_shown(obj, place)}, but the lines above put it {where_is(state, obj)}",
            place.zone.span,
            related=ctx.where(obj),
        )
        return
    if place.player is not None:
        role, holder = holder_of(obj, zone)
        if holder is not None and holder != place.player.name:
            ctx.report(
                RULE,
                f"{_shown(obj, place)}, but its {role} is {holder}",
                place.player.span,
                related=ctx.where(obj),
            )
    if zone == "battlefield":
        _check_owner(ctx, statement, obj)
        _check_attached(ctx, statement, obj)
        if obj.phased_out != (statement.phased_out is not None):
            fix = "add `phased-out`" if obj.phased_out else "leave out `phased-out`"
            state_word = "phased out" if obj.phased_out else "phased in"
            ctx.report(
                RULE,
                f"{obj.label()} is {state_word} after the lines above: {fix}",
                statement.phased_out.span if statement.phased_out else statement.place.span,
                related=ctx.where(obj),
            )
    if zone in ("battlefield", "exile") and obj.face_down != (statement.face_down is not None):
        fix = "add `face-down`" if obj.face_down else "leave out `face-down`"
        ctx.report(
            RULE,
            f"{obj.label()} is face {'down' if obj.face_down else 'up'} after the lines above: "
            f"{fix}",
            statement.face_down.span if statement.face_down else place.span,
            related=ctx.where(obj),
        )
    if zone == "battlefield" and obj.back_face != (statement.back is not None):
        fix = "add `back`" if obj.back_face else "leave out `back`"
        ctx.report(
            RULE,
            f"{obj.label()} has its {'back' if obj.back_face else 'front'} face up after the "
            f"lines above: {fix}",
            statement.back.span if statement.back else place.span,
            related=ctx.where(obj),
        )
    shown_meld = statement.melded.number if statement.melded is not None else None
    if zone == "battlefield" and obj.melded_with != shown_meld:
        fix = f"write `melded #{obj.melded_with}`" if obj.melded_with else "leave out `melded`"
        now = f"melded with #{obj.melded_with}" if obj.melded_with else "not melded"
        ctx.report(
            RULE,
            f"{obj.label()} is {now} after the lines above: {fix}",
            statement.melded.span if statement.melded else place.span,
            related=ctx.where(obj),
        )
    if zone == "battlefield" and obj.flipped != (statement.flipped is not None):
        fix = "add `flipped`" if obj.flipped else "leave out `flipped`"
        ctx.report(
            RULE,
            f"{obj.label()} is {'flipped' if obj.flipped else 'unflipped'} after the lines above: "
            f"{fix}",
            statement.flipped.span if statement.flipped else place.span,
            related=ctx.where(obj),
        )
    if zone == "library" and place.position is not None:
        _check_position(ctx, statement, obj)
    if zone == "battlefield":
        _check_damage(ctx, statement, obj)
    if zone == "battlefield" and obj.tapped != (statement.tapped is not None):
        state_word = "tapped" if obj.tapped else "untapped"
        fix = "add `tapped`" if obj.tapped else "leave out `tapped`"
        ctx.report(
            RULE,
            f"{obj.label()} is {state_word} after the lines above: {fix}",
            statement.tapped.span if statement.tapped is not None else place.span,
            related=ctx.where(obj),
        )
    _check_counters(ctx, statement, obj)


def _check_owner(ctx: Context, statement: t.SnapshotObject, obj: GameObject) -> None:
    """On the battlefield the place names the controller; `owner "Q"` the owner when it
    differs (decision 0021 item 4)."""
    if obj.owner is None:
        return
    stated = statement.owner
    if stated is not None:
        if stated.name != obj.owner:
            ctx.report(
                RULE,
                f"the keyframe says {stated.name} owns {obj.label()}, but its owner is {obj.owner}",
                stated.span,
                related=ctx.where(obj),
            )
        return
    if obj.controller is not None and obj.controller != obj.owner:
        ctx.report(
            RULE,
            f"{obj.label()} is {obj.owner}'s, controlled by {obj.controller}: add "
            f'`owner "{obj.owner}"`',
            statement.place.span,
            related=ctx.where(obj),
        )


def _check_attached(ctx: Context, statement: t.SnapshotObject, obj: GameObject) -> None:
    shown = statement.attached
    value = None
    if shown is not None:
        value = shown.number if isinstance(shown, t.ObjectRef) else shown.name
    if value == obj.attached_to:
        return
    rebuilt = obj.attached_to
    now = (
        "attached to nothing"
        if rebuilt is None
        else f"attached to #{rebuilt}"
        if isinstance(rebuilt, int)
        else f'attached to "{rebuilt}"'
    )
    fix = "leave out `attached`" if rebuilt is None else f"write `{now.replace(' to', '')}`"
    ctx.report(
        RULE,
        f"{obj.label()} is {now} after the lines above: {fix}",
        shown.span if shown is not None else statement.place.span,
        related=ctx.where(obj),
    )


def _check_damage(ctx: Context, statement: t.SnapshotObject, obj: GameObject) -> None:
    shown = statement.damage.value if statement.damage is not None else 0
    if shown == obj.damage:
        return
    fix = f"write `damage {obj.damage}`" if obj.damage else "leave out `damage`"
    ctx.report(
        RULE,
        f"the keyframe marks {shown} damage on {obj.label()}, but the lines above leave "
        f"{obj.damage} marked: {fix}",
        statement.damage.span if statement.damage is not None else statement.place.span,
        related=ctx.where(obj),
    )


def _name(place: t.Place) -> str | None:
    return place.player.name if place.player is not None else None


def _check_position(ctx: Context, statement: t.SnapshotObject, obj: GameObject) -> None:
    position = statement.place.position
    assert position is not None
    tracked = library_position(ctx.state, obj)
    if tracked is None:
        return  # an untracked position: the keyframe tells more than the lines, not less
    player = ctx.state.player(obj.owner or "")
    assert player is not None
    library = player.library
    end, index = position.end.value, position.index
    positions = library.top if end == "top" else library.bottom
    if index <= len(positions) and positions[index - 1] == obj.number:
        return
    other = library.bottom if end == "top" else library.top
    size = library.size
    if (
        size is not None
        and 1 <= size - index + 1 <= len(other)
        and other[size - index] == obj.number
    ):
        return
    ctx.report(
        RULE,
        f"the keyframe shows {obj.label()} at {end} {index} of {player.name}'s library, "
        f"but the lines above put it at {tracked}",
        position.end.span,
        related=ctx.where(obj),
    )


def _check_counters(ctx: Context, statement: t.SnapshotObject, obj: GameObject) -> None:
    listed: dict[str, int] = {}
    spans: dict[str, t.Span] = {}
    for count, kind in statement.counters:
        listed[kind.value] = listed.get(kind.value, 0) + count.value
        spans[kind.value] = t.Span(count.span.start, kind.span.end)
    have = dict(obj.counters)
    for kind in sorted(set(listed) | set(have)):
        shown, rebuilt = listed.get(kind, 0), have.get(kind, 0)
        if shown == rebuilt:
            continue
        ctx.report(
            RULE,
            f"the keyframe gives {obj.label()} {shown} {kind} counter{'s' if shown != 1 else ''}, "
            f"but the lines above leave it with {rebuilt}",
            spans.get(kind, statement.place.span),
            related=ctx.where(obj),
        )


@RULE.on(t.SnapshotPlayer)
def check_player(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.SnapshotPlayer)
    state = ctx.state
    if not _comparing(state):
        return
    player = state.player(statement.subject.name)
    if player is None:
        return
    value = statement.value.value
    field = statement.verb.value
    if statement.commander is not None:
        commander = statement.commander.number
        rebuilt = sum(
            dealt
            for who, source, dealt in state.commander_damage
            if (who, source) == (player.name, commander)
        )
        what = f"combat damage from #{commander}"
    elif field == "life":
        rebuilt: int | None = player.life
        what = "life"
    elif field == "library":
        rebuilt = player.library.size
        what = "library cards"
    else:
        assert statement.counter is not None
        rebuilt = player.counter(statement.counter.value)
        what = f"{statement.counter.value} counters"
    if rebuilt is None or rebuilt == value:
        return
    ctx.report(
        RULE,
        f"the keyframe gives {player.name} {value} {what}, but the lines above leave {rebuilt}",
        statement.value.span,
    )


@RULE.on(t.Designation, t.DayNight, t.Venture, t.RingTempts)
def check_designation(ctx: Context, statement: t.Statement) -> None:
    """A keyframe's `"P" monarch`, `"P" initiative`, `"P" citys-blessing`, `day` or `night`
    (decision 0060 item 2), `"P" venture "Room"` (decision 0063 item 4)."""
    state = ctx.state
    if not _comparing(state) or not keyframe_entry(state, statement):
        return
    verb = statement.verb.value
    if isinstance(statement, t.RingTempts):
        _check_ring(ctx, statement)
        return
    if isinstance(statement, t.Venture):
        player = state.player(statement.subject.name)
        room = player.venture_room if player is not None else None
        if player is not None and room != statement.room.value:
            now = f'in "{room}"' if room else "in no dungeon"
            ctx.report(
                RULE,
                f'the keyframe puts {player.name}\'s venture marker in "{statement.room.value}", '
                f"but the lines above leave it {now}",
                statement.room.span,
            )
        return
    if isinstance(statement, t.DayNight):
        if state.day_night != verb:
            now = state.day_night or "neither day nor night"
            ctx.report(RULE, f"the keyframe says it is {verb}, but the lines above leave it {now}")
        return
    assert isinstance(statement, t.PlayerStatement)
    name = statement.subject.name
    holder = _designations(state).get(verb)
    if verb == "citys-blessing":
        player = state.player(name)
        if player is not None and not player.citys_blessing:
            ctx.report(
                RULE,
                f"the keyframe gives {name} the city's blessing, but the lines above never did",
            )
        return
    if holder != name:
        now = f"{holder} has it" if holder else "nobody has it"
        ctx.report(RULE, f"the keyframe gives {name} the {verb}, but after the lines above {now}")


def _check_ring(ctx: Context, statement: t.RingTempts) -> None:
    """`"P" ring-bearer [#M] tempted K` in a keyframe (decision 0062 item 6)."""
    player = ctx.state.player(statement.subject.name)
    if player is None:
        return
    shown = statement.tempted.value if statement.tempted is not None else 1
    if shown != player.ring_tempted:
        ctx.report(
            RULE,
            f"the keyframe says the Ring tempted {player.name} {shown} times, but the lines "
            f"above count {player.ring_tempted}",
            statement.tempted.span if statement.tempted is not None else statement.verb.span,
        )
    bearer = _ring_bearer(ctx.state, player)
    written = statement.bearer.number if statement.bearer is not None else None
    if written != bearer:
        now = f"#{bearer}" if bearer is not None else "none"
        ctx.report(
            RULE,
            f"the keyframe gives {player.name} the Ring-bearer "
            f"{f'#{written}' if written is not None else 'none'}, but after the lines above "
            f"it is {now}",
            statement.bearer.span if statement.bearer is not None else statement.verb.span,
        )


def _ring_bearer(state: GameState, player: PlayerState) -> int | None:
    number = player.ring_bearer
    obj = state.obj(number) if number is not None else None
    if obj is None or not obj.ring_bearer or obj.controller != player.name:
        return None
    return number


def _designations(state: GameState) -> dict[str, str | None]:
    return {"monarch": state.monarch, "initiative": state.initiative}


@RULE.on(t.Marker)
def check_end(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if statement.verb.value != "end" or not _comparing(state):
        return
    for obj in sorted(state.objects.values(), key=lambda o: o.number):
        if obj.zone not in _LISTED_ZONES or obj.number in state.keyframe_seen:
            continue
        ctx.report(
            RULE,
            f"the keyframe leaves out {obj.label()}, which the lines above put "
            f"{where_is(state, obj)}; a keyframe lists every tracked object",
            statement.verb.span,
            related=ctx.where(obj),
        )
    listed = state.keyframe_players
    for verb, holder in _designations(state).items():
        if holder is not None and (holder, verb) not in listed:
            ctx.report(
                RULE,
                f'the keyframe leaves out that {holder} has the {verb}: add `"{holder}" {verb}`',
                statement.verb.span,
            )
    if state.day_night is not None and DAY_NIGHT_ENTRY not in listed:
        ctx.report(
            RULE,
            f"the keyframe leaves out that it is {state.day_night}: add `{state.day_night}`",
            statement.verb.span,
        )
    for player in state.players:
        if player.venture_room and (player.name, "venture") not in listed:
            ctx.report(
                RULE,
                f"the keyframe leaves out where {player.name}'s venture marker is: add "
                f'`"{player.name}" venture "{player.venture_room}"`',
                statement.verb.span,
            )
        if player.ring_tempted and (player.name, "ring-bearer") not in listed:
            bearer = _ring_bearer(state, player)
            entry = f"ring-bearer #{bearer}" if bearer is not None else "ring-bearer"
            ctx.report(
                RULE,
                f"the keyframe leaves out the Ring's temptations of {player.name}: add "
                f'`"{player.name}" {entry} tempted {player.ring_tempted}`',
                statement.verb.span,
            )
        if player.citys_blessing and (player.name, "citys-blessing") not in listed:
            ctx.report(
                RULE,
                f"the keyframe leaves out {player.name}'s city's blessing: add "
                f'`"{player.name}" citys-blessing`',
                statement.verb.span,
            )
    for player in state.players:
        if state.declared and player.name not in state.declared:
            continue  # N102 reports the name
        if player.lost:
            continue  # no longer in the game: nothing of theirs to list (decision 0086)
        for key, words, entry in _player_facts(player):
            if (player.name, key) not in listed:
                ctx.report(
                    RULE,
                    f"the keyframe leaves out {player.name}'s {words}: add "
                    f'`"{player.name}" {entry}`',
                    statement.verb.span,
                )


def _player_facts(player: PlayerState) -> list[tuple[str, str, str]]:
    """What a keyframe states about a player: (key as apply.py records it, words, entry)."""
    facts = [("life", "life", f"life {player.life}")]
    if player.library.size is not None:
        facts.append(("library", "library size", f"library {player.library.size}"))
    for kind, count in player.counters:
        if count:
            facts.append((f"counters {kind}", f"{kind} counters", f"counters {count} {kind}"))
    return facts
