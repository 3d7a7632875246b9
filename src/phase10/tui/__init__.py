"""Phase 10 in the terminal (Textual): ``phase10 play`` and ``phase10 replay``.

Needs the ``tui`` extra. :class:`~phase10.tui.session.Session` is the game without a
screen (undo, autosave, who plays each seat); :class:`~phase10.tui.app.PlayApp` is the
table; :class:`~phase10.tui.replay.ReplayApp` steps through a record.
"""
