"""Tianshou DQN on the PettingZoo AEC environment: a learner at seat 0 against random
legal play at seat 1 (Tianshou's ``MultiAgentOffPolicyAlgorithm``), on short games.

    pip install 'phase10[rl]' 'tianshou>=2,<3' torch==2.13.0
    python examples/rl/tianshou_dqn.py --epochs 5 --epoch-steps 2000 --seed 0

Every step's ``info`` holds the same keys (``winners`` is empty until the end), as
Tianshou's replay buffer needs. The masks reach the policy as Tianshou's ``mask``. It
plays ``phase10_v1``, the version docs/rl.md's figures were measured with; for new work
use ``phase10_v3``.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from phase10 import Rules
from phase10.rl import phase10_v1

RULES = Rules(phases=(1,))


def make_env(args: argparse.Namespace) -> PettingZooEnv:
    return PettingZooEnv(
        phase10_v1.env(
            players=2, rules=RULES, max_steps=args.max_steps, phase_reward=args.phase_reward
        )
    )


def build(args: argparse.Namespace) -> MultiAgentOffPolicyAlgorithm:
    env = make_env(args)
    space = env.observation_space["observation"]
    net = Net(state_shape=space.shape, action_shape=env.action_space.n, hidden_sizes=[256, 256])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=env.action_space, eps_training=0.1, eps_inference=0.0
    )
    learner = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=args.lr),
        n_step_return_horizon=3,
        gamma=0.99,
        target_update_freq=200,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    return MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--epoch-steps", type=int, default=2000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--test-episodes", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=2000)
    parser.add_argument("--phase-reward", type=float, default=0.1)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more threads only contend
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    train_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(2)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1)
    algorithm = build(args)
    train = Collector[CollectStats](
        algorithm, train_envs, VectorReplayBuffer(20_000, args.envs), exploration_noise=True
    )
    test = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train.reset()
    train.collect(n_step=64 * args.envs)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train,
            test_collector=test,
            max_epochs=args.epochs,
            epoch_num_steps=args.epoch_steps,
            collection_step_num_env_steps=10,
            test_step_num_episodes=args.test_episodes,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.1,
            test_in_training=False,
            multi_agent_return_reduction=lambda rewards: rewards[:, 0],
            show_progress=args.progress,
        )
    )
    summary = {
        "epochs": args.epochs,
        "env_steps": int(result.train_step),
        "best_return_seat_0": float(result.best_reward),
    }
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
