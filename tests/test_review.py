"""Game review (phase10.search.review, ``phase10 review``): mistakes found where the right
move is certain, nothing read that the player could not see, its JSON and its chart."""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import random
import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import phase10.kernel as kernel
from helpers import arranged, play, rest_of_deck, text_of
from phase10.bots import make_player, play_game
from phase10.cli.app import app
from phase10.core import Game, LayDown, Rules, SavePile
from phase10.core.records import GameRecord, dumps
from phase10.search.review import Review, ReviewError, cache_path, review, review_key

SCHEMA = "docs/schemas/server/review.json"

pytestmark = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")

# Bob lays down 7s and 9s on his first turn and keeps one card. You, one card short of
# your own phase, then hold R7, which Bob can play at once to go out, beside cards
# nobody can use: discarding R7 ends the hand before you can make your phase.
YOU = "R1 B1 G1 R2 B2 Y6 R8 G10 R11 R7"
BOB = "R7 B7 G7 Y7 R9 G9 Y9 B9 W {last}"
DRAWN = "Y12 G1 B12"
OPENING = """draw; discard Y12
draw; lay R7 B7 G7 + R9 G9 Y9; hit Y7 g0; hit B9 g1; hit W=7 g0; discard G1
draw"""


def _record(discard: str, *, last: str = "Y5", seed: int = 1) -> GameRecord:
    """The arranged hand, You discarding ``discard`` on the second turn, then Bob's turn:
    the hidden parts (Bob's last card, the draw pile below the cards drawn) set by
    ``last`` and ``seed``."""
    bob = BOB.format(last=last)
    rest = rest_of_deck(YOU, bob, DRAWN, "R3")
    pile = DRAWN + " " + text_of(rest[seed:] + rest[:seed])
    game = arranged(
        [YOU, bob], "R3", pile, rules=Rules(phases=(1, 2)), seed=seed, names=["You", "Bob"]
    )
    play(game, OPENING)
    play(game, f"discard {discard}")
    play(game, f"take; hit R7 g0; discard {last}" if discard == "R7" else "draw")
    return GameRecord.from_game(game)


def test_handing_the_next_player_the_card_that_lets_them_out_is_a_mistake() -> None:
    done = review(_record("R7"), "You", deals=32, win_deals=8)
    last = done.decisions[-1]
    assert (last.played, last.kind) == ("discard R7", "discard")
    assert last.mistake and last.best != "discard R7", last
    assert last.after_played.phase == 0 < last.after_best.phase
    assert last.after_played.win <= last.after_best.win
    assert done.mistakes == (last,)
    assert last.reason.startswith("you make your phase 0% of the time; after discard")
    assert done.hands[-1].lost == last.loss  # the hand's loss is its one mistake's


def test_a_harmless_discard_is_not_flagged() -> None:
    done = review(_record("B12"), "You", deals=32, win_deals=8)
    assert not done.mistakes
    assert done.decisions[-1].played == "discard B12"


def test_the_review_never_reads_what_the_player_could_not_see() -> None:
    """Bob's hidden card and the draw pile's order differ; You's views are the same."""
    first = review(_record("R7"), "You", deals=8, win_deals=4).to_dict()
    other = _record("R7", last="R5", seed=7)
    assert other.actions != _record("R7").actions  # the games did differ
    assert review(other, "You", deals=8, win_deals=4).to_dict() == first
    assert "view only" in first["note"]


def test_a_review_reads_back_from_its_json_and_every_hand_is_summed_up() -> None:
    done = review(_record("B12"), "Bob", deals=8, win_deals=4)
    assert Review.from_dict(json.loads(json.dumps(done.to_dict()))) == done
    assert [h.hand for h in done.hands] == [1]
    assert done.hands[0].decisions == len(done.decisions) > 0
    assert done.chances[0].step == min(d.step for d in done.decisions)
    # what a hand lost is its mistakes' losses: the others lie within the search's noise
    assert done.hands[0].lost == sum(d.loss for d in done.decisions if d.mistake)


def test_what_cannot_be_reviewed_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record("B12")
    with pytest.raises(ReviewError, match="no player 'Cy' in this game: its players are You, Bob"):
        review(record, "Cy")
    with pytest.raises(ReviewError, match="no player 2"):
        review(record, 2)
    # rules whose greedy play-outs the kernel lacks (none today: as if one were)
    lacking = "the greedy policy in the kernel does not play some_option = 'on' yet"
    # (the package's name review is the function: the module by its full name)
    module = importlib.import_module("phase10.search.review")
    monkeypatch.setattr(module, "greedy_unsupported", lambda rules: lacking)
    with pytest.raises(ReviewError, match=r"cannot be reviewed: .*some_option"):
        review(record, 0)
    monkeypatch.undo()
    broken = GameRecord(record.players, record.rules, record.seed, record.dealer, ("discard R1",))
    with pytest.raises(ReviewError, match="action 1 \\('discard R1'\\) does not apply"):
        review(broken, 0)
    with pytest.raises(ReviewError, match="deals"):
        review(record, 0, deals=0)


