"""Readable descriptions of a rebuilt state, shared by `mtgr state` and hover."""

from __future__ import annotations

from mtgr.rules.mana import describe as describe_pool
from mtgr.rules.state import GONE, ZONES, GameObject, GameState, PlayerState


def object_line(obj: GameObject, state: GameState | None = None) -> str:
    parts = [obj.label() if obj.name else f"#{obj.number} (hidden)"]
    if obj.kind.value != "card":
        parts.append(obj.kind.value)
    if obj.tapped:
        parts.append("tapped")
    if obj.attacking:
        parts.append(_attacking(obj))
    if obj.blocked:
        parts.append("blocked")
    if obj.blocking:
        parts.append("blocking " + " ".join(f"#{n}" for n in obj.blocking))
    parts.extend(f"{count} {kind}" for kind, count in obj.counters)
    if obj.damage:
        parts.append(f"{obj.damage} damage marked")
    if obj.phased_out:
        parts.append("phased out")
    if obj.face_down:
        parts.append("face down")
    if obj.back_face:
        parts.append("back face up")
    parts.extend(card_part_words(obj))
    if obj.ring_bearer:
        parts.append("Ring-bearer")
    if obj.controller and obj.owner and obj.controller != obj.owner:
        parts.append(f"owned by {obj.owner}, controlled by {obj.controller}")
    parts.extend(
        f"control from #{e.source} until {e.until} (then {e.previous})" for e in obj.control_effects
    )
    parts.extend(attachment_words(obj, state))
    return ", ".join(parts)


def attachment_words(obj: GameObject, state: GameState | None) -> list[str]:
    """What it is attached to, what is attached to it (decision 0023 item 6)."""
    words = []
    host = obj.attached_to
    if host is not None:
        words.append(f"attached to #{host}" if isinstance(host, int) else f"attached to {host}")
    elif obj.detached_moment is not None:
        words.append("unattached (what it was attached to left)")
    if state is not None and state.attached:
        attached = state.attachments_of(obj.number)
        if attached:
            words.append("with " + ", ".join(o.label() for o in attached) + " attached")
    return words


def _attacking(obj: GameObject) -> str:
    target = obj.attack_target
    what = f"attacking #{target}" if isinstance(target, int) else f"attacking {target}"
    if target is None:
        what = "attacking"
    return what + (" (entered attacking)" if obj.entered_attacking else "")


def player_line(state: GameState, player: PlayerState) -> str:
    hand = len(state.in_zone("hand", player.name))
    library = "?" if player.library.size is None else str(player.library.size)
    counters = "".join(f", {count} {kind}" for kind, count in player.counters)
    designations = [
        word
        for word, has in (
            ("the monarch", state.monarch == player.name),
            ("the initiative", state.initiative == player.name),
            ("the city's blessing", player.citys_blessing),
        )
        if has
    ]
    if player.ring_tempted:
        designations.append(ring_words(state, player))
    if player.speed is not None:
        designations.append(speed_words(player.speed))
    designations.extend(dungeon_words(player))
    if designations:
        counters += ", " + ", ".join(designations)
    attached = state.attachments_of(player.name) if state.attached else []
    if attached:
        counters += ", with " + ", ".join(o.label() for o in attached) + " attached"
    lost = " (lost)" if player.lost else ""
    if player.loses is not None and not player.lost:
        lost = " (loses when state-based actions are checked)"
    commander = "".join(  # combat damage from each commander (CR 903.10a)
        f", {dealt} commander damage from #{source}"
        for who, source, dealt in state.commander_damage
        if who == player.name
    )
    return (
        f"{player.name}: life {player.life}{counters}{commander}, hand {hand}, "
        f"library {library}{lost}"
    )


def turn_line(state: GameState) -> str:
    turn = state.turn
    if not turn.number:
        return f"{state.stage.value}" + (
            f", starting player {state.starting_player}" if state.starting_player else ""
        )
    where = turn.step or turn.phase or "start of turn"
    day = f", {state.day_night}" if state.day_night else ""
    return f"turn {turn.number} ({turn.player}), {where}{day}"


