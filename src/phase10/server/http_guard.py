"""The HTTP connection itself, bounded: uvicorn's protocol with a deadline for each request
and a cap on the requests one address may be sending at once.

uvicorn waits for ever on a request whose headers or body never finish, so a visitor that
opens connections and trickles a few bytes into each (a "slowloris") holds them open until
the server's whole connection limit is used up, and then everyone is refused. Here a
connection must send a whole request within :attr:`~phase10.server.limits.Limits.request_seconds`
of connecting (or of its last answer, when it is kept alive), and one address may have at
most :attr:`~phase10.server.limits.Limits.requests_per_address` connections still sending
one. A WebSocket's deadline ends when its upgrade request is read: from then on the
server's message limits apply.

>>> from phase10.server.limits import Limits
>>> protocol = guarded_http(Limits(request_seconds=2.5))
>>> protocol.request_seconds, protocol.requests_per_address
(2.5, 20)
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import Limits, address_key

__all__ = ["HEADER_BYTES", "GuardedHttp", "guarded_http"]


#: the most bytes read before a request's headers end (a header built up byte by byte is
#: copied again at each read: its cost grows with the square of its size)
HEADER_BYTES = 1024 * 1024


class GuardedHttp(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with a deadline on every request (see the module)."""

    request_seconds: ClassVar[float] = 10.0
    requests_per_address: ClassVar[int] = 20
    #: connections sending a request, by address (shared by a server's connections)
    sending: ClassVar[Counter[str]]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        #: bytes read since the request began while its headers are not all in (None: in)
        self._header_bytes: int | None = 0
        self._address = address_key(self.client[0] if self.client else None)
        if self.sending[self._address] >= self.requests_per_address:
            transport.close()  # (before a byte is read: nothing to answer)
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._header_bytes is not None:
            self._header_bytes += len(data)
            if self._header_bytes > HEADER_BYTES:  # (headers that never end)
                self.transport.close()
                return
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = self._header_bytes or 0
        self._arm()  # (a request read behind another, pipelined, has its own time)

    def _arm(self) -> None:
        if self._deadline is None:
            self.sending[self._address] += 1
            self._deadline = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._release()

    def _release(self) -> None:
        """No request of this connection is being sent any more: it counts no longer."""
        self._deadline = None
        self.sending[self._address] -= 1
        if self.sending[self._address] <= 0:
            del self.sending[self._address]

    def _too_slow(self) -> None:
        self._release()
        if not self.transport.is_closing():
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._header_bytes = None
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        headers = {name.lower() for name, _ in self.scope["headers"]}
        if b"transfer-encoding" in headers or dict(self.scope["headers"]).get(
            b"content-length", b"0"
        ).strip() not in (b"", b"0"):
            # an upgrade has no body: one that declares one would hold the connection open
            # with no deadline while the WebSocket waits for it
            self.send_400_response("a WebSocket upgrade request has no body")
            return
        # a WebSocket: its messages are bounded by the server's own limits
        self._disarm()
        super().handle_websocket_upgrade()

    def on_message_complete(self) -> None:
        self._disarm()
        self._header_bytes = 0  # (the next request's headers, if one follows)
        super().on_message_complete()

    def on_response_complete(self) -> None:
        pipelined = bool(self.pipeline)  # (a request read already goes on at once)
        super().on_response_complete()
        if not pipelined and not self.transport.is_closing():
            self._arm()  # (kept alive: the next request has the same time to arrive)

    def connection_lost(self, exc: Exception | None) -> None:
        if getattr(self, "_deadline", None) is not None:
            self._disarm()
        super().connection_lost(exc)


def guarded_http(limits: Limits) -> type[GuardedHttp]:
    """A :class:`GuardedHttp` for one server, bounded by ``limits``."""
    settings: dict[str, Any] = {
        "request_seconds": limits.request_seconds,
        "requests_per_address": limits.requests_per_address,
        "sending": Counter(),
    }
    return type("ServerHttp", (GuardedHttp,), settings)
