"""Long, valid recordings for benchmarks: a day of coverage, game after game, seeded.

Each game is played by a small simulator that keeps its own model of the board, so every
line it writes is legal: draws, land drops, mana, creatures on the stack, removal,
tokens, counters, fetch-and-shuffle, combat with damage and life, keyframes that list
the whole board. `python -m benchmarks.generate LINES [--seed N] > file.mtgr`.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field

PLAYERS = ("Alice", "Bob")
CREATURES = [
    ("Goblin Guide", "{R}", 2),
    ("Monastery Swiftspear", "{R}", 1),
    ("Tarmogoyf", "{1}{G}", 3),
    ("Jötun Grunt", "{1}{W}", 4),
    ("Dandân", "{U}{U}", 4),
    ("Grizzly Bears", "{1}{G}", 2),
    ("Savannah Lions", "{W}", 2),
]
REMOVAL = [("Lightning Bolt", "{R}"), ("Path to Exile", "{W}"), ("Doom Blade", "{1}{B}")]
LANDS = ["Mountain", "Forest", "Plains", "Island", "Swamp"]
FETCH = "Wooded Foothills"
TOKEN_MAKER = ("Raise the Alarm", "{1}{W}")
PUMP = ("Giant Growth", "{G}")
GROW = ("Battlegrowth", "{G}")


@dataclass
class Card:
    number: int
    name: str
    owner: str
    zone: str = "hand"
    tapped: bool = False
    power: int = 0
    counters: int = 0
    token: bool = False
    summoning_sick: bool = True
    pumped: int = 0


@dataclass
class Player:
    name: str
    life: int = 20
    library: int = 60


@dataclass
class Game:
    rng: random.Random
    out: list[str]
    next_number: int
    players: dict[str, Player] = field(default_factory=dict)
    cards: dict[int, Card] = field(default_factory=dict)

    # -- helpers
    def emit(self, line: str) -> None:
        self.out.append(line)

    def new_number(self) -> int:
        self.next_number += 1
        return self.next_number - 1

    def draw(self, player: Player, cause: str = "") -> Card:
        pool = LANDS * 3 + [c[0] for c in CREATURES] * 2 + [r[0] for r in REMOVAL]
        pool += [FETCH, TOKEN_MAKER[0], PUMP[0], GROW[0]]
        card = Card(self.new_number(), self.rng.choice(pool), player.name)
        self.cards[card.number] = card
        player.library -= 1
        self.emit(f'"{player.name}" draw #{card.number} "{card.name}"{cause}')
        return card

    def zone(self, owner: str, zone: str) -> list[Card]:
        return [c for c in self.cards.values() if c.owner == owner and c.zone == zone]

    def untapped_lands(self, owner: str) -> list[Card]:
        return [c for c in self.zone(owner, "battlefield") if c.name in LANDS and not c.tapped]

    def pay(self, spell: Card, cost: str, owner: str) -> bool:
        amount = cost.count("{")
        lands = self.untapped_lands(owner)
        if len(lands) < amount:
            return False
        for land in lands[:amount]:
            land.tapped = True
            self.emit(f"#{land.number} tap by #{land.number}")
        self.emit(f'#{spell.number} pay {cost} by "{owner}"')
        return True

    # -- a game
    def play(self, game_number: int, max_lines: int, previous_loser: str | None) -> str:
        """Plays until a player loses, or concedes once past max_lines; returns the loser."""
        self.players = {name: Player(name) for name in PLAYERS}
        if previous_loser is None:
            first, second = ("Alice", "Bob") if self.rng.random() < 0.5 else ("Bob", "Alice")
            self.emit(f'"{first}" roll d20 {self.rng.randint(11, 20)}')
            self.emit(f'"{second}" roll d20 {self.rng.randint(1, 10)}')
            self.emit(f'start "{first}" by "{first}"')
        else:
            # the loser of the previous game chooses, and chooses to play first (CR 103.1)
            self.emit(f"game {game_number}")
            first = previous_loser
            second = next(name for name in PLAYERS if name != first)
            self.emit(f'start "{first}" by "{first}"')
        for name in (first, second):
            for _ in range(7):
                self.draw(self.players[name])
        self.emit(f'"{first}" keep')
        self.emit(f'"{second}" keep')
        turn = 0
        while len(self.out) < max_lines:
            turn += 1
            active = self.players[first if turn % 2 else second]
            other = self.players[second if turn % 2 else first]
            if self.take_turn(turn, active, other, skip_draw=turn == 1):
                return other.name
        behind = min(self.players.values(), key=lambda p: p.life)
        self.emit(f'"{behind.name}" concede')
        return behind.name

    def take_turn(self, turn: int, active: Player, other: Player, skip_draw: bool) -> bool:
        self.emit(f'turn {turn} "{active.name}"')
        tapped = [c for c in self.zone(active.name, "battlefield") if c.tapped]
        if tapped:
            self.emit("step untap")
            for card in tapped:
                card.tapped = False
                self.emit(f"#{card.number} untap")
        for card in self.cards.values():
            card.pumped = 0
        for card in self.zone(active.name, "battlefield"):
            card.summoning_sick = False
        self.emit("step upkeep")
        if not skip_draw:
            self.emit("step draw")
            self.draw(active)
        self.emit("phase main")
        self.main_phase(active, other)
        if self.combat(active, other):
            return True
        self.emit("phase ending")
        self.emit("step end")
        if turn % 6 == 0:
            self.keyframe()
        return False

    def main_phase(self, active: Player, other: Player) -> None:
        hand = self.zone(active.name, "hand")
        lands = [c for c in hand if c.name in LANDS or c.name == FETCH]
        if lands:
            land = lands[0]
            land.zone = "battlefield"
            self.emit(f"#{land.number} play")
            if land.name == FETCH:
                self.fetch(land, active)
        for card in self.zone(active.name, "hand"):
            spell = next((c for c in CREATURES if c[0] == card.name), None)
            if spell and self.pay_to_cast(card, spell[1], active):
                card.power = spell[2]
                card.zone = "battlefield"
                card.summoning_sick = True
                self.emit(f"#{card.number} resolve -> battlefield")
            elif card.name == TOKEN_MAKER[0] and self.pay_to_cast(card, TOKEN_MAKER[1], active):
                for _ in range(2):
                    token = Card(self.new_number(), "Soldier", active.name, "battlefield", power=1)
                    token.token = True
                    self.cards[token.number] = token
                    self.emit(
                        f'#{token.number} new token "Soldier" battlefield "{active.name}" '
                        f"by #{card.number}"
                    )
                card.zone = "graveyard"
                self.emit(f"#{card.number} resolve")
            elif card.name in (r[0] for r in REMOVAL):
                self.removal(card, active, other)
            elif card.name in (PUMP[0], GROW[0]):
                self.pump(card, active)

    def can_pay(self, cost: str, active: Player) -> bool:
        return len(self.untapped_lands(active.name)) >= cost.count("{")

    def pay_to_cast(
        self, card: Card, cost: str, active: Player, target: Card | None = None
    ) -> bool:
        """Casts in the order of CR 601.2 (decision 0045): the cast, its target, the costs."""
        if not self.can_pay(cost, active):
            return False
        self.emit(f"#{card.number} cast")
        if target is not None:
            self.emit(f"#{card.number} target #{target.number}")
        self.pay(card, cost, active.name)
        return True

    def fetch(self, land: Card, active: Player) -> None:
        ability = self.new_number()
        self.emit(f"#{ability} activate of #{land.number}")
        land.zone = "graveyard"
        self.emit(f'#{ability} pay life 1 by "{active.name}"')
        self.emit(f"#{land.number} move battlefield -> graveyard as sacrifice by #{ability}")
        active.life -= 1
        self.emit(f"#{ability} resolve")
        self.emit(f'"{active.name}" search library by #{ability}')
        found = Card(self.new_number(), self.rng.choice(["Mountain", "Forest"]), active.name)
        self.cards[found.number] = found
        self.emit(f'#{found.number} new card "{found.name}" library "{active.name}"')
        found.zone = "battlefield"
        active.library -= 1
        self.emit(f"#{found.number} move library -> battlefield by #{ability}")
        self.emit(f'"{active.name}" shuffle library by #{ability}')

    def removal(self, card: Card, active: Player, other: Player) -> None:
        targets = [c for c in self.zone(other.name, "battlefield") if c.power and not c.token]
        cost = next(r[1] for r in REMOVAL if r[0] == card.name)
        if not targets or not self.can_pay(cost, active):
            return
        target = self.rng.choice(targets)
        self.pay_to_cast(card, cost, active, target)
        self.emit(f"#{card.number} resolve")
        card.zone = "graveyard"
        if card.name == "Lightning Bolt":
            self.emit(f"#{card.number} damage 3 -> #{target.number}")
            if target.power + target.counters > 3:
                return
            self.emit(f"#{target.number} move battlefield -> graveyard by sba")
            target.zone = "graveyard"
        elif card.name == "Path to Exile":
            self.emit(f"#{target.number} move battlefield -> exile by #{card.number}")
            target.zone = "exile"
        else:
            self.emit(
                f"#{target.number} move battlefield -> graveyard as destroy by #{card.number}"
            )
            target.zone = "graveyard"
        target.tapped = False
        target.counters = 0

    def pump(self, card: Card, active: Player) -> None:
        creatures = [c for c in self.zone(active.name, "battlefield") if c.power]
        if not creatures or not self.can_pay("{G}", active):
            return
        target = self.rng.choice(creatures)
        self.pay_to_cast(card, "{G}", active, target)
        self.emit(f"#{card.number} resolve")
        card.zone = "graveyard"
        if card.name == PUMP[0]:
            self.emit(f'#{card.number} effect "+3/+3" on #{target.number} until end-of-turn')
            target.pumped += 3
        else:
            target.counters += 1
            self.emit(f"#{target.number} counters +1 +1/+1 by #{card.number}")

    def combat(self, active: Player, other: Player) -> bool:
        attackers = [
            c
            for c in self.zone(active.name, "battlefield")
            if c.power and not c.tapped and not c.summoning_sick
        ]
        if not attackers:
            return False
        self.emit("phase combat")
        self.emit("step declare-attackers")
        for card in attackers:
            card.tapped = True
            self.emit(f'#{card.number} attack "{other.name}"')
        self.emit("step combat-damage")
        for card in attackers:
            amount = card.power + card.counters + card.pumped
            self.emit(f'#{card.number} damage {amount} -> "{other.name}"')
            self.emit(f'"{other.name}" life -{amount} by #{card.number}')
            other.life -= amount
        if other.life <= 0:  # before anyone gets priority again (decision 0024 item 1)
            self.emit(f'"{other.name}" lose by sba')
            return True
        self.emit("step end-of-combat")
        self.emit("phase main")
        return False

    def keyframe(self) -> None:
        self.emit("keyframe")
        for player in self.players.values():
            self.emit(f'"{player.name}" life {player.life}')
            self.emit(f'"{player.name}" library {player.library}')
        for card in sorted(self.cards.values(), key=lambda c: c.number):
            if card.zone in ("hand", "battlefield", "graveyard", "exile"):
                if card.token and card.zone != "battlefield":
                    continue
                extra = " tapped" if card.tapped and card.zone == "battlefield" else ""
                if card.counters and card.zone == "battlefield":
                    extra += f" counters {card.counters} +1/+1"
                owner = f' "{card.owner}"' if card.zone == "battlefield" else ""
                self.emit(f"#{card.number} {card.zone}{owner}{extra}")
        self.emit("end")


def generate(lines: int, seed: int = 1) -> str:
    """A recording of at least `lines` lines: as many whole games as it takes."""
    rng = random.Random(seed)
    out = [
        "mtgr 0.4",
        f'title "Generated coverage, seed {seed}"',
        "rules 2026-09-25",
        'player "Alice" deck 60',
        'player "Bob" deck 60',
        "perspective all",
    ]
    next_number = 1
    game_number = 0
    loser: str | None = None
    while len(out) < lines:
        game_number += 1
        game = Game(rng, out, next_number)
        loser = game.play(game_number, min(len(out) + 1200, lines), loser)
        next_number = game.next_number
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("lines", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(generate(args.lines, args.seed), end="")


if __name__ == "__main__":
    main()