def render_state(state: GameState) -> str:
    """The state as plain-text tables: turn, players, stack, then each zone."""
    out = [f"Turn: {turn_line(state)}", "", "Players:"]
    out.extend(f"  {player_line(state, p)}" for p in state.players)
    if state.mana_pools:
        out.append("")
        out.append("Mana pools (as the mana lines of this step state them):")
        out.extend(f"  {name}: {describe_pool(pool)}" for name, pool in state.mana_pools)
    out.append("")
    out.append("Stack (top first):")
    for number in reversed(state.stack):
        obj = state.obj(number)
        out.append(f"  {object_line(obj) if obj else f'#{number}'}")
    if not state.stack:
        out.append("  (empty)")
    for zone in ZONES:
        if zone == "stack":
            continue
        for player in state.players:
            key = "controller" if zone == "battlefield" else "owner"
            objects = sorted(
                (
                    o
                    for o in state.objects.values()
                    if o.zone == zone and getattr(o, key) == player.name
                ),
                key=lambda o: o.number,
            )
            tracked = _library_positions(player) if zone == "library" else []
            if objects or tracked:
                out.append("")
                out.append(f"{zone.capitalize()} of {player.name}:")
                out.extend(tracked or [f"  {object_line(o, state)}" for o in objects])
    if state.effects:
        out.append("")
        out.append("Lasting effects:")
        for effect in state.effects:
            until = f" until {effect.until}" if effect.until else ""
            on = f" on #{effect.on}" if effect.on else ""
            out.append(f'  #{effect.source}: "{effect.text}"{on}{until}')
    return "\n".join(out)


def _library_positions(player: PlayerState) -> list[str]:
    rows = [f"  top {i + 1}: #{n}" for i, n in enumerate(player.library.top) if n is not None]
    rows += [
        f"  bottom {i + 1}: #{n}" for i, n in enumerate(player.library.bottom) if n is not None
    ]
    return rows


def is_present(obj: GameObject) -> bool:
    return obj.zone != GONE


def card_part_words(obj: GameObject) -> list[str]:
    """The half of a split card cast, an Adventure, a flipped permanent (decision 0064), a
    Room's unlocked doors (decision 0099), a melded permanent (decision 0065), a Class's
    level (decision 0108)."""
    words = []
    if obj.half is not None:
        words.append(f'cast as its half "{obj.half}"')
    if obj.adventure:
        words.append("cast as an Adventure" if obj.zone == "stack" else "on an adventure")
    if obj.flipped:
        words.append("flipped")
    if obj.unlocked:
        words.append("unlocked: " + ", ".join(f'"{door}"' for door in obj.unlocked))
    if obj.melded_with is not None:
        words.append(f"melded: one permanent, cards #{obj.number} and #{obj.melded_with}")
    if obj.level is not None:
        words.append(f"level {obj.level}")
    return words


def dungeon_words(player: PlayerState) -> list[str]:
    """Where the player's venture marker is and the dungeons they completed (decision 0063)."""
    words = []
    if player.venture_room is not None:
        words.append(f'venture marker in "{player.venture_room}"')
    if player.dungeons_completed:
        count = player.dungeons_completed
        words.append(f"{count} dungeon{'s' if count != 1 else ''} completed")
    return words


def ring_words(state: GameState, player: PlayerState) -> str:
    """How often the Ring tempted the player, and their Ring-bearer while it is one: until it
    leaves the battlefield or another player gains control of it (decision 0062 item 5)."""
    times = "once" if player.ring_tempted == 1 else f"{player.ring_tempted} times"
    number = player.ring_bearer
    bearer = state.obj(number) if number is not None else None
    still = bearer is not None and bearer.ring_bearer and bearer.controller == player.name
    return f"tempted by the Ring {times}" + (f", Ring-bearer #{number}" if still else "")


def speed_words(speed: int) -> str:
    """`speed 2`, or `max speed` at 4 (CR 702.179e)."""
    return "max speed" if speed >= 4 else f"speed {speed}"
