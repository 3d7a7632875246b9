"""A baseline learner for Phase 10: advantage actor-critic with masked logits (PyTorch, CPU).

The learner plays seat 0 of a batch of two-player games (phases 1-3) against an
opponent that plays uniformly random legal actions of the same encoding, then is
measured against the engine's ``random`` bot (``phase10.bots.RandomPlayer``, which picks
uniformly among the engine's legal actions) through the Gymnasium environment, with
a 95% Wilson interval on its win rate.

    pip install 'phase10[rl]' torch==2.13.0
    python examples/rl/train_baseline.py --updates 600 --eval-games 1000 --seed 0

Everything is seeded: the same arguments give the same network and the same result.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from torch import nn

from phase10 import Rules
from phase10.rl import Phase10Env, VectorPhase10
from phase10.sim.stats import wilson_interval

RULES = Rules(phases=(1, 2, 3))


class Policy(nn.Module):
    def __init__(self, observations: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(observations, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.logits = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(
        self, obs: torch.Tensor, mask: torch.Tensor
    ) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        hidden = self.body(obs)
        logits = self.logits(hidden).masked_fill(mask == 0, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(hidden).squeeze(-1)


def train(args: argparse.Namespace) -> Policy:
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    # version 0's observation: the README's figures were measured with it
    vec = VectorPhase10(
        args.envs, players=2, rules=RULES, phase_reward=args.phase_reward, known_cards=False
    )
    obs, masks, agents = vec.reset(seed=args.seed)
    policy = Policy(vec.layout.observation_size, vec.layout.num_actions)
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    finished: list[float] = []
    start = time.perf_counter()
    for update in range(args.updates):
        rollout = Rollout()
        while True:
            # the opponent (seat 1) plays random legal actions until every game waits
            # for the learner; its rewards go to the learner's last step in that game
            while (agents != 0).any():
                actions = vec.random_actions(rng)
                for index in np.flatnonzero(agents != 0):
                    _step(vec, index, int(actions[index]), rollout, finished)
            if len(rollout.rewards) * args.envs >= args.rollout:
                break
            with torch.no_grad():
                dist, value = policy(torch.from_numpy(obs), torch.from_numpy(masks))
                action = dist.sample()
            rollout.add(obs, masks, action, value)
            for index in range(args.envs):
                _step(vec, index, int(action[index]), rollout, finished)
        with torch.no_grad():
            _, last_value = policy(torch.from_numpy(obs), torch.from_numpy(masks))
        _learn(policy, optimiser, args, rollout, last_value.numpy())
        if (update + 1) % args.log_every == 0:
            recent = finished[-200:]
            rate = sum(recent) / max(len(recent), 1)
            print(
                f"update {update + 1}: {len(finished)} games, win rate (last 200) {rate:.3f}, "
                f"{time.perf_counter() - start:.0f}s",
                flush=True,
            )
    return policy


class Rollout:
    def __init__(self) -> None:
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.actions: list[torch.Tensor] = []
        self.values: list[torch.Tensor] = []
        self.rewards: list[np.ndarray] = []
        self.dones: list[np.ndarray] = []

    def add(
        self, obs: np.ndarray, masks: np.ndarray, action: torch.Tensor, value: torch.Tensor
    ) -> None:
        self.obs.append(obs.copy())
        self.masks.append(masks.copy())
        self.actions.append(action)
        self.values.append(value)
        self.rewards.append(np.zeros(len(obs), np.float32))
        self.dones.append(np.zeros(len(obs), np.float32))


def _step(
    vec: VectorPhase10, index: int, action: int, rollout: Rollout, finished: list[float]
) -> None:
    core = vec.cores[index]
    reward = core.step(action)[0]
    if rollout.rewards:
        rollout.rewards[-1][index] += reward
    if core.done:
        finished.append(float(0 in core.winners()))
        if rollout.dones:
            rollout.dones[-1][index] = 1.0
        core.reset()
    vec._write(index, core)


def _learn(policy, optimiser, args, rollout, last_value) -> None:  # type: ignore[no-untyped-def]
    rewards = np.stack(rollout.rewards)
    dones = np.stack(rollout.dones)
    values = torch.stack(rollout.values).numpy()
    advantages = np.zeros_like(rewards)
    running = np.zeros(args.envs, np.float32)
    for t in reversed(range(len(rewards))):
        following = values[t + 1] if t + 1 < len(values) else last_value
        delta = rewards[t] + args.gamma * following * (1 - dones[t]) - values[t]
        running = delta + args.gamma * args.lam * (1 - dones[t]) * running
        advantages[t] = running
    returns = torch.from_numpy(advantages + values)
    adv = torch.from_numpy(advantages)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    obs = torch.from_numpy(np.stack(rollout.obs))
    mask = torch.from_numpy(np.stack(rollout.masks))
    act = torch.stack(rollout.actions)
    for _ in range(args.epochs):
        dist, value = policy(obs.flatten(0, 1), mask.flatten(0, 1))
        logp = dist.log_prob(act.flatten())
        loss = (
            -(logp * adv.flatten()).mean()
            + 0.5 * ((value - returns.flatten()) ** 2).mean()
            - args.entropy * dist.entropy().mean()
        )
        optimiser.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        optimiser.step()


def win_share(winners: np.ndarray, seat: int) -> float:
    """What a finished game counts for ``seat``: 1 for a sole win, 1/k of a win shared by
    k players, 0 for a loss (``winners``: the info's one boolean per seat).

    >>> win_share(np.array([True, False]), 0), win_share(np.array([True, False]), 1)
    (1.0, 0.0)
    >>> win_share(np.array([True, True, False]), 1)
    0.5
    """
    won = np.asarray(winners, dtype=np.bool_)
    return 1.0 / int(won.sum()) if won[seat] else 0.0


def evaluate(policy: Policy, games: int, seed: int, opponent: str) -> dict[str, float]:
    env = Phase10Env(players=2, opponents=opponent, rules=RULES, seat=None, known_cards=False)
    wins = 0.0
    for game in range(games):
        obs, info = env.reset(seed=seed * 1_000_003 + game)
        done = False
        while not done:
            with torch.no_grad():
                dist, _ = policy(
                    torch.from_numpy(obs["observation"])[None],
                    torch.from_numpy(obs["action_mask"])[None],
                )
            action = int(dist.probs.argmax())
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += win_share(info["winners"], env.seat)
    low, high = wilson_interval(wins, games)
    return {"games": games, "win_rate": wins / games, "ci95_low": low, "ci95_high": high}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--updates", type=int, default=600)
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--rollout", type=int, default=1024, help="learner steps per update")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--phase-reward", type=float, default=0.3)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log-every", type=int, default=25)
    parser.add_argument("--save", default="")
    args = parser.parse_args()
    torch.set_num_threads(1)
    start = time.perf_counter()
    policy = train(args)
    trained = time.perf_counter() - start
    result = evaluate(policy, args.eval_games, args.seed + 1, args.opponent)
    result["training_seconds"] = round(trained)
    print(json.dumps(result, indent=2))
    if args.save:
        torch.save(policy.state_dict(), args.save)


if __name__ == "__main__":
    main()
