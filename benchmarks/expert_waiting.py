"""Laying the phase down now or keeping it in hand a turn: how often a hint says to wait,
and whether it is right, as a search that sees the other hands values it.

    python -m benchmarks.expert_waiting --players 2 --games 120
    python -m benchmarks.expert_waiting --players 4 --games 90

plays the expert against greedy bots (its seat rotated, game g dealt from seed
``--seed`` + g). At each lay-down the expert makes where the hint would lay down too, it
asks the searched hint (:func:`phase10.search.searched_hint`, which weighs each decision
as a review does, :func:`~phase10.search.decisions.weigh_decision`: a lay-down with the
rest of its turn, against every discard), and a search of the real game, the
other hands as they are and the draw pile shuffled afresh for each of ``--oracle-deals``
play-outs, values both ways: the lay-down with the hint's hits and the best discard after,
and each discard with the phase kept in hand. It prints how often the hint waits and, where
it does, its discard's value less the lay-down's (above zero: waiting was right; the
lay-down gets the best discard after it, so this leans against waiting), then what waiting
could give at most (the best way each time, as that search sees it) and how the two ways
compare while an opponent is down and while none is.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from phase10.bots import Player, play_game
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.hints import hint
from phase10.core import Action, Discard, Game, LayDown, PlayerView, Stage
from phase10.kernel import KernelGame
from phase10.kernel.convert import action_key
from phase10.search import ExpertPlayer, searched_hint
from phase10.search.expert import searchable
from phase10.sim.stats import mean_interval


class WaitingProbe(ExpertPlayer):
    """The expert in play; at each of its lay-downs, the hint's choice and both ways valued
    by a search that sees the other hands."""

    def __init__(self, rng: random.Random, game: Game, oracle_deals: int) -> None:
        super().__init__(rng)
        self.game = game
        self.oracle_deals = oracle_deals
        self.rows: list[dict[str, float]] = []

    def choose(self, view: PlayerView) -> Action:
        action = super().choose(view)
        if searchable(view) and view.stage is Stage.PLAY and isinstance(action, LayDown):
            self._probe(view)
        return action

    def _probe(self, view: PlayerView) -> None:
        me = self._me(view)
        plan = [step.action for step in hint(view).steps]
        if not plan or not isinstance(plan[0], LayDown):
            return
        known = [[card.index for card in seat.hand] for seat in self.game.seats]
        seed = self.rng.getrandbits(63)
        now = KernelGame(self.game)
        later = now.copy()  # (the hidden cards lie alike: the seed deals both alike)
        for action in plan:
            if isinstance(action, Discard):
                break
            later.apply(action_key(action))
        if later.is_over or later.current != me:
            return  # (out by the lay-down and hits)
        keys = now.legal()
        waits = [i for i, key in enumerate(keys) if key[0] == 2]
        drops = [i for i, key in enumerate(later.legal()) if key[0] == 2]
        if not waits or not drops:
            return
        wait = self._values(now.search(me, known, waits, self.oracle_deals, seed), view, me)
        lay = self._values(later.search(me, known, drops, self.oracle_deals, seed), view, me)
        worth = wait.mean(axis=0)
        laid = float(lay.mean(axis=0).max())
        step = searched_hint(view).steps[0].action
        waited = isinstance(step, Discard)
        self.rows.append(
            {
                "waits": waited,
                "gain": float(worth[waits.index(keys.index(action_key(step)))]) - laid
                if waited
                else 0.0,
                "best": float(worth.max()) - laid,
                "down": any(seat.laid is not None for i, seat in enumerate(view.seats) if i != me),
            }
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--oracle-deals", type=int, default=400)
    args = parser.parse_args(argv)
    if args.games < 1 or args.oracle_deals < 1:
        parser.error("--games and --oracle-deals must be at least 1")
    rows: list[dict[str, float]] = []
    for number in range(args.first, args.first + args.games):
        game = Game(args.players, seed=args.seed + number)
        seats: list[Player] = [
            GreedyPlayer(random.Random(number * 10 + seat)) for seat in range(args.players)
        ]
        probe = WaitingProbe(random.Random(number), game, args.oracle_deals)
        seats[number % args.players] = probe
        play_game(game, seats)
        rows += probe.rows
    print(f"{args.games} {args.players}-player games against greedy: {len(rows)} lay-downs")
    waited = [row["gain"] for row in rows if row["waits"]]
    if waited:
        mean, half = mean_interval(np.array(waited))
        right = np.mean(np.array(waited) > 0)
        print(
            f"the hint waits at {len(waited)} ({len(waited) / len(rows):.0%}); there, waiting "
            f"less laying down: {mean:+.3f} ± {half:.3f} (right {right:.0%} of the time)"
        )
    best = np.array([max(row["best"], 0.0) for row in rows])
    print(
        f"waiting chosen the best way every time would give {best.mean():+.3f} a lay-down", end=""
    )
    print(f" (it leads by more than 0.1 at {np.mean(best > 0.1):.0%} of them)")
    for label, down in (("no opponent down", False), ("an opponent down", True)):
        diff = np.array([row["best"] for row in rows if row["down"] == down])
        if len(diff):
            mean, half = mean_interval(diff)
            line = f"  {label}: {len(diff)} lay-downs, the best wait less laying {mean:+.3f}"
            line += f" ± {half:.3f}"
            gains = [row["gain"] for row in rows if row["down"] == down and row["waits"]]
            if gains:
                mean, half = mean_interval(np.array(gains))
                spread = f" ± {half:.3f}" if len(gains) > 1 else ""
                line += f"; the hint waits at {len(gains)}, gaining {mean:+.3f}{spread}"
            print(line)


if __name__ == "__main__":
    main()
