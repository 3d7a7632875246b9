"""OpenSpiel's ISMCTS against this project's bots, on ``python_phase10``.

ISMCTS searches over worlds drawn by the game's ``resample_from_infostate``: the other
players' hands and the draw pile dealt again from the cards the searching player has
not seen. Leaves are valued by a cheap heuristic (phases done, cards missing for the
phase at hand, cards left once it is laid) instead of random rollouts to the end of the
game, which take thousands of moves.
Prints the searcher's win rate with a 95% Wilson interval.

    pip install 'phase10[rl]'
    python examples/rl/openspiel_ismcts.py --games 20 --simulations 40 --opponent random

The bots choose among the engine's actions; a lay-down a bot picks is played as the
action laying the most cards for that phase (the encoding's two lay-downs per phase).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import phase10.rl.openspiel  # noqa: F401 - registers python_phase10
from phase10.bots import make_player
from phase10.core.feasibility import missing
from phase10.sim.stats import wilson_interval


class ProgressEvaluator:
    """OpenSpiel's evaluator interface: a leaf's value for every player, in [-1, 1], from how
    far each player is from winning in that (sampled) world: phases completed, then for
    the phase at hand the cards still missing (the solver's count) or, once it is laid,
    the cards left to shed."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        game = state.engine_game
        natural_min = game.rules.natural_min
        progress = []
        for seat, info in enumerate(game.seats):
            done = float(len(info.completed))
            if info.laid is not None:
                done += 1.0 - len(info.hand) / 20
            else:
                allowed = game.allowed_phases(seat)
                away = min(
                    (missing(game.phase_of(i), info.hand, natural_min, limit=8) for i in allowed),
                    default=9,
                )
                done += 0.5 - away / 18
            progress.append(done)
        score = np.array(progress)
        return np.tanh(2 * (score - score.mean()))

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(action, 1 / len(actions)) for action in actions]


def play(args: argparse.Namespace, game: pyspiel.Game, number: int) -> int | None:
    """One game, the searcher at seat ``number % 2``; the winning seat (None: capped)."""
    rng = random.Random(args.seed * 1_000 + number)
    searcher = number % 2
    bot = ismcts.ISMCTSBot(
        game,
        ProgressEvaluator(),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=np.random.RandomState(rng.randrange(2**31)),
    )
    # the worlds it samples come from a seeded generator too (OpenSpiel's default sampler
    # is not seeded), so the same arguments give the same games
    worlds = random.Random(rng.randrange(2**63))
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    other = make_player(args.opponent, random.Random(rng.randrange(2**63)))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.current_player() == searcher:
            state.apply_action(bot.step(state))
        else:
            engine = state.engine_game
            action = other.choose(engine.view(engine.current))
            state.apply_action(state.core.layout.encode(engine, action))
    winners = state.engine_game.winners
    return winners[0] if winners else None


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--phases", type=int, default=1, help="play phases 1..N (0: all)")
    parser.add_argument("--max-steps", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(
        "python_phase10", {"players": 2, "phases": args.phases, "max_steps": args.max_steps}
    )
    start = time.perf_counter()
    wins = capped = 0
    for number in range(args.games):
        winner = play(args, game, number)
        capped += winner is None
        wins += winner == number % 2
    low, high = wilson_interval(wins, args.games)
    summary = {
        "settings": vars(args),
        "win_rate": wins / args.games,
        "low": round(low, 3),
        "high": round(high, 3),
        "capped": capped,
        "seconds": round(time.perf_counter() - start),
    }
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
