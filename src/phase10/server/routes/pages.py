"""The pages: every one is the same ``index.html``, whose script draws it from the path;
and, only when the server is started with ``--api-docs``, the API's documentation."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from ..guard import CSP

__all__ = ["PAGES", "STATIC", "docs_router", "router"]

STATIC = Path(__file__).resolve().parent.parent / "static"
#: the pages the browser client draws
PAGES = ("/", "/t/{table_id}", "/history", "/replay/{record_id}", "/companion")

router = APIRouter(include_in_schema=False)
docs_router = APIRouter(include_in_schema=False)


def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


for path in PAGES:
    router.add_api_route(path, page, methods=["GET"])


@docs_router.get("/api/docs")
def docs() -> HTMLResponse:
    """Swagger UI, from the copy the package carries (never a CDN)."""
    # the page's scripts are this server's own; Swagger UI styles some parts inline
    csp = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    text = (STATIC / "api-docs.html").read_text()
    return HTMLResponse(text, headers={"Content-Security-Policy": csp})
