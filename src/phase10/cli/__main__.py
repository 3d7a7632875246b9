"""``python -m phase10.cli``: the same as the ``phase10`` command."""

from phase10.cli import main

if __name__ == "__main__":
    main()
