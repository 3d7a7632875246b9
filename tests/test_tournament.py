"""Tournaments and simulations: seeded plans, seat rotation, duplicate deals, backends,
statistics, ratings and the ``tournament`` / ``simulate`` commands."""

from __future__ import annotations

import json
import socket
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner, Result

from phase10.cli.app import app
from phase10.core import Dealt, Event, Rules, loads
from phase10.sim.ray_backend import MISSING_RAY, RayBackendError, check_reachable, import_ray
from phase10.sim.stats import (
    expected_score,
    fit_ratings,
    mean_interval,
    pairwise_wins,
    places,
    wilson_interval,
)
from phase10.sim.tournament import (
    GameSummary,
    TournamentResult,
    entry_names,
    plan_games,
    play_planned,
    run_tournament,
    simulate,
    summarize,
)

#: One phase: a game is a single hand, so these tests stay quick.
ONE_PHASE = Rules(phases=(1,))
TWO_PHASES = Rules(phases=(1, 2))
BOTS = ("greedy", "random", "random")

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def three_way() -> TournamentResult:
    return run_tournament(BOTS, games=12, rules=ONE_PHASE, seed=5, jobs=1)


# -- plans: seeds, rotation, duplicate deals -------------------------------------------


def test_the_same_seed_gives_the_same_tournament(three_way: TournamentResult) -> None:
    again = run_tournament(BOTS, games=12, rules=ONE_PHASE, seed=5, jobs=1)
    other = run_tournament(BOTS, games=12, rules=ONE_PHASE, seed=6, jobs=1)
    assert again == three_way
    assert again.to_dict()["games"][0]["seed"] == three_way.to_dict()["games"][0]["seed"]
    assert {g.seed for g in other.games}.isdisjoint({g.seed for g in three_way.games})


def test_a_game_depends_only_on_the_seed_and_its_index() -> None:
    assert plan_games(3, 9, seed=4)[:6] == plan_games(3, 6, seed=4)
    plans = plan_games(3, 9, seed=4)
    assert len({p.bot_seeds for p in plans}) == 9


def test_worker_processes_give_the_same_result(three_way: TournamentResult) -> None:
    parallel = run_tournament(BOTS, games=12, rules=ONE_PHASE, seed=5, jobs=2)
    assert parallel.jobs == 2
    assert parallel == three_way
    assert parallel.to_dict()["entries"] == three_way.to_dict()["entries"]


def test_ray_backend_gives_the_same_result() -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray instance is already running in this process")
    bots = ["random", "random"]
    local = run_tournament(bots, games=8, rules=ONE_PHASE, seed=9, jobs=1)
    done: list[int] = []
    remote = run_tournament(
        bots, games=8, rules=ONE_PHASE, seed=9, jobs=2, backend="ray", progress=done.append
    )
    assert remote.backend == "ray"
    assert remote == local
    assert done[-1] == 8 and done == sorted(done)
    assert not ray.is_initialized()  # the instance it started is shut down


def test_every_entry_sits_in_every_seat_equally_often() -> None:
    plans = plan_games(4, 12, seed=1)
    for entry in range(4):
        seats = Counter(plan.seating.index(entry) for plan in plans)
        assert seats == dict.fromkeys(range(4), 3)
    for plan in plans:
        assert sorted(plan.seating) == [0, 1, 2, 3]


def test_duplicate_deals_replay_the_same_cards_in_every_seating(
    three_way: TournamentResult,
) -> None:
    assert three_way.duplicate and three_way.rotations == 3
    plans = plan_games(3, 12, seed=5)
    by_deal: dict[int, list[int]] = {}
    for plan in plans:
        by_deal.setdefault(plan.deal, []).append(plan.index)
    assert sorted(len(games) for games in by_deal.values()) == [3, 3, 3, 3]
    for indices in by_deal.values():
        deals, seatings = [], set()
        for index in indices:
            events: list[Event] = []
            summary = play_planned(plans[index], BOTS, ONE_PHASE, events.extend)
            assert summary == three_way.games[index]  # the tournament played this very game
            first = [e for e in events if isinstance(e, Dealt)][:3]
            deals.append({e.player: e.cards for e in first})
            seatings.add(plans[index].seating)
        assert deals[0] == deals[1] == deals[2]
        assert len(seatings) == 3  # each entry held each seat's cards once


