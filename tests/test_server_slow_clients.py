"""A real ``phase10 serve`` against clients that connect and trickle: a request must arrive
whole within ``request_seconds``, and one address may be sending only so many at once, so
a visitor holding half-sent requests cannot use up the server's connections.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from server_support import free_port, server


def half_sent(port: int, data: bytes = b"GET / HTTP/1.1\r\nHost: x\r\nX-a: ") -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    connection.sendall(data)
    return connection


def closed(connection: socket.socket, within: float) -> bool:
    """Whether the server closes ``connection`` (it reads end-of-file) within the time."""
    connection.settimeout(within)
    try:
        return connection.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


@pytest.fixture
def port(tmp_path: Path) -> object:
    number = free_port()
    limits = ("--limit", "request_seconds=1", "--limit", "requests_per_address=4")
    with server(tmp_path / "db.sqlite", number, *limits):
        yield number


def test_a_half_sent_request_is_cut_off_and_the_server_answers_again(port: int) -> None:
    started = time.monotonic()
    slow = [half_sent(port) for _ in range(4)]
    extra = half_sent(port)
    assert closed(extra, within=0.5)  # a fifth from the same address: at once
    assert all(closed(connection, within=3) for connection in slow)
    assert time.monotonic() - started < 4
    assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200


def test_a_body_that_trickles_is_cut_off_too(port: int) -> None:
    headers = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 400\r\n\r\n{"name": '
    )
    assert closed(half_sent(port, headers), within=3)


def test_kept_alive_connections_and_websockets_are_not_cut_off(port: int) -> None:
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
        for _ in range(3):  # one connection kept alive, a request each half a second
            assert client.get("/healthz").status_code == 200
            time.sleep(0.5)
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/ws/nosuchtable") as ws:
        time.sleep(1.6)  # past the request deadline: the socket is the server's to close
        message = ws.recv(timeout=3)
        assert "error" in str(message) or "table" in str(message)


def test_an_upgrade_that_declares_a_body_is_refused(port: int) -> None:
    """Asking for a WebSocket with a body would hold the connection with no deadline while
    the WebSocket waited for the body: such a request is refused at once."""
    upgrade = (
        b"GET /ws/abc HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    connection = half_sent(port, upgrade)
    connection.settimeout(3)
    answer = connection.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400") and b"upgrade request has no body" in answer
    assert closed(connection, within=1)


def test_a_request_pipelined_behind_another_has_its_own_deadline(port: int) -> None:
    both = (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{"
    )
    connection = half_sent(port, both)
    connection.settimeout(3)
    answered = b""
    started = time.monotonic()
    while time.monotonic() - started < 3:
        try:
            chunk = connection.recv(4096)
        except TimeoutError:
            break
        if not chunk:
            break
        answered += chunk
    assert answered.startswith(b"HTTP/1.1 200")  # the first request is answered
    assert closed(connection, within=3)  # and the second, never finished, is cut off


def test_headers_that_never_end_are_cut_off_by_their_size(port: int) -> None:
    connection = half_sent(port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
    try:
        for _ in range(40):  # 2.5 MB of one header, well within the deadline
            connection.sendall(b"a" * 65536)
    except (BrokenPipeError, ConnectionResetError):
        pass  # (cut off while sending)
    assert closed(connection, within=0.5)
