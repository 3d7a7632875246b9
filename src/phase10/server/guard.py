"""What every HTTP request passes through before a route sees it.

A plain ASGI middleware (no buffering of responses):

* each address has a budget of requests (:attr:`Limits.http_rate`): past it, 429;
* request bodies are at most :attr:`Limits.max_body_bytes` (declared or streamed): 413;
* ``HEAD`` is answered as ``GET`` without the body;
* every response carries the security headers: a Content-Security-Policy allowing this
  origin only and no framing, no referrer (seat links carry tokens), no MIME sniffing.

Errors are the API's usual ``{"error": CODE, "message": TEXT}``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from .limits import Visitors, address_key

__all__ = ["SECURITY_HEADERS", "Guard"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the page's own scripts, styles and sockets only; never inside another site's frame
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: dict[str, str] = {
    "content-security-policy": CSP,
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
_HEADERS = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]
_HEADER_NAMES = frozenset(name for name, _ in _HEADERS)


class Guard:
    """The middleware: rate, size, ``HEAD`` and headers, for every HTTP request."""

    def __init__(self, app: App, visitors: Visitors, *, max_body: int) -> None:
        self.app = app
        self.visitors = visitors
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = address_key(client[0] if client else None)
        if not self.visitors.http.take(address):
            await _error(send, 429, "rate_limited", "too many requests: wait a moment")
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await _error(send, 413, "too_large", f"the request body is over {self.max_body} bytes")
            return
        head = scope["method"] == "HEAD"
        if head:
            scope = dict(scope, method="GET")
        if scope["method"] in ("POST", "PUT", "PATCH"):
            # read the whole body first (it is small, or refused): a route never sees a
            # body cut short, and a streamed one cannot grow past the limit
            body = await _read_body(receive, self.max_body)
            if body is None:
                await _error(
                    send, 413, "too_large", f"the request body is over {self.max_body} bytes"
                )
                return
            if _is_json(scope) and body and not _reads_as_json(body):
                await _error(send, 400, "bad_json", "the body is not JSON (or nests too deeply)")
                return
            receive = _replay(body, receive)

        async def guarded_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() not in _HEADER_NAMES
                ]
                message = dict(message, headers=headers + _HEADERS)
            elif message["type"] == "http.response.body" and head:
                message = dict(message, body=b"")
            await send(message)

        await self.app(scope, receive, guarded_send)


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The request's body, or None once it passes ``limit`` bytes (the rest unread)."""
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(parts)  # the client went away: the route will see it too
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _is_json(scope: Scope) -> bool:
    return any(
        name.lower() == b"content-type" and b"json" in value.lower()
        for name, value in scope.get("headers", [])
    )


def _reads_as_json(body: bytes) -> bool:
    """Whether the body is JSON a route may read (orjson stops at 1024 levels of nesting,
    where the standard library's reader would exhaust the stack)."""
    try:
        orjson.loads(body)
    except orjson.JSONDecodeError:
        return False
    return True


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _error(send: Send, status: int, code: str, message: str) -> None:
    body = orjson.dumps({"error": code, "message": message})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