def test_fresh_deals_when_games_do_not_fill_the_rotations() -> None:
    result = run_tournament(BOTS, games=4, rules=ONE_PHASE, seed=5)
    assert not result.duplicate
    assert len({game.seed for game in result.games}) == 4
    off = run_tournament(BOTS, games=3, rules=ONE_PHASE, seed=5, duplicate=False)
    assert not off.duplicate and len({game.seed for game in off.games}) == 3


def test_simulate_keeps_the_seats_and_deals_afresh() -> None:
    result = simulate(["greedy", "random"], games=4, rules=ONE_PHASE, seed=3)
    assert {game.seating for game in result.games} == {(0, 1)}
    assert len({game.seed for game in result.games}) == 4
    assert result.rotations == 1 and not result.duplicate


def test_progress_counts_finished_games() -> None:
    for jobs in (1, 2):
        done: list[int] = []
        run_tournament(BOTS, games=6, rules=ONE_PHASE, seed=1, jobs=jobs, progress=done.append)
        assert done == sorted(done) and done[-1] == 6
        if jobs == 1:
            assert done == [1, 2, 3, 4, 5, 6]


# -- the result and its statistics -------------------------------------------------------


def test_entries_are_numbered_and_also_summed_per_bot(three_way: TournamentResult) -> None:
    assert entry_names(["strong", "greedy", "greedy"]) == ["strong", "greedy#1", "greedy#2"]
    assert three_way.names == ("greedy", "random#1", "random#2")
    assert [bot.name for bot in three_way.by_bot] == ["greedy", "random"]
    random_bot = three_way.by_bot[1]
    assert random_bot.games == 24
    assert random_bot.wins == three_way.entries[1].wins + three_way.entries[2].wins
    assert sum(entry.wins for entry in three_way.entries) == 12
    for entry in three_way.entries:
        assert entry.ci_low <= entry.win_rate <= entry.ci_high
        assert entry.games == 12


def test_the_statistics_match_the_games(three_way: TournamentResult) -> None:
    games = three_way.games
    greedy = three_way.entries[0]
    assert greedy.wins == sum(0 in game.winners for game in games)
    assert greedy.mean_score == sum(game.scores[0] for game in games) / len(games)
    assert greedy.mean_phases == sum(game.phases[0] for game in games) / len(games)
    assert greedy.mean_hands == three_way.mean_hands == 1.0  # one phase: one hand
    for game in games:
        assert game.actions > 0 and game.hands == 1
        assert all(game.phases[w] == 1 for w in game.winners)
        assert all(game.scores[w] == 0 for w in game.winners)


def _summary(index: int, winners: tuple[int, ...], phases: tuple[int, ...]) -> GameSummary:
    scores = tuple(0 if e in winners else 10 * (e + 1) for e in range(len(phases)))
    return GameSummary(
        index=index,
        deal=index,
        seed=index,
        seating=tuple(range(len(phases))),
        winners=winners,
        scores=scores,
        phases=phases,
        hands=3,
        actions=50,
    )


def test_a_bot_that_always_wins_is_rated_highest() -> None:
    games = [_summary(i, (0,), (2, 1, 0)) for i in range(20)]
    result = summarize(
        ["a", "b", "c"], games, rules=ONE_PHASE, seed=0, rotate=True, duplicate=False
    )
    ratings = [entry.rating for entry in result.entries]
    assert ratings[0] > ratings[1] > ratings[2]
    assert sum(ratings) / 3 == pytest.approx(1500)
    assert result.entries[0].win_rate == 1.0 and result.entries[0].ci_high == 1.0
    assert result.entries[1].wins == 0 and result.entries[1].ci_low == 0.0


def test_shared_wins_count_a_fraction_to_each_winner() -> None:
    games = [_summary(0, (0, 1), (2, 2, 1)), _summary(1, (2,), (1, 1, 2))]
    result = summarize(
        ["x", "y", "z"], games, rules=ONE_PHASE, seed=0, rotate=True, duplicate=False
    )
    assert [entry.wins for entry in result.entries] == [0.5, 0.5, 1.0]
    assert result.to_dict()["entries"][0]["wins"] == 0.5


