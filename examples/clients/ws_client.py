"""A client of `phase10 serve` over its WebSocket, written from docs/server-protocol.md.

It opens a table, fills the other seats with bots, and plays its seat to the end of the
game using nothing but the `legal` block of each `state`: it never works out a rule itself.
Needs only the standard library and `websockets` (pip install websockets):

    phase10 serve &
    python examples/clients/ws_client.py --url http://127.0.0.1:8000 --preset short-5

Its play: lay down when it can, hit when it can, otherwise discard the first card offered
(a Skip on the first player offered); declare, give and draw take the first choice. An
action the server drops for coming too fast (`rate_limited`: against quick bots a whole
game takes a second or two) is sent again a moment later.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from typing import Any

from websockets.sync.client import connect


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


def choose(legal: dict[str, Any]) -> str | None:
    """The action to send, from the state's `legal` block (None when there is nothing)."""
    for key in ("give", "declare", "draw"):
        if legal[key]:
            return str(legal[key][0]["action"])
    if legal["lay"]["ways"]:
        return str(legal["lay"]["ways"][0]["action"])
    for group in legal["hits"]:
        if group["hits"]:
            return str(group["hits"][0]["action"])
    for key in ("discards", "skips"):
        if legal[key]:
            return str(legal[key][0]["action"])
    return None


def play(url: str, *, name: str, seats: int, preset: str, options: dict[str, str],
         bots: str, timeout: float = 60.0) -> dict[str, Any]:  # fmt: skip
    """Open a table, start it with bots and play the game out; the final `state`."""
    seated = post(f"{url}/api/tables", {"name": name, "seats": seats, "preset": preset,
                                        "options": options, "bots": bots})  # fmt: skip
    socket_url = url.replace("http", "ws", 1) + f"/ws/{seated['table']}"
    acted = -1
    sent = ""  # the last action sent, to send again if it was dropped
    with connect(socket_url, open_timeout=timeout, close_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "token": seated["token"]}))
        ws.send(json.dumps({"type": "start"}))
        while True:
            message = json.loads(ws.recv(timeout=timeout))
            if message["type"] == "error" and message["code"] == "rate_limited" and sent:
                time.sleep(0.2)  # (a connection earns its tokens back, 30 a second)
                ws.send(sent)
                continue
            if message["type"] == "error":
                print(f"the server says: {message['code']}: {message['message']}", file=sys.stderr)
                continue
            if message["type"] != "state" or message["view"] is None:
                continue
            if message["table"]["status"] == "over":
                return message
            legal, version = message["legal"], message["version"]
            if not legal["turn"] or version <= acted:
                continue
            action = choose(legal)
            if action is not None:
                acted = version
                sent = json.dumps({"type": "action", "action": action, "version": version})
                ws.send(sent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a game on a phase10 server.")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server")
    parser.add_argument("--name", default="ws-client", help="the name to sit with")
    parser.add_argument("--seats", type=int, default=2, help="players at the table (2-6)")
    parser.add_argument("--preset", default="short-5", help="the rules preset")
    parser.add_argument(
        "--option", action="append", default=[], metavar="RULE=VALUE",
        help="a rules option on top of the preset, e.g. advance=all (repeatable)",
    )  # fmt: skip
    parser.add_argument("--bots", default="greedy", help="the bots in the other seats")
    args = parser.parse_args(argv)
    options = dict(option.split("=", 1) for option in args.option)
    final = play(args.url.rstrip("/"), name=args.name, seats=args.seats, preset=args.preset,
                 options=options, bots=args.bots)  # fmt: skip
    game = final["table"]["last_game"]
    print(f"game over after {final['version']} actions: winners {', '.join(game['winner_names'])}; "
          f"totals {game['totals']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
