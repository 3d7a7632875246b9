"""What every route shares: the table manager of the app, the visitor's address, errors."""

from __future__ import annotations

from fastapi import Request
from starlette.requests import HTTPConnection

from ..limits import address_key
from ..manager import TableManager
from ..protocol import HTTP_ERRORS, ProtocolError, excerpt
from ..tables import LiveTable

__all__ = ["ApiError", "client_address", "manager_of", "refusal", "table_or_404"]


class ApiError(Exception):
    """An HTTP error answered as ``{"error": code, "message": message}``, its status the
    code's (:data:`~phase10.server.protocol.HTTP_ERRORS`, docs/server-protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        if code not in HTTP_ERRORS:
            raise ValueError(f"no HTTP error code {code!r}")
        super().__init__(message)
        self.status, self.code, self.message = HTTP_ERRORS[code][0], code, message


def manager_of(connection: HTTPConnection) -> TableManager:
    manager: TableManager = connection.app.state.manager
    return manager


def client_address(connection: HTTPConnection) -> str:
    """Whose limits the request counts against (phase10.server.limits.address_key)."""
    return address_key(connection.client.host if connection.client else None)


def refusal(error: ProtocolError) -> ApiError:
    return ApiError(error.code, error.message)


async def table_or_404(request: Request, table_id: str) -> LiveTable:
    table = await manager_of(request).get(table_id)
    if table is None:
        raise ApiError("no_such_table", f"there is no table {excerpt(table_id, 40)!r}")
    return table