def test_ratings_per_bot_ignore_games_between_its_own_entries() -> None:
    games = [_summary(i, (0,), (2, 1, 1)) for i in range(10)]
    result = summarize(
        ["strong", "greedy", "greedy"], games, rules=ONE_PHASE, seed=0, rotate=True, duplicate=False
    )
    strong, greedy = result.by_bot
    assert (strong.games, greedy.games) == (10, 20)
    assert strong.rating > 1500 > greedy.rating
    assert strong.rating + greedy.rating == pytest.approx(3000)


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson_interval(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    low, high = wilson_interval(3, 10)
    mirror = wilson_interval(7, 10)
    assert (low, high) == pytest.approx((1 - mirror[1], 1 - mirror[0]))
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_mean_interval_matches_the_sample_standard_error() -> None:
    values = np.random.default_rng(3).normal(0.1, 0.5, size=400)
    mean, half = mean_interval(values)
    assert mean == pytest.approx(values.mean())
    assert half == pytest.approx(1.959964 * values.std(ddof=1) / np.sqrt(400))
    assert mean_interval([0.3] * 5) == pytest.approx((0.3, 0.0))
    assert mean_interval([1, 0], z=1.0) == (0.5, 0.5)
    with pytest.raises(ValueError, match="at least one value"):
        mean_interval(iter(()))


def test_places_follow_the_official_order() -> None:
    assert places((1,), (10, 10, 9), (40, 90, 10)) == (1, 0, 2)
    assert places((0,), (5, 3, 3), (50, 20, 20)) == (0, 1, 1)


def test_ratings_reproduce_pairwise_odds() -> None:
    wins = pairwise_wins(2, [[(0, 0), (1, 1)]] * 299 + [[(0, 1), (1, 0)]] * 99)
    a, b = fit_ratings(wins)
    assert expected_score(a, b) == pytest.approx(299.5 / 399, abs=1e-6)
    assert fit_ratings([[0, 5], [5, 0]]) == pytest.approx([1500, 1500])


# -- bad settings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bots", "options", "message"),
    [
        ("greedy,clever", {}, "unknown bot 'clever'"),
        ("greedy,random", {"players": 3}, "2 bots for 3 players"),
        ("greedy", {}, "2 to 6 players"),
        ("greedy,random", {"games": 0}, "at least 1 game"),
        ("greedy,random", {"jobs": -1}, "jobs"),
        ("greedy,random", {"backend": "cloud"}, "backend"),
        ("greedy,random", {"address": "auto"}, "Ray backend"),
        ("greedy,random", {"players": "2"}, "players is a whole number, not '2'"),
        (None, {}, "bots are named by text"),
        (["greedy", 3], {}, "bots are named by text"),
    ],
)
def test_bad_settings_are_refused(bots: str, options: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"games": 2, "rules": ONE_PHASE, **options}
    with pytest.raises(ValueError, match=message):
        run_tournament(bots, **settings)  # type: ignore[arg-type]


def test_missing_ray_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayBackendError, match=r"pip install 'phase10\[ray\]'"):
        import_ray()
    assert "phase10[ray]" in MISSING_RAY
    result = run("tournament", "--bots", "random,random", "--games", "2", "--backend", "ray")
    assert result.exit_code == 2
    assert "pip install 'phase10[ray]'" in result.stderr


