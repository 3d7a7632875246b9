"""Run the phase10 benchmarks.

Every module ``benchmarks/bench_*.py`` must define a ``main()`` function. It is
called with no arguments and may return a result to report: a mapping is
printed one entry per line, anything else (other than ``None``) as is.

Usage::

    python -m benchmarks            # run every benchmark
    python -m benchmarks NAME ...   # run only bench_NAME (or NAME) modules
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import cast

PREFIX = "bench_"


def discover() -> list[str]:
    """Return the names of all benchmark modules, sorted."""
    here = [str(Path(__file__).resolve().parent)]
    return sorted(
        info.name
        for info in pkgutil.iter_modules(here)
        if info.name.startswith(PREFIX) and not info.ispkg
    )


def report(result: object) -> None:
    """Print a benchmark's result."""
    if result is None:
        return
    if isinstance(result, Mapping):
        for key, value in result.items():
            print(f"  {key}: {value}")
    else:
        print(f"  {result}")


def run(name: str) -> None:
    """Import ``benchmarks.<name>`` and run its ``main()``."""
    module = importlib.import_module(f"{__package__ or 'benchmarks'}.{name}")
    entry = getattr(module, "main", None)
    if not callable(entry):
        raise SystemExit(f"benchmarks/{name}.py does not define main()")
    print(f"== {name.removeprefix(PREFIX)} ==", flush=True)
    start = time.perf_counter()
    result = cast(Callable[[], object], entry)()
    elapsed = time.perf_counter() - start
    report(result)
    print(f"  ({elapsed:.2f}s)", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    available = discover()
    if args:
        wanted = [a if a.startswith(PREFIX) else PREFIX + a for a in args]
        unknown = [w for w in wanted if w not in available]
        if unknown:
            print(f"unknown benchmark(s): {', '.join(unknown)}", file=sys.stderr)
            print(f"available: {', '.join(available) or '(none)'}", file=sys.stderr)
            return 2
        available = wanted
    if not available:
        print("no benchmarks found (add benchmarks/bench_*.py with a main() function)")
        return 0
    for name in available:
        run(name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
