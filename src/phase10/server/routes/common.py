"""What every route shares: the table manager of the app, the visitor's address, errors."""

from __future__ import annotations

from fastapi import Request
from starlette.requests import HTTPConnection

from ..limits import address_key
from ..manager import TableManager
from ..protocol import ProtocolError, excerpt
from ..tables import LiveTable

__all__ = ["ApiError", "client_address", "manager_of", "refusal", "table_or_404"]

#: the status each refusal is answered with over HTTP (409 unless named)
STATUS = {
    "bad_name": 422,
    "name_taken": 409,
    "seeded_table": 409,
    "already_started": 409,
    "server_full": 503,
}


class ApiError(Exception):
    """An HTTP error answered as ``{"error": code, "message": message}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def manager_of(connection: HTTPConnection) -> TableManager:
    manager: TableManager = connection.app.state.manager
    return manager


def client_address(connection: HTTPConnection) -> str:
    """Whose limits the request counts against (phase10.server.limits.address_key)."""
    return address_key(connection.client.host if connection.client else None)


def refusal(error: ProtocolError) -> ApiError:
    return ApiError(STATUS.get(error.code, 409), error.code, error.message)


async def table_or_404(request: Request, table_id: str) -> LiveTable:
    table = await manager_of(request).get(table_id)
    if table is None:
        raise ApiError(404, "no_such_table", f"there is no table {excerpt(table_id, 40)!r}")
    return table
