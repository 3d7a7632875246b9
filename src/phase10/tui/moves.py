"""The person's keys and clicks: each becomes an action the engine checks, or opens a
page of help. An illegal move is explained (:meth:`TableApp.say`) and changes nothing.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from textual import on
from textual.binding import Binding, BindingType

from phase10.bots.hints import Hint, hint
from phase10.core import (
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    Event,
    GiveUp,
    GiveWild,
    IllegalActionError,
    InvalidActionError,
    LayDown,
    PlayerView,
    Refusal,
    Save,
    SavePile,
    SkipTarget,
    Stage,
    TakeDiscard,
    TakeSaved,
)
from phase10.core.labels import action_label
from phase10.core.rules_text import OPTION_SENTENCES
from phase10.search import searched_hint

from .render import meld_title, plural, refusal_text
from .screens import ChoiceScreen, InfoScreen, phase_list_table, rules_page, score_sheet_table
from .session import ChoiceError, SessionError, Settings, hit_choices, lay_down_choices, save_copy
from .table import TableApp
from .widgets import CardChip, GroupRow, PilesPanel

__all__ = ["KEYS", "TableMoves"]

#: every key of the table, for the help page and the README
KEYS = (
    ("d / t", "draw from the pile / take the top discard (or click the pile)"),
    ("← →, space", "move along your hand, select or unselect a card (or click it)"),
    ("1-9, 0", "select or unselect the card at that place (0: the 10th)"),
    ("home / end", "the cursor to the first / last card (← → stop at the ends)"),
    ("a", "apply the hint: select the cards its first step names"),
    ("l", "lay down the selected cards as your phase (none selected: the hint's way)"),
    ("h", "hit the selected card (none: the one under the cursor) on a group, or click it"),
    (
        "x",
        "discard the selected card (select it first), or click the discard pile; a Skip "
        "asks whom it skips, the Anti-phase card (A) as your last card whom it names",
    ),
    ("e / g", "declare a phase / give the turned-up Wild (when the rules ask)"),
    ("S / T", "save the selected card / take a saved card back (save pile rules)"),
    ("G", "give up your phase on the table (Masters Variant #2; it asks first)"),
    ("?", "hint: what the solver would do (again: the whole hint, in a page)"),
    ("u", "undo your last action, within the hand (when undo is on)"),
    ("s", "sort your hand by number or by colour"),
    ("c", "colour-blind mode: letters and marks on every colour"),
    ("p / r / k", "the phase list / the rules / these keys"),
    ("o", "the score sheet: every hand's points and totals"),
    ("ctrl+s", "save a copy of the game record"),
    ("esc", "clear the selection"),
    ("q", "quit (the game is saved: make play, then Resume (Ctrl+R), goes on)"),
)


_TABLE_ACTIONS = {
    "draw", "take", "lay", "hit", "discard", "hint", "undo", "sort", "colour_blind",
    "phases", "rules", "keys", "quit_game", "declare", "give", "cursor",
    "clear", "save", "pick", "select", "scores", "cursor_to", "apply_hint",
    "save_card", "take_saved", "give_up",
}  # fmt: skip


class TableMoves(TableApp):
    """The table's keys and clicks. The game's flow (:class:`~phase10.tui.app.PlayApp`) says
    what happens after a move (:meth:`after`) and who moves next (:meth:`advance`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # the footer shows only the moves, the hint and k (every key): it fits 80 columns
        Binding("d", "draw", "Draw"),
        Binding("t", "take", "Take"),
        Binding("l", "lay", "Lay"),
        Binding("h", "hit", "Hit"),
        Binding("x", "discard", "Discard"),
        Binding("question_mark", "hint", "Hint"),
        Binding("k", "keys", "All keys"),
        Binding("q", "quit_game", "Quit"),
        Binding("o", "scores", "Scores", show=False),
        Binding("u", "undo", "Undo", show=False),
        Binding("u", "undo_off", show=False),
        Binding("s", "sort", "Sort", show=False),
        Binding("c", "colour_blind", "Colour-blind", show=False),
        Binding("p", "phases", "Phases", show=False),
        Binding("r", "rules", "Rules", show=False),
        Binding("e", "declare", "Declare", show=False),
        Binding("g", "give", "Give Wild", show=False),
        # upper case: s sorts, t takes the discard, g gives the Wild
        Binding("S", "save_card", "Save", show=False),
        Binding("T", "take_saved", "Take saved", show=False),
        Binding("G", "give_up", "Give up", show=False),
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("home", "cursor_to(0)", "First card", show=False),
        Binding("end", "cursor_to(-1)", "Last card", show=False),
        Binding("a", "apply_hint", "Apply hint", show=False),
        Binding("space", "select", "Select", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("ctrl+s", "save", "Save", show=False),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)],
        Binding("0", "pick(10)", show=False),
    ]

    #: the new game's settings (the rules page shows theirs before a game starts)
    settings: Settings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a game without undo (--no-undo) has no Undo key; u says why instead (undo_off)
        undo = self.session is not None and self.session.undo_allowed
        if (
            action in ("undo", "undo_off")
            and self.session is not None
            and undo is (action == "undo_off")
        ):
            return False
        # the table's keys sleep while a dialog or the new-game screen is up
        return not (action in _TABLE_ACTIONS and self.screen is not self.screen_stack[0])

    @abstractmethod
    def after(self, events: Sequence[Event]) -> None:
        """Show what an action did, then go on."""

    @abstractmethod
    def advance(self) -> None:
        """Hand the move to whoever is next."""

    # -- the person's moves -----------------------------------------------------------

    def play(self, action: Action | None) -> None:
        """Submit the person's action; an illegal one is explained and changes nothing."""
        if action is None or self.session is None:
            return
        if self.thinking or self.waiting or not self.session.human_to_move:
            self.say("wait for your turn")
            return
        # drawing keeps the cards chosen beforehand selected (they move as the hand sorts)
        keep = self._selected_cards() if isinstance(action, (Draw, TakeDiscard)) else []
        try:
            events = self.session.apply(action)
        except (IllegalActionError, InvalidActionError, SessionError) as error:
            self.say(refusal_text(error))
            return
        self.error_text = ""
        self.selected = self._places_of(keep)
        self.hinted = None
        self.show_hint("")
        self.after(events)

    def _places_of(self, cards: Sequence[Card]) -> set[int]:
        """Where ``cards`` sit in the hand as shown (copies of a card take distinct places)."""
        shown = self._shown_hand()
        places: set[int] = set()
        for card in cards:
            place = next((i for i, c in enumerate(shown) if c == card and i not in places), None)
            if place is not None:
                places.add(place)
        return places

    def _selected_cards(self) -> list[Card]:
        cards = self._shown_hand()
        return [cards[p] for p in sorted(self.selected)]

    def _one_card(self) -> Card | None:
        """The selected card, or the one under the cursor when none is selected."""
        cards = self._selected_cards()
        if len(cards) == 1:
            return cards[0]
        if not cards:
            shown = self._shown_hand()
            return shown[self.cursor] if shown else None
        self.say("select just one card for that")
        return None

    def _my_turn(self) -> bool:
        if self.session is None:
            return False
        if self.session.game.is_over:
            self.say("the game is over")
            return False
        if self.thinking or not self.session.human_to_move:
            self.say("it is not your turn yet")
            return False
        return True

    def action_draw(self) -> None:
        if self._my_turn():
            self.play(Draw())

    def action_take(self) -> None:
        if self._my_turn():
            self.play(TakeDiscard())

    def action_lay(self) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        if not self.selected:
            # nothing selected: lay down as the hint does (its way comes first); where the
            # searched hint would wait, as the plan would lay it
            def lay_downs(advice: Hint) -> list[LayDown]:
                return [s.action for s in advice.steps if isinstance(s.action, LayDown)]

            ways = lay_downs(self._searched_hint()) or lay_downs(hint(self.session.view))
            laid = ways[0] if ways else None
            if laid is not None:
                self.selected = self._places_of([c for g in laid.groups for c in g.cards])
                self.hinted = laid
        try:
            choices = lay_down_choices(self.session.view, self._selected_cards())
        except ChoiceError as error:
            if error.code is Refusal.NOTHING_SELECTED:
                # nothing was selected and the hint (the solver) finds no lay-down
                self.say("your hand does not make your phase yet: ? shows what it misses")
            else:
                self.say(refusal_text(error))
            return
        # each way in words, every Wild with the value it stands for (W=7), as the browser
        view = self.session.view
        self._choose_then_play("Lay down how?", [(action_label(view, a), a) for a in choices])

    def action_hit(self, group_id: int | None = None) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        card = self._one_card()
        if card is None:
            return
        view = self.session.view
        try:
            choices = hit_choices(view, card)
        except ChoiceError as error:
            self.say(refusal_text(error))
            return
        if group_id is not None:
            choices = [hit for hit in choices if hit.group == group_id]
            if not choices:
                self.say(f"{card} does not fit group g{group_id}")
                return
        labels = []
        for hit in choices:
            title = meld_title(view, hit.group, view.melds[hit.group])
            where = f" as {hit.number}" if hit.number is not None else ""
            labels.append((f"{title}: {view.melds[hit.group].group.describe()}{where}", hit))
        self._choose_then_play(f"Hit {card} where?", labels)

    def action_discard(self) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        if not self.selected and self.session.view.stage in (Stage.PLAY, Stage.WILD_DISCARD):
            # never the card under the cursor: a discard is not taken back by accident
            self.say("select the card to discard first (space, or click it), then x")
            return
        card = self._one_card()
        if card is None:
            return
        view = self.session.view
        me = self.session.human
        if card.is_skip and view.rules.skip_target is SkipTarget.CHOOSE:
            targets = view.skip_targets(me)
            if targets:
                self._choose_then_play(
                    "Skip whom?", [(view.seats[t].name, Discard(card, t)) for t in targets]
                )
                return
        if card.is_anti:
            # only as the last card does it name someone: the engine's legal discards say
            # whether it does now, and whom it may name
            named = [a for a in view.legal_actions if isinstance(a, Discard) and a.card == card]
            named = [a for a in named if a.target is not None]
            if named:
                # how many phases each has done: naming one with none costs them nothing
                options = []
                for action in named:
                    assert action.target is not None
                    done = plural(len(view.seats[action.target].completed), "phase")
                    options.append((f"{action_label(view, action)} ({done} done)", action))
                self._choose_then_play(
                    "Go out with the Anti-phase card: who moves down a phase?", options
                )
                return
        self.play(Discard(card))

    def action_save_card(self) -> None:
        """Save the selected card on your save pile (it ends the turn, like a discard)."""
        if not self._my_turn():
            return
        assert self.session is not None
        if self.session.view.rules.save_pile is SavePile.OFF:
            self.play(Save(Card.parse("W")))  # the engine says these rules have none
            return
        if not self.selected and self.session.view.stage is Stage.PLAY:
            # as with x: the turn ends, so never the card under the cursor by accident
            self.say("select the card to save first (space, or click it), then S")
            return
        card = self._one_card()
        if card is not None:
            self.play(Save(card))

    def action_take_saved(self) -> None:
        """Take a card back from your save pile instead of drawing (which one, if several)."""
        if not self._my_turn():
            return
        assert self.session is not None
        view = self.session.view
        offered = list(dict.fromkeys(a for a in view.legal_actions if isinstance(a, TakeSaved)))
        if offered:
            self._choose_then_play(
                "Take which card back from your save pile?", [(str(a.card), a) for a in offered]
            )
        elif view.saved:
            self.play(TakeSaved(view.saved[-1]))  # the engine says why not
        elif view.rules.save_pile is SavePile.OFF:
            self.play(TakeSaved(Card.parse("W")))  # the engine says these rules have none
        else:
            self.say("your save pile is empty")

    def action_give_up(self) -> None:
        """Give up your phase on the table (Masters Variant #2), once you confirm it."""
        if not self._my_turn():
            return
        assert self.session is not None
        view = self.session.view
        if GiveUp() not in view.legal_actions:
            self.play(GiveUp())  # refused: the engine says why
            return
        laid = view.seats[self.session.human].laid
        phase = f"phase {laid + 1}" if laid is not None else "your phase"
        # the rule in the rule book's words; the safe answer comes first
        rule = OPTION_SENTENCES["give_up"][view.rules.give_up]
        options: list[tuple[str, Action | None]] = [("Keep it", None), ("Give it up", GiveUp())]
        self.push_screen(ChoiceScreen(f"Give up {phase}? {rule}", options), self.play)

    def action_declare(self) -> None:
        self._stage_choice(
            Stage.DECLARE,
            "Declare which phase?",
            "there is nothing to declare now",
            lambda view, action: (
                f"phase {action.phase}: {view.phase_of(action.phase - 1)}"
                if isinstance(action, Declare)
                else None
            ),
        )

    def action_give(self) -> None:
        self._stage_choice(
            Stage.GIVE_WILD,
            "Give the Wild to whom?",
            "there is no Wild to give now",
            lambda view, action: (
                view.seats[action.player].name if isinstance(action, GiveWild) else None
            ),
        )

    def _stage_choice(
        self,
        stage: Stage,
        title: str,
        refusal: str,
        label: Callable[[PlayerView, Action], str | None],
    ) -> None:
        """Offer the legal actions of a stage that asks one question (declare, give)."""
        if not self._my_turn():
            return
        assert self.session is not None
        view = self.session.view
        if view.stage is not stage:
            self.say(refusal)
            return
        labelled = [(label(view, action), action) for action in view.legal_actions]
        options = [(text, a) for text, a in labelled if text is not None]
        # a phase's number chooses it (0: phase 10), as in the browser
        numbers = [str(a.phase % 10) for _, a in options if isinstance(a, Declare)]
        keys = (
            numbers if len(numbers) == len(options) and len(set(numbers)) == len(numbers) else None
        )
        self._choose_then_play(title, options, keys)

    def _choose_then_play(
        self, title: str, options: Sequence[tuple[str, Action]], keys: Sequence[str] | None = None
    ) -> None:
        if len(options) == 1:
            self.play(options[0][1])
        else:
            # the hint's own way under the cursor and marked, when the hint chose these cards
            actions = [action for _, action in options]
            start = actions.index(self.hinted) if self.hinted in actions else 0
            options = [
                (f"{text} · the hint's" if action == self.hinted else text, action)
                for text, action in options
            ]
            self.push_screen(ChoiceScreen(title, options, start, keys), self.play)

    @on(CardChip.Clicked)
    def card_clicked(self, event: CardChip.Clicked) -> None:
        self.cursor = event.position
        self.action_select()

    @on(PilesPanel.Clicked)
    def pile_clicked(self, event: PilesPanel.Clicked) -> None:
        if self.session is None:
            return
        if event.pile == "draw":
            self.action_draw()
        elif event.pile == "saved":
            if self.session.view.stage is Stage.DRAW:
                self.action_take_saved()
            else:
                self.action_save_card()
        elif self.session.view.stage is Stage.DRAW:
            self.action_take()
        else:
            self.action_discard()

    @on(GroupRow.Clicked)
    def group_clicked(self, event: GroupRow.Clicked) -> None:
        self.action_hit(event.group_id)

    def action_cursor(self, step: int) -> None:
        # the cursor stops at the ends (Home / End jump there): no surprise wrap
        count = len(self._shown_hand()) if self.session else 0
        if count:
            self.cursor = max(0, min(count - 1, self.cursor + step))
            self._refresh_hand()

    def action_cursor_to(self, place: int) -> None:
        count = len(self._shown_hand()) if self.session else 0
        if count:
            self.cursor = place % count
            self._refresh_hand()

    def action_apply_hint(self) -> None:
        """Select the cards the hint's first step names ("discard B11" selects B11); a step
        with no cards to select (draw, take) is shown with its key."""
        if not self._my_turn():
            return
        assert self.session is not None
        advice = self._searched_hint()
        if not advice.steps:
            self.say("the hint names no cards now")
            return
        action = advice.steps[0].action
        wanted = list(advice.steps[0].cards)
        if not wanted:  # (no cards to pick: the hint, led by the key that makes its move)
            keys = {Draw: "d", TakeDiscard: "t", TakeSaved: "T"}
            key = keys.get(type(action), "")
            self._show_advice(advice, f"press {key}" if key else "")
            return
        chosen = self._places_of(wanted)
        self.selected = chosen
        self.hinted = action
        if chosen:
            self.cursor = min(chosen)
        self.error_text = ""
        self._show_advice(advice)
        self.refresh_table()

    def action_select(self) -> None:
        if self.session is None or not self._shown_hand():
            return
        self.selected ^= {self.cursor}
        if self.error_text:  # a refusal goes once a key does something
            self.error_text = ""
            self.refresh_table()
        else:
            self._refresh_hand()

    def action_pick(self, number: int) -> None:
        if self.session is None or number > len(self._shown_hand()):
            return
        self.cursor = number - 1
        self.action_select()

    def action_clear(self) -> None:
        self.selected.clear()
        self.hinted = None
        self.error_text = ""
        self.refresh_table()

    # -- help, settings, saving -------------------------------------------------------

    def _show_advice(self, advice: Hint, lead: str = "") -> None:
        """The hint under the hand, on one line (a step or a part of it between dots),
        after ``lead`` (the key that makes its move, where no cards are to be selected).
        A refusal shown before goes: the hint is what to do now."""
        if self.error_text:
            self.error_text = ""
            self.refresh_table()
        self.show_hint(f"Hint{f' ({lead})' if lead else ''}: " + str(advice).replace("\n", " · "))

    def action_hint(self) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        if self.hint_text:  # (every move hides it) the same hint, whole, in a page that scrolls
            # (a step or a part a line, as the hint is written, where its line joins them)
            whole = self.hint_text.split(": ", 1)[-1].replace(" · ", "\n")  # (after "Hint: ")
            self.push_screen(InfoScreen("Hint", whole))
            return
        self._show_advice(self._searched_hint())

    def _searched_hint(self) -> Hint:
        """The hint for the view as it is, searched once a position (? then a or l)."""
        assert self.session is not None
        view = self.session.view
        if self._hint_for is None or self._hint_for[0] != view:
            self._hint_for = (view, searched_hint(view))
        return self._hint_for[1]

    def action_undo_off(self) -> None:
        self.action_undo()  # refused: the session says undo is off

    def action_undo(self) -> None:
        if self.session is None or self.waiting:
            return
        try:
            taken = self.session.undo()
        except SessionError as error:
            self.say(str(error))
            return
        self.thinking = False
        self.selected.clear()
        self.hinted = None
        self.error_text = ""
        self._reset_log()
        self.notify(f"took back {taken} action{'s' if taken != 1 else ''}")
        self.advance()

    def action_sort(self) -> None:
        self.sort_by = "colour" if self.sort_by == "number" else "number"
        self.selected.clear()
        self.refresh_table()

    def action_colour_blind(self) -> None:
        self.colour_blind = not self.colour_blind
        self.refresh_table()

    def action_phases(self) -> None:
        if self.session is None:
            return
        view = self.session.view
        me = view.seats[self.session.human]
        self.push_screen(
            InfoScreen(
                "Phases",
                phase_list_table(
                    view.rules,
                    sorted(me.completed),
                    view.allowed_phases(self.session.human),
                    me.laid,
                ),
            )
        )

    def action_scores(self) -> None:
        if self.session is None:
            return
        sheet = score_sheet_table(self.session.names, self.session.view.hand_results)
        self.push_screen(InfoScreen("Score sheet", sheet))

    def action_rules(self) -> None:
        rules = self.session.game.rules if self.session else self.settings.rules
        self.push_screen(InfoScreen("Rules", rules_page(rules)))

    def action_keys(self) -> None:
        table = Table(box=None, show_header=False)
        table.add_column(style="bold")
        table.add_column()
        for keys, meaning in KEYS:
            table.add_row(keys, meaning)
        self.push_screen(InfoScreen("Keys", table))

    def action_save(self) -> None:
        if self.session is None:
            return
        try:
            path = save_copy(self.session)
        except OSError as error:
            self.say(f"could not save: {error}")
            return
        self.notify(f"saved to {path}")

    def action_quit_game(self) -> None:
        self.exit()
