"""The server's routes, one module per area: pages, tables, finished games, the socket."""
