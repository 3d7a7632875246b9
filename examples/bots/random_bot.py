"""A Phase 10 bot that speaks the JSON-lines bot protocol, with nothing but the standard library.

It shows that a bot needs no part of phase10: it reads one JSON object per line on
stdin, answers with one per line on stdout, and picks from the ``legal`` list the
engine sends with every turn. Its play: lay a phase down when it can, hit when it
can, and otherwise play a random legal action (never throwing a Wild away when it
has another card to discard).

    python examples/bots/random_bot.py [--seed N]

Try it against the built-in bots:

    phase10 tournament --bots "cmd:python examples/bots/random_bot.py",greedy

docs/bot-protocol.md describes the protocol.
"""

import json
import random
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def pick(legal, rng):
    """The action to play, from the text of every legal action."""
    for verb in ("lay", "hit"):
        moves = [action for action in legal if action.split()[0] == verb]
        if moves:
            return rng.choice(moves)
    discards = [action for action in legal if action.startswith("discard")]
    keep_wilds = [action for action in discards if action != "discard W"]
    if keep_wilds:
        return rng.choice(keep_wilds)
    return rng.choice(legal)


def main(argv):
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
    rng = random.Random(seed)
    legal = []
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            seat = message["seat"]
            print(f"playing seat {seat} of {len(message['players'])}", file=sys.stderr)
            send({"type": "ready", "name": "random-example", "author": "phase10 examples"})
        elif kind == "turn":
            legal = message["legal"]
            send({"action": pick(legal, rng)})
        elif kind == "error":
            # Never expected: the answer came from the legal list. Try another one.
            print(f"refused: {message['message']}", file=sys.stderr)
            if message.get("attempts_left", 0) > 0:
                send({"action": rng.choice(legal)})
        elif kind == "game_over":
            print(f"game over: winners {message['winners']}", file=sys.stderr)
        elif kind == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
