"""Playing a tournament's games as Ray tasks, on a local Ray instance or a cluster.

Ray is optional (``pip install 'phase10[ray]'``) and imported only when used. Every
task plays one chunk of planned games with the function the tournament passes
(:func:`~phase10.sim.tournament.play_chunk`, as its worker processes do), so the games,
and the result, are the same as with worker processes. The nodes of a
cluster need phase10 installed (or a ``runtime_env`` that installs it).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from phase10.core import Rules

__all__ = ["MISSING_RAY", "RayBackendError", "check_reachable", "import_ray", "run_on_ray"]

#: What the Ray backend says when Ray is not installed.
MISSING_RAY = "the Ray backend needs Ray: pip install 'phase10[ray]'"
#: Seconds to wait for a cluster's address to answer before giving up on it.
CONNECT_TIMEOUT = 10.0
#: The ports Ray listens on when an address names none: the head node's, and Ray Client's.
RAY_PORT = 6379
RAY_CLIENT_PORT = 10001


class RayBackendError(RuntimeError):
    """Ray is missing, or the cluster could not be reached."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`RayBackendError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayBackendError(MISSING_RAY) from None
    return ray


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise :class:`RayBackendError` unless ``address`` (``host:port``, ``ray://host:port``
    or ``auto``) accepts a connection within ``timeout`` seconds.

    Ray itself retries an address that does not answer for minutes, so the tournament
    asks first and fails at once with the reason.

    >>> check_reachable("auto")  # Ray finds the cluster this machine belongs to itself
    >>> check_reachable("ray://")
    Traceback (most recent call last):
    ...
    phase10.sim.ray_backend.RayBackendError: the Ray address 'ray://' names no host (host:port or auto)
    """
    if address == "auto":
        return
    rest = address.removeprefix("ray://")
    host, colon, port_text = rest.rpartition(":")
    default = RAY_CLIENT_PORT if rest != address else RAY_PORT
    if not colon:
        host, port_text = rest, str(default)
    host = host.strip("[]")  # an IPv6 address is written [::1]:6379
    if not host:
        raise RayBackendError(f"the Ray address {address!r} names no host (host:port or auto)")
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise RayBackendError(
            f"the Ray address {address!r} has no valid port (a number from 1 to 65535)"
        )
    try:
        with socket.create_connection((host, int(port_text)), timeout=timeout):
            pass
    except socket.gaierror as error:
        raise RayBackendError(
            f"could not reach the Ray cluster at {address}: unknown host {host!r} ({error.strerror})"
        ) from None
    except TimeoutError:
        raise RayBackendError(
            f"could not reach the Ray cluster at {address}: no answer within {timeout:g} s"
        ) from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise RayBackendError(f"could not reach the Ray cluster at {address}: {reason}") from None


def run_on_ray(
    play_chunk: Callable[[tuple[str, ...], Rules, list[Any]], list[Any]],
    bots: Sequence[str],
    rules: Rules,
    chunks: Sequence[Sequence[Any]],
    *,
    jobs: int = 0,
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Any]:
    """Play every chunk of game plans as a Ray task, ``play_chunk(bots, rules, chunk)``;
    return the game summaries. (The tournament passes its function in: this module does
    not import the tournament, which imports it.)

    Connects to the cluster at ``address`` (``"auto"``: the one this machine belongs
    to) or, without one, starts a local instance of ``jobs`` CPUs (0: all); an address
    that does not answer within :data:`CONNECT_TIMEOUT` seconds is an error at once. A
    Ray already initialised in this process is used as it is. Only a Ray instance
    started here is shut down afterwards.
    """
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {
            "address": address or None,
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        if not address:
            options["num_cpus"] = jobs or None
        else:
            check_reachable(address)
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise RayBackendError(f"could not start or reach {where}: {error}") from None
        started = True
    try:
        task = ray.remote(play_chunk)
        pending = [task.remote(tuple(bots), rules, list(chunk)) for chunk in chunks]
        results: list[Any] = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                results.extend(ray.get(ref))
            if progress is not None:
                progress(len(results))
        return results
    finally:
        if started:
            ray.shutdown()
