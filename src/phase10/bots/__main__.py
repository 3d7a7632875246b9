"""``python -m phase10.bots greedy``: a built-in bot over the JSON-lines protocol."""

from phase10.bots.protocol import main

if __name__ == "__main__":
    raise SystemExit(main())
