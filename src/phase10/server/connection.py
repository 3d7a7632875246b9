"""One WebSocket's side of the server: who it is, what it may still ask, its outgoing queue.

Messages out go through a bounded queue: a client that stops reading is dropped rather
than let its messages pile up. Messages in are paid for from two token buckets, the
connection's own and its address's (shared by every connection from there).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import orjson

from .limits import TokenBucket

__all__ = ["QUEUE_BYTES", "Connection", "dumps"]

#: the most text a connection may have waiting to be sent: a client that stops reading is
#: dropped once its queue holds this much (or 512 messages), not when memory runs out
QUEUE_BYTES = 4 * 1024 * 1024

log = logging.getLogger("phase10.server")


def dumps(data: Any) -> str:
    """Compact JSON text (orjson: every action sends each connection its whole state)."""
    return orjson.dumps(data).decode()


class Connection:
    """One WebSocket: its seat, its buckets, its solver job and its outgoing queue."""

    def __init__(
        self,
        send: Callable[[str], Any],
        clock: Callable[[], float],
        *,
        address: str = "",
        rate: float = 30.0,
        burst: float = 60.0,
        shared: TokenBucket | None = None,
    ) -> None:
        self.send = send
        self.address = address
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=512)
        #: the characters waiting in the queue
        self.queued = 0
        self.joined = False
        self.seat: int | None = None
        self.bad_tokens = 0
        #: messages refused for the rate in a row
        self.dropped = 0
        #: the client stopped reading: its messages piled up and the socket is closed
        self.overflowed = False
        #: the WebSocket close code and reason to end with, once the queue is sent
        self.close_code: tuple[int, str] | None = None
        #: the hint or choices being worked out for this connection (one at a time)
        self.job: asyncio.Task[None] | None = None
        self.bucket = TokenBucket(rate, burst, clock)
        self.shared = shared

    def allow(self, cost: float = 1.0) -> bool:
        """Pay for one message from both buckets (or from neither); False when either is
        short: the client sends too much, alone or with the others from its address."""
        if self.bucket.can_take(cost) and (self.shared is None or self.shared.can_take(cost)):
            self.bucket.take(cost)
            if self.shared is not None:
                self.shared.take(cost)
            self.dropped = 0
            return True
        self.dropped += 1
        return False

    def push(self, data: dict[str, Any] | str) -> None:
        text = data if isinstance(data, str) else dumps(data)
        if self.overflowed:
            return
        try:
            if self.queued + len(text) > QUEUE_BYTES:
                raise asyncio.QueueFull
            self.queue.put_nowait(text)
            self.queued += len(text)
        except asyncio.QueueFull:
            log.warning("dropping a connection that does not read its messages")
            self.overflowed = True
            while not self.queue.empty():  # (nothing more is sent: the backlog goes now)
                self.queue.get_nowait()
            self.queued = 0
            self.close()

    def end(self, code: int, reason: str) -> None:
        """Close the socket with this code once what is queued has been sent."""
        self.close_code = (code, reason)
        self.close()

    def close(self) -> None:
        """End the writer once the queued messages are sent (at once if the queue is full)."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def cancel_job(self) -> None:
        if self.job is not None and not self.job.done():
            self.job.cancel()
        self.job = None

    async def writer(self) -> None:
        while (text := await self.queue.get()) is not None:
            self.queued -= len(text)
            await self.send(text)
