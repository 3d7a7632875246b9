"""What every command shares: how it fails on bad input and how it prints JSON."""

from __future__ import annotations

import json
from typing import Any, NoReturn

import typer

__all__ = ["fail", "print_json"]


def fail(message: str) -> NoReturn:
    """Print ``error: message`` to standard error and exit with status 2 (bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2))