def test_the_command_prints_the_mistakes_writes_json_and_a_chart_and_keeps_the_review(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(_record("R7")))
    runner = CliRunner()
    small = ["--deals", "16", "--win-deals", "4"]
    shown = runner.invoke(app, ["review", str(path), "--plot", str(tmp_path / "c.png"), *small])
    assert shown.exit_code == 0, shown.output
    assert "Mistakes (1)" in shown.output and "discard R7; the expert:" in shown.output
    assert "Estimated from your view only" in shown.output
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
    assert cache_path(path).exists()
    # the cache holds the record's moves: readable by whoever may read the record
    assert stat.S_IMODE(cache_path(path).stat().st_mode) == stat.S_IMODE(path.stat().st_mode)
    assert not list(tmp_path.glob("*.tmp"))
    listed = runner.invoke(app, ["review", str(path), "--all", *small])
    assert "Every decision" in listed.output and "discard R7 ✗" in listed.output
    as_json = runner.invoke(app, ["review", str(path), "--json", "--player", "You", *small])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert data["format"] == "phase10-review" and data["decisions"][data["mistakes"][0]]
    jsonschema = pytest.importorskip("jsonschema")  # the server's schema of a review
    schema = json.loads((Path(__file__).parent.parent / SCHEMA).read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    bad = runner.invoke(app, ["review", str(path), "--player", "Cy"])
    assert bad.exit_code == 2 and "no player 'Cy'" in bad.output
    missing = runner.invoke(app, ["review", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "there is no file" in missing.output


def test_the_command_reviews_on_one_blas_thread_and_restores_the_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several BLAS threads only wait on each other in the search's small checks."""
    from phase10.solver.blas import _openblas, set_blas_threads

    # (by name: the package's `review` is a function of the same name)
    module = importlib.import_module("phase10.search.review")
    found = _openblas()
    if found is None:
        pytest.skip("NumPy does not use OpenBLAS here")
    seen: list[int] = []
    real = module.cached_review

    def spy(*args: object, **kwargs: object) -> Review:
        seen.append(found[1]())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "cached_review", spy)
    path = tmp_path / "game.json"
    path.write_text(dumps(_record("R7")))
    previous = set_blas_threads(2)
    try:
        done = CliRunner().invoke(app, ["review", str(path), "--deals", "8", "--win-deals", "2"])
        assert done.exit_code == 0, done.output
        assert seen == [1] and found[1]() == 2
    finally:
        if previous is not None:
            set_blas_threads(previous)


def test_a_decision_with_many_ways_to_lay_down_weighs_every_discard_within_the_bound() -> None:
    from phase10.search.decisions import MAX_CANDIDATES, _candidates

    lay_downs = [(4, ((i,),)) for i in range(40)]
    discards = [(2, card, -1) for card in range(11)]
    keys = lay_downs + discards
    chosen = _candidates(keys, played=lay_downs[37], prior=discards[3])
    assert len(chosen) == MAX_CANDIDATES
    assert keys.index(lay_downs[37]) in chosen
    assert all(keys.index(d) in chosen for d in discards)


def test_by_default_the_one_person_at_the_table_is_reviewed() -> None:
    from dataclasses import replace

    from phase10.search.review import find_player

    record = _record("B12")
    assert find_player(record, None) == 0  # You
    tagged = replace(record, players=("Ann", "Bob"), tags=(("controllers", "greedy,human"),))
    assert find_player(tagged, None) == 1
    assert find_player(replace(tagged, tags=()), None) == 0
    assert find_player(tagged, "bob") == find_player(tagged, 1) == 1


def test_phases_named_at_the_deal_are_decisions_too() -> None:
    import random

    from phase10.bots import play_game
    from phase10.bots.greedy import GreedyPlayer
    from phase10.core import DeclareWhen, Game, PhaseOrder

    rules = Rules(
        phases=(1, 2),
        phase_order=PhaseOrder.ANY,
        declare=DeclareWhen.DEAL,
    )
    game = Game(["You", "Bob"], seed=2, rules=rules)
    play_game(game, [GreedyPlayer(random.Random(seat)) for seat in range(2)])
    kinds = {
        d.kind for d in review(GameRecord.from_game(game), "You", deals=4, win_deals=2).decisions
    }
    assert {"declare", "take or draw", "discard"} <= kinds


def test_games_with_save_piles_and_the_anti_phase_card_are_reviewed() -> None:
    rules = Rules(phases=(1,), save_pile=SavePile.PRIVATE, anti_phase="on")
    game = Game(["Ann", "Bob"], seed=3, rules=rules)
    play_game(game, [make_player("greedy", random.Random(seat)) for seat in range(2)])
    done = review(GameRecord.from_game(game), 0, deals=4, win_deals=4)
    assert done.decisions and done.chances
    kinds = {decision.kind for decision in done.decisions}
    assert kinds <= {"take or draw", "lay down", "hit", "discard", "skip", "save", "give up"}
    assert all(abs(sum(point.wins) - 1) < 1e-9 for point in done.chances)


def test_a_record_that_contradicts_its_own_result_is_not_reviewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(2, seed=8, rules=Rules(phases=(1,)))
    play_game(game, [make_player("greedy", random.Random(s)) for s in range(2)])
    record = GameRecord.from_game(game)
    cut = GameRecord(
        record.players, record.rules, record.seed, record.dealer, record.actions[:50],
        winners=record.winners, totals=record.totals,
    )  # fmt: skip
    with pytest.raises(ReviewError, match="cannot be reviewed: the record says"):
        review(cut, 0)
    loser = next(seat for seat in range(2) if seat not in record.winners)
    lying = GameRecord(
        record.players, record.rules, record.seed, record.dealer, record.actions,
        winners=(loser,), totals=record.totals,
    )  # fmt: skip
    with pytest.raises(ReviewError, match="cannot be reviewed"):
        review(lying, 0)
    # the kernel switched off, not missing: the message says which
    module = importlib.import_module("phase10.search.review")
    monkeypatch.setattr(module, "available", lambda: False)
    monkeypatch.setattr(module, "load_error", lambda: "turned off by PHASE10_KERNEL=off")
    with pytest.raises(ReviewError, match="not in use: turned off by PHASE10_KERNEL=off"):
        review(record, 0)


def test_a_name_two_players_share_asks_for_the_seat() -> None:
    game = Game(["Ann", "Ann", "Cy"], seed=2, rules=Rules(phases=(1,)))
    play_game(game, [make_player("greedy", random.Random(s)) for s in range(3)])
    with pytest.raises(ReviewError, match=r"2 players are named ann: give the seat \(0 and 1\)"):
        review(GameRecord.from_game(game), "ann")


def test_a_review_is_filed_under_the_game_not_the_date_its_record_was_written() -> None:
    record = _record("R7")
    later = dataclasses.replace(record, date="2031-01-02T03:04:05+00:00")
    key = review_key(record, 0, 16, 4, 0)
    assert review_key(later, 0, 16, 4, 0) == key  # the same game, written again later
    assert review_key(_record("R8"), 0, 16, 4, 0) != key  # another game
    assert review_key(record, 1, 16, 4, 0) != key and review_key(record, 0, 32, 4, 0) != key


def _counting_looks(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[tuple[int, int | None]]]:
    """The review module, and a list of its searches to the hand's end as they are made
    (how many moves, over how many deals: None for the first look's)."""
    module = importlib.import_module("phase10.search.decisions")
    looks: list[tuple[int, int | None]] = []
    hands = module.DecisionSearch.hands

    def counted(
        self: Any, candidates: list[int], rng: random.Random, deals: Any = None, **kw: Any
    ) -> Any:
        looks.append((len(candidates), deals))
        return hands(self, candidates, rng, deals, **kw)

    monkeypatch.setattr(module.DecisionSearch, "hands", counted)
    return module, looks


def test_a_close_call_gets_a_closer_look_before_the_prior_is_set_aside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module, looks = _counting_looks(monkeypatch)
    monkeypatch.setattr(module, "MARGIN", math.inf)  # every lead is a close call
    done = review(_record("R7"), "You", deals=8, win_deals=4)
    assert (2, module.CLOSER_LOOK * 8) in looks  # the prior and the leader, looked at again
    assert not done.mistakes  # and with no margin ever cleared, the prior always stands


def test_where_the_game_is_won_or_lost_this_hand_the_reason_says_so() -> None:
    """A last phase in reach: the move played lets an opponent win the game this hand far
    more often, and the reason names that rather than the phases or the points."""
    from phase10.search.review import Decision, Outcome, reason

    played = Outcome(value=-2.1, phase=0.3, points=79, rivals=1.2, win=0.2, game=-1.5)
    best = Outcome(value=-0.7, phase=0.0, points=85, rivals=1.0, win=0.35, game=0.0)
    decision = Decision(
        step=9, hand=4, kind="discard", played="discard Y4", best="discard W", choices=11,
        after_played=played, after_best=best, loss=1.4, noise=0.1, mistake=True, reason="",
    )  # fmt: skip
    view = Game(3, seed=1).view(0)
    assert reason(decision, view) == "you win the game 20% of the time; after discard W, 35%"
    calm = dataclasses.replace(decision, after_played=dataclasses.replace(played, game=0.0))
    assert reason(calm, view).startswith("your opponents make 1.2 phases between them")


def test_a_mistake_is_called_only_after_a_closer_look(monkeypatch: pytest.MonkeyPatch) -> None:
    """The move played, found a mistake on the first deals, is played again against the
    expert's choice over CLOSER_LOOK times as many deals, and its loss is measured over
    them all."""
    module, looks = _counting_looks(monkeypatch)
    done = review(_record("R7"), "You", deals=32, win_deals=8)
    last = done.decisions[-1]
    assert last.mistake and last.played == "discard R7"
    assert looks[-1] == (2, module.CLOSER_LOOK * 32)  # the last decision's, looked again


def test_a_lay_down_is_valued_with_the_rest_of_its_turn() -> None:
    """A lay-down's own play-out ends its turn by the greedy policy, where waiting is
    valued by the discard weighed: the review values a lay-down with the best discard after
    it (and the greedy policy's hits), over the same deals."""
    from phase10.kernel import KernelGame
    from phase10.search import ExpertPlayer
    from phase10.search.decisions import DecisionSearch

    game = Game(2, seed=8)
    bots = [make_player("greedy", random.Random(8 + seat)) for seat in range(2)]
    while not any(isinstance(action, LayDown) for action in game.legal_actions):
        game.apply(bots[game.current].choose(game.view(game.current)))
    seat = game.current
    view = game.view(seat)
    play = KernelGame.from_view(view)
    keys = play.legal()
    lay = next(i for i, key in enumerate(keys) if key[0] == 4)
    drop = next(i for i, key in enumerate(keys) if key[0] == 2)
    expert = ExpertPlayer(random.Random(0), deals=8)
    search = DecisionSearch(view, play, expert, seat)
    results, values = search.hands([lay, drop], random.Random(1))
    seed = random.Random(1).getrandbits(63)
    turn = search._rest_of_turn(keys[lay], 8, seed)
    assert turn is not None
    assert (values[:, 0] == turn[1]).all() and (results[:, 0] == turn[0]).all()
    plain = expert._values(search._search([lay, drop], 8, 1, seed), view, seat)
    assert (values[:, 1] == plain[:, 1]).all()  # (a discard is played out as it was)
    # the greedy policy's own discard after the lay-down is one of those weighed
    assert values[:, 0].mean() >= plain[:, 0].mean() - 1e-9


def test_the_chart_ends_on_the_game_s_result_not_a_mean_of_it() -> None:
    """The chart's lines are running means of the estimated chances, but the result at
    the end (a winner 100%, the others 0) is drawn as it is."""
    from phase10.cli.review import SMOOTHING, chart_lines
    from phase10.search.review import Point

    done = review(_record("R7"), 0, deals=8, win_deals=4)
    estimates = [Point(step, 1, (0.2 * (step % 3), 1 - 0.2 * (step % 3))) for step in range(9)]
    ended = dataclasses.replace(done, chances=(*estimates, Point(40, 2, (0.0, 1.0))))
    mine, theirs = chart_lines(ended)
    assert (mine[-1], theirs[-1]) == (0.0, 100.0) and len(mine) == 10
    window = [100 * p.wins[0] for p in estimates[-1 - SMOOTHING // 2 :]]
    assert mine[-2] == pytest.approx(sum(window) / len(window))  # (the mean leaves it out)
    # a review that stops before the game's end: every point a mean
    going = dataclasses.replace(done, chances=tuple(estimates))
    assert chart_lines(going)[0][-1] == pytest.approx(sum(window) / len(window))


@pytest.mark.parametrize("entry", [["oops"], {"format": "phase10-review", "version": 1}, 7])
def test_a_damaged_review_cache_entry_is_searched_again_not_a_crash(
    tmp_path: Path, entry: object
) -> None:
    from phase10.search.review import CACHE_FORMAT, REVIEW_VERSION, cached_review

    if isinstance(entry, dict):
        entry["version"] = REVIEW_VERSION  # (of this version, but its fields missing)
    path = tmp_path / "game.json"
    record = _record("R7")
    path.write_text(dumps(record))
    key = review_key(record, 0, 8, 4, 0)
    cache_path(path).write_text(json.dumps({"format": CACHE_FORMAT, "reviews": {key: entry}}))
    done = cached_review(path, record, 0, deals=8, win_deals=4)
    assert done.decisions  # searched afresh, and kept in the cache's place
    stored = json.loads(cache_path(path).read_text())["reviews"][key]
    assert Review.from_dict(stored) == done