def _closed_port() -> int:
    """A local port nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_ray_address_that_answers_passes_the_check() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        check_reachable(f"127.0.0.1:{port}")
        check_reachable(f"ray://127.0.0.1:{port}")
    check_reachable("auto")


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("ray://", "names no host"),
        (":6379", "names no host"),
        ("head:port", "no valid port"),
        ("head:0", "no valid port"),
        ("head:70000", "no valid port"),
    ],
)
def test_a_malformed_ray_address_is_refused(address: str, message: str) -> None:
    with pytest.raises(RayBackendError, match=message):
        check_reachable(address)


def test_an_unreachable_ray_address_fails_at_once_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port = _closed_port()
    with pytest.raises(RayBackendError, match=rf"127\.0\.0\.1:{port}: Connection refused"):
        check_reachable(f"127.0.0.1:{port}")

    def no_answer(address: tuple[str, int], timeout: float) -> socket.socket:
        assert address == ("10.1.2.3", 6379) and timeout == 10
        raise TimeoutError

    monkeypatch.setattr(socket, "create_connection", no_answer)
    with pytest.raises(RayBackendError, match=r"10\.1\.2\.3: no answer within 10 s"):
        check_reachable("10.1.2.3")

    def unknown(address: tuple[str, int], timeout: float) -> socket.socket:
        assert address == ("head.example", 10001)  # Ray Client's port by default
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket, "create_connection", unknown)
    with pytest.raises(RayBackendError, match=r"unknown host 'head\.example'"):
        check_reachable("ray://head.example")


def test_tournament_on_an_unreachable_ray_cluster_says_so() -> None:
    pytest.importorskip("ray")
    port = _closed_port()
    result = run(
        "tournament", "--bots", "random,random", "--games", "2", "--backend", "ray",
        "--address", f"127.0.0.1:{port}",
    )  # fmt: skip
    assert result.exit_code == 2
    assert f"could not reach the Ray cluster at 127.0.0.1:{port}: Connection refused" in (
        result.stderr
    )


# -- the commands ------------------------------------------------------------------------


def test_tournament_json_has_settings_stats_and_games() -> None:
    result = run(
        "tournament", "--bots", "greedy,random,random", "--games", "6", "--phases", "1",
        "--seed", "2", "--jobs", "1", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    settings = data["settings"]
    assert settings["bots"] == ["greedy", "random", "random"]
    assert settings["entries"] == ["greedy", "random#1", "random#2"]
    assert (settings["games"], settings["players"], settings["seed"]) == (6, 3, 2)
    assert settings["rules"] == ONE_PHASE.to_dict()
    assert (settings["backend"], settings["jobs"], settings["duplicate"]) == ("process", 1, True)
    assert [entry["name"] for entry in data["entries"]] == settings["entries"]
    assert [bot["name"] for bot in data["bots"]] == ["greedy", "random"]
    entry = data["entries"][0]
    assert set(entry) == {
        "name", "bot", "games", "wins", "win_rate", "ci95", "mean_score", "mean_phases",
        "mean_hands", "rating", "forfeits",
    }  # fmt: skip
    assert len(data["games"]) == 6
    game = data["games"][0]
    assert set(game) == {
        "index", "deal", "seed", "seating", "winners", "scores", "phases", "hands", "actions",
        "seconds", "forfeit", "forfeit_reason",
    }  # fmt: skip
    assert (game["forfeit"], game["forfeit_reason"], entry["forfeits"]) == (None, None, 0)
    assert sorted(game["seating"]) == sorted(settings["entries"])
    assert "1/k" in data["ties"] and "Bradley-Terry" in data["rating_method"]
    library = run_tournament(BOTS, games=6, rules=ONE_PHASE, seed=2).to_dict()
    assert data["entries"] == library["entries"]


def test_tournament_table_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "wins.png"
    result = run(
        "tournament", "--bots", "greedy,random,random", "--players", "3", "--games", "6",
        "--phases", "1", "--jobs", "1", "--plot", str(chart),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Tournament: greedy, random, random; 6 games, 3 players, seed 0")
    assert "duplicate deals: 2 deals, each played once in every seating" in out
    for name in ("greedy", "random#1", "random#2", "By bot", "Hands per game", "Ratings:"):
        assert name in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tournament_says_when_deals_are_fresh() -> None:
    result = run(
        "tournament", "--bots", "greedy,random", "--games", "3", "--phases", "1", "--jobs", "1"
    )
    assert result.exit_code == 0, result.output
    assert "a fresh deal every game (3 games is not a multiple of 2)" in result.stdout


def test_simulate_log_and_summary() -> None:
    result = run(
        "simulate", "--bots", "greedy,random", "--games", "4", "--seed", "1", "--phases", "1",
        "--jobs", "1", "--log",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    games = [line for line in lines if line.startswith("game ")]
    assert [line.split(":")[0] for line in games] == ["game 1", "game 2", "game 3", "game 4"]
    assert all("winner " in line and "hand" in line for line in games)
    assert lines[4].startswith("Simulation: greedy, random; 4 games, seed 1")
    data = json.loads(
        run("simulate", "--bots", "greedy,random", "--games", "4", "--seed", "1", "--phases", "1",
            "--jobs", "1", "--json").stdout
    )  # fmt: skip
    assert data["settings"]["rotate"] is False
    assert {tuple(game["seating"]) for game in data["games"]} == {("greedy", "random")}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tournament", "--bots", "greedy,clever"], "unknown bot 'clever'"),
        (["tournament", "--bots", "greedy,random", "--players", "4"], "2 bots for 4 players"),
        (["tournament", "--bots", "greedy,random", "--games", "0"], "at least 1 game"),
        (["tournament", "--bots", "greedy,random", "--rules", "nope"], "no rules preset"),
        (["tournament", "--bots", "greedy,random", "--phases", "1-x"], "phases are numbers"),
        (["tournament", "--bots", "greedy,random", "--phases", "11"], "phases picks phases"),
        (["tournament", "--bots", "greedy,random", "--address", "auto"], "--backend ray"),
        (
            ["tournament", "--bots", "greedy,random", "--backend", "ray", "--address", " "],
            "the Ray address is empty",
        ),
        (["tournament", "--bots", "greedy,random", "--jobs", "-1"], "--jobs"),
        (["tournament", "--bots", "greedy,random", "--plot", "out.xyz"], "not 'out.xyz'"),
        (["tournament", "--bots", "greedy,random", "--plot", "/proc/x.png"], "cannot write"),
        (["tournament", "--bots", "greedy,random", "--phases", "3-1"], "runs backwards"),
        (
            ["tournament", "--bots", "greedy,random", "--phases", "1-99999999999"],
            "phases picks phases by number from 1 to 10, not 99999999999",
        ),
        (["tournament", "--bots", "greedy,random", "--phases", "\u00b2"], "phases are numbers"),
        (["tournament", "--bots", "greedy,random", "--phases", "1" * 5000], "phases are numbers"),
        (["tournament", "--bots", "greedy,,random"], "a bot's name is missing"),
        (["tournament", "--bots", 'cmd:"unclosed,greedy'], "cannot read the command"),
        (["tournament", "--bots", "greedy,random", "--games", "10000000001"], "at most"),
        (["simulate", "--bots", "greedy"], "2 to 6 players"),
        (["tournament", "--bots", "greedy,random", "--players", "0"], "2 to 6 players, not 0"),
        (["tournament", "--bots", "greedy,random", "--players", "1"], "2 to 6 players, not 1"),
        (["tournament", "--bots", "greedy,random", "--players", "7"], "2 to 6 players, not 7"),
        (["tournament", "--bots", "strong:,greedy"], "strong's level is 1 to 4, not ''"),
        (["tournament", "--bots", "strong:5,greedy"], "strong's level is 1 to 4, not '5'"),
        (["simulate", "--bots", "greedy,random", "--games", "-3"], "at least 1 game"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ")
    assert message in result.stderr


#: a program bot that plays its first legal action, then fails on the turn its command
#: line names: "crash" exits, "sleep" stops answering, "garbage" writes what is not JSON
FAILING_BOT = r"""
import json, sys, time
how, at = sys.argv[1], int(sys.argv[2])
turns = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "failing"}), flush=True)
    elif message["type"] == "turn":
        turns += 1
        if turns >= at:
            if how == "crash":
                print(f"crashing on purpose at turn {turns}", file=sys.stderr, flush=True)
                sys.exit(3)
            if how == "sleep":
                time.sleep(30)
            print("not json", flush=True)
        print(json.dumps({"action": message["legal"][0]}), flush=True)
    elif message["type"] == "quit":
        break
