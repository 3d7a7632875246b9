"""The multiplayer server: tables in the browser, over a WebSocket protocol.

Needs the ``server`` extra. See docs/server-protocol.md for the protocol.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
