"""The pages: every one is the same ``index.html``, whose script draws it from the path;
and, only when the server is started with ``--api-docs``, the API's documentation."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from ..guard import CSP

__all__ = ["PAGES", "STATIC", "docs_router", "for_a_person", "page", "router"]

STATIC = Path(__file__).resolve().parent.parent / "static"
#: the pages the browser client draws
PAGES = ("/", "/t/{table_id}", "/history", "/replay/{record_id}", "/companion")

router = APIRouter(include_in_schema=False)
docs_router = APIRouter(include_in_schema=False)


def page(status_code: int = 200) -> FileResponse:
    return FileResponse(
        STATIC / "index.html", status_code=status_code, headers={"Cache-Control": "no-cache"}
    )


def for_a_person(request: Request) -> bool:
    """Whether a request that found nothing came from a browser asking for a page (which
    then gets the page saying so) rather than from a program (which gets the JSON error)."""
    path = request.url.path
    return (
        request.method in ("GET", "HEAD")
        and not path.startswith(("/api/", "/static/", "/ws/"))
        and "text/html" in request.headers.get("accept", "")
    )


def _page() -> FileResponse:
    return page()


for path in PAGES:
    router.add_api_route(path, _page, methods=["GET"])


@docs_router.get("/api/docs")
def docs() -> HTMLResponse:
    """Swagger UI, from the copy the package carries (never a CDN)."""
    # the page's scripts are this server's own; Swagger UI styles some parts inline
    csp = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    text = (STATIC / "api-docs.html").read_text()
    return HTMLResponse(text, headers={"Content-Security-Policy": csp})