"""


@pytest.fixture
def failing_bot(tmp_path: Path) -> str:
    path = tmp_path / "failing_bot.py"
    path.write_text(FAILING_BOT)
    return f"cmd:{sys.executable} {path}"


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("crash", "exited with code 3 instead of answering a turn"),
        ("sleep", "did not answer a turn within 0.5 s"),
        ("garbage", "wrote a line that is not JSON: 'not json'"),
    ],
)
def test_a_failing_program_bot_forfeits_its_game_and_the_tournament_goes_on(
    failing_bot: str, how: str, reason: str
) -> None:
    bots = [f"{failing_bot} {how} 3", "greedy"]
    result = run_tournament(bots, games=2, rules=ONE_PHASE, seed=1, jobs=1, bot_timeout=0.5)
    assert len(result.games) == 2 and len(result.forfeits) == 2
    for game in result.games:
        assert game.forfeit == 0 and reason in game.forfeit_reason
        assert game.winners == (1,) and game.places() == (1, 0)
        assert game.actions > 0  # the game stopped where the bot failed, its state kept
    assert [entry.forfeits for entry in result.entries] == [2, 0]
    assert [entry.wins for entry in result.entries] == [0, 2]


def test_tournament_reports_forfeits_in_its_table_and_json(failing_bot: str) -> None:
    bots = f"{failing_bot} crash 2,greedy"
    common = ["--games", "2", "--phases", "1", "--jobs", "1", "--bot-timeout", "5"]
    result = run("tournament", "--bots", bots, *common)
    assert result.exit_code == 0, result.output
    assert "Forfeits: 2 games" in result.stdout
    assert "game 1: " in result.stdout and "exited with code 3" in result.stdout
    # why it failed: the bot's own last words, once for the games that failed alike
    assert result.stdout.count("crashing on purpose at turn 2") == 1
    data = json.loads(run("tournament", "--bots", bots, *common, "--json").stdout)
    assert [game["forfeit"] for game in data["games"]] == [data["settings"]["entries"][0]] * 2
    assert "exited with code 3" in data["games"][0]["forfeit_reason"]
    assert [entry["forfeits"] for entry in data["entries"]] == [2, 0]


def test_a_program_that_cannot_be_started_stops_the_tournament() -> None:
    result = run("tournament", "--bots", "cmd:/nonexistent/bot,greedy", "--games", "2",
                 "--phases", "1", "--jobs", "1")  # fmt: skip
    assert result.exit_code == 2
    assert "cannot be started" in result.stderr


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "100000"])
def test_the_bot_timeout_is_a_positive_number_of_seconds(timeout: str) -> None:
    result = run("tournament", "--bots", "greedy,random", "--bot-timeout", timeout)
    assert result.exit_code == 2
    assert "the bot timeout is a number of seconds above 0" in result.stderr


def test_games_are_played_on_one_blas_thread_and_the_count_is_restored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Several BLAS threads per process only wait on each other in the bots' small checks."""
    from phase10.sim import tournament
    from phase10.solver.blas import _openblas, set_blas_threads

    found = _openblas()
    if found is None:
        pytest.skip("NumPy does not use OpenBLAS here")
    seen: list[int] = []

    def spy(plan: object, bots: object, rules: object) -> object:
        seen.append(found[1]())
        return play_planned(plan, bots, rules)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "play_planned", spy)
    previous = set_blas_threads(2)
    try:
        run_tournament(BOTS, games=3, rules=ONE_PHASE, seed=5, jobs=1)
        tournament.play_chunk(BOTS, ONE_PHASE, plan_games(3, 2, seed=1))
        assert seen == [1] * 5
        assert found[1]() == 2
    finally:
        if previous is not None:
            set_blas_threads(previous)


def test_a_chart_path_that_is_a_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    folder = tmp_path / "chart.png"
    folder.mkdir()
    result = run("tournament", "--bots", "greedy,random", "--plot", str(folder))
    assert result.exit_code == 2
    assert result.stderr == f"error: --plot: {str(folder)!r} is a folder, not a file\n"
    assert result.stdout == ""


def test_the_workers_reported_are_the_ones_that_played() -> None:
    """One game plays in this process whatever --jobs says; no more workers than games."""
    assert run_tournament(BOTS, games=1, rules=ONE_PHASE, seed=5, jobs=0).jobs == 1
    assert run_tournament(BOTS, games=2, rules=ONE_PHASE, seed=5, jobs=1000).jobs == 2


def test_a_chart_that_cannot_be_written_loses_no_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path is checked before the games; should writing still fail, the table is out."""
    import phase10.cli.tournament as command

    def broken(result: object, path: Path) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(command, "plot_result", broken)
    result = run(
        "tournament", "--bots", "greedy,random", "--games", "2", "--phases", "1",
        "--jobs", "1", "--plot", str(tmp_path / "chart.png"),
    )  # fmt: skip
    assert result.exit_code == 2
    assert "greedy" in result.stdout and "win rate" in result.stdout
    assert "cannot write" in result.stderr and "Permission denied" in result.stderr
    assert not (tmp_path / "chart.png").exists()


def test_tables_print_every_figure_whole_into_a_pipe() -> None:
    """Printed into a file or a pipe (80 columns by default), no figure is cut short; a
    long cmd: bot name is printed whole, the table as wide as it needs."""
    args = ("simulate", "--bots", "greedy,greedy,random", "--games", "6", "--seed", "2",
            "--rules", "short-5", "--jobs", "1")  # fmt: skip
    text = run(*args).stdout
    entries = json.loads(run(*args, "--json").stdout)["entries"]
    assert "…" not in text
    for entry in entries:
        low, high = entry["ci95"]
        assert f"{100 * low:.1f}-{100 * high:.1f}" in text
        assert f"{entry['rating']:.0f}" in text
    command = f"cmd:{sys.executable} -m phase10.bots.protocol greedy"
    result = run("tournament", "--bots", f"{command},greedy", "--games", "2", "--phases", "1",
                 "--jobs", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert command in result.stdout


def test_one_bot_spelt_two_ways_is_one_bot() -> None:
    """Case, leading zeros and the default level do not make another bot: the entries are
    numbered as copies of one bot and counted together."""
    result = run_tournament("GREEDY,greedy,strong:04,Strong", games=2, rules=ONE_PHASE,
                            seed=1, jobs=1)  # fmt: skip
    assert result.bots == ("greedy", "greedy", "strong", "strong")
    assert [row.name for row in result.entries] == ["greedy#1", "greedy#2", "strong#1", "strong#2"]
    assert [row.name for row in result.by_bot] == ["greedy", "strong"]


def test_plot_without_an_ending_is_a_png(tmp_path: Path) -> None:
    chart = tmp_path / "chart"
    result = run("tournament", "--bots", "greedy,random", "--games", "2", "--phases", "1",
                 "--jobs", "1", "--plot", str(chart))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_plan_needs_an_entry() -> None:
    with pytest.raises(ValueError, match="at least 1 entry, not 0"):
        plan_games(0, 3, seed=0)


def test_saved_games_replay_to_the_results_the_tournament_counted(
    tmp_path: Path, failing_bot: str
) -> None:
    kept = tmp_path / "games" / "kept"  # (made, parents too)
    bots = ["greedy", "greedy", "random"]  # greedy alone would be played wholly in the kernel
    result = run_tournament(bots, games=6, rules=ONE_PHASE, seed=3, jobs=2, save_to=kept)
    files = sorted(kept.iterdir())
    assert [path.name for path in files] == [f"game-0000{n}.json" for n in range(1, 7)]
    names = result.names
    for path, game in zip(files, result.games, strict=True):
        record = loads(path.read_text())
        assert record.players == tuple(names[entry] for entry in game.seating)
        assert record.tag("game") == str(game.index + 1)
        replayed = record.replay()
        assert replayed.is_over and len(replayed.actions) == game.actions
        winners = sorted(names[game.seating[seat]] for seat in replayed.winners)
        assert winners == sorted(names[entry] for entry in game.winners)
    # the same tournament unsaved counts the same games (only faster for greedy alone)
    assert run_tournament(bots, games=6, rules=ONE_PHASE, seed=3, jobs=1).games == result.games
    # a forfeited game is kept as far as it went
    crashed = run_tournament([f"{failing_bot} crash 2", "greedy"], games=1, rules=ONE_PHASE,
                             save_to=tmp_path / "crashed")  # fmt: skip
    record = loads((tmp_path / "crashed" / "game-00001.json").read_text())
    assert crashed.forfeits and record.winners is None and record.actions  # (its draw)
    assert not record.replay().is_over


def test_saving_games_is_refused_where_it_cannot_be(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="cannot keep the games in"):
        run_tournament(["greedy", "random"], games=2, save_to=tmp_path / "file" / "games")
    with pytest.raises(ValueError, match="saving games is for the process backend"):
        run_tournament(["greedy", "random"], games=2, backend="ray", save_to=tmp_path / "g")


def test_the_command_line_keeps_the_games_for_review(tmp_path: Path) -> None:
    result = run("tournament", "--bots", "greedy,random", "--games", "2", "--phases", "1",
                 "--jobs", "1", "--save-games", str(tmp_path))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "game-00001.json",
        "game-00002.json",
    ]
    refused = run(
        "tournament", "--bots", "greedy,random", "--save-games", str(tmp_path / "x" / "\0")
    )
    assert refused.exit_code == 2


def test_a_record_that_cannot_be_written_stops_the_tournament_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import phase10.sim.tournament as tournament_module

    def full(*args: object, **kwargs: object) -> str:
        raise OSError(28, "No space left on device", str(tmp_path / "game-00001.json"))

    monkeypatch.setattr(tournament_module, "dumps", full)
    result = run("tournament", "--bots", "greedy,random", "--games", "2", "--phases", "1",
                 "--jobs", "1", "--save-games", str(tmp_path))  # fmt: skip
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "error: cannot keep a game's record: No space left on device "
        f"({tmp_path / 'game-00001.json'})\n"
    )
