"""How much any one visitor may ask of the server, and the buckets that enforce it.

Every limit is a field of :class:`Limits`; ``phase10 serve --limit NAME=VALUE`` changes
one (docs/security.md lists them). Work is metered with token buckets: a message costs
tokens by what it asks for (a hint costs more than a ping), drawn both from its
connection's bucket and from its address's, so opening more connections buys nothing.

>>> limits = Limits().with_changes(["hint_cost=20", "lobby_idle_hours=1.5"])
>>> limits.hint_cost, limits.lobby_idle_hours
(20, 1.5)
>>> Limits().with_changes(["nope=1"])
Traceback (most recent call last):
...
ValueError: no limit named 'nope'; limits: ...
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["Buckets", "Limits", "TokenBucket", "Visitors", "address_key"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Every bound the server puts on a client; the defaults suit a public server."""

    #: the largest HTTP request body, in bytes
    max_body_bytes: int = 64 * 1024
    #: the largest WebSocket message, in bytes
    max_message_bytes: int = 4096
    #: WebSocket messages: tokens a second a connection earns, and the most it can hold
    message_rate: float = 30.0
    message_burst: float = 60.0
    #: the same for all the connections of one address together
    address_message_rate: float = 60.0
    address_message_burst: float = 120.0
    #: what a solver request costs in message tokens (anything else costs 1)
    hint_cost: int = 10
    choices_cost: int = 5
    #: HTTP requests an address may make: a second, and at once
    http_rate: float = 20.0
    http_burst: float = 60.0
    #: tables an address may create: at once, and one more every so many seconds
    create_burst: float = 10.0
    create_every_seconds: float = 60.0
    #: seats an address may take by joining: at once, and one more every so many seconds
    join_burst: float = 20.0
    join_every_seconds: float = 10.0
    #: WebSockets an address may open: at once, and one more every so many seconds
    connect_burst: float = 30.0
    connect_every_seconds: float = 1.0
    #: WebSockets open at once: from one address; spectators on one table; and the
    #: connections of one seat (a player's phone and computer), which spectators never
    #: crowd out
    connections_per_address: int = 20
    connections_per_table: int = 50
    connections_per_seat: int = 3
    #: tables not yet over, on the whole server
    max_tables: int = 10_000
    #: connections (and requests in progress) the whole server takes at once
    max_connections: int = 2000
    #: the longest a client may take to send a whole request (its headers and body) once
    #: it has connected or had its last answer; a slower one is cut off
    request_seconds: float = 10.0
    #: connections of one address still sending their request, at once (more are cut off)
    requests_per_address: int = 20
    #: a lobby nobody has touched for this long is closed
    lobby_idle_hours: float = 24.0
    #: a host away this long hands the host's role to a player who is there
    host_away_seconds: float = 60.0
    #: solver work for clients (hints, choices): worker processes, the longest one job may
    #: run, and how many jobs may wait for a worker before more are refused
    solver_workers: int = 1
    solver_seconds: float = 10.0
    solver_queue: int = 16
    #: solver jobs in flight from one address at once (one per connection at most)
    solver_jobs_per_address: int = 2
    #: one address's thinking time: its tables' card bots and its hints and choices,
    #: together: seconds of it earned a second, and the most saved up (in debt, its bots
    #: wait and its hints are refused, so a visitor's tables and hints under slow house
    #: phases cannot crowd out the others')
    bot_seconds_rate: float = 0.3
    bot_seconds_burst: float = 10.0
    #: game reviews (``POST /api/records/{id}/review``): how many run at once (each in a
    #: worker process of its own; more are refused, not queued) and the longest one may run
    review_workers: int = 1
    review_seconds: float = 120.0
    #: reviews an address may start: at once, and one more every so many seconds (one
    #: visitor cannot keep the review workers to itself)
    review_burst: float = 3.0
    review_every_seconds: float = 600.0
    #: the deals a review plays out from each decision: to the hand's end, to the game's
    #: end (more is steadier and slower; each at most 512)
    review_deals: int = 48
    review_win_deals: int = 32
    #: after a connection sends this many messages over its limit in a row, it is closed
    flood_strikes: int = 200

    def with_changes(self, pairs: Iterable[str]) -> Limits:
        """These limits with ``NAME=VALUE`` changes; a clear ValueError for a bad one."""
        fields = {item.name: item for item in dataclasses.fields(self)}
        changes: dict[str, float | int] = {}
        for pair in pairs:
            name, equals, text = pair.partition("=")
            name = name.strip().replace("-", "_")
            if not equals:
                raise ValueError(f"write a limit as NAME=VALUE, not {pair!r}")
            if name not in fields:
                raise ValueError(f"no limit named {name!r}; limits: {', '.join(fields)}")
            kind = int if fields[name].type in ("int", int) else float
            try:
                value = kind(text.strip())
            except ValueError:
                what = "a whole number" if kind is int else "a number"
                raise ValueError(f"limit {name} is {what}, not {text.strip()!r}") from None
            if not 0 < value < math.inf:  # also refuses nan
                raise ValueError(f"limit {name} must be above 0, not {text.strip()}")
            changes[name] = value
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class TokenBucket:
    """Tokens earned at ``rate`` a second up to ``burst``; a request spends its cost.

    >>> now = [0.0]
    >>> bucket = TokenBucket(rate=1.0, burst=2.0, clock=lambda: now[0])
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    >>> now[0] = 1.5
    >>> bucket.take()
    True

    A cost known only once it is spent (seconds of thinking) is charged, into debt if need
    be, and ``wait`` says how long until the debt is earned back:

    >>> bucket.charge(3.0)
    >>> bucket.wait()
    2.5
    >>> now[0] = 4.0
    >>> bucket.wait()
    0.0
    """

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def can_take(self, cost: float = 1.0) -> bool:
        self.refill()
        return self.tokens >= cost

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if the bucket holds them; False (nothing spent) if not."""
        if not self.can_take(cost):
            return False
        self.tokens -= cost
        return True

    def charge(self, cost: float) -> None:
        """Spend ``cost`` tokens whether or not the bucket holds them (it may go into debt,
        which is earned back at ``rate``): for a cost known only once it is spent."""
        self.refill()
        self.tokens -= cost

    def wait(self) -> float:
        """Seconds until the bucket is out of debt (0.0: it is)."""
        self.refill()
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate

    @property
    def full(self) -> bool:
        self.refill()
        return self.tokens >= self.burst


class Buckets:
    """One :class:`TokenBucket` per key (an address), created on first use.

    Memory stays bounded: past ``size`` keys, the buckets that are full again (their key
    has been quiet long enough to be forgotten) are dropped, oldest first; if none is,
    the oldest is dropped anyway.
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float], *, size: int = 10_000
    ) -> None:
        self.rate, self.burst, self.clock, self.size = rate, burst, clock, size
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def get(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.size:
                self._forget()
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def take(self, key: str, cost: float = 1.0) -> bool:
        return self.get(key).take(cost)

    def _forget(self) -> None:
        quiet = [key for key, bucket in self._buckets.items() if bucket.full]
        for key in quiet[: max(1, len(self._buckets) // 4)]:
            del self._buckets[key]
        if len(self._buckets) >= self.size:
            self._buckets.popitem(last=False)


def address_key(host: str | None) -> str:
    """Whose limits a client's address counts against: the address itself, or for IPv6
    its /64 network (one household or server is given a whole /64).

    >>> address_key("203.0.113.9"), address_key("2001:db8::1"), address_key("2001:db8::ffff")
    ('203.0.113.9', '2001:db8::/64', '2001:db8::/64')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # a test client's or a unix socket's name
    if address.version == 6:
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class Visitors:
    """What each address has asked for lately, against the :class:`Limits`."""

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.http = Buckets(limits.http_rate, limits.http_burst, clock)
        self.creates = Buckets(1 / limits.create_every_seconds, limits.create_burst, clock)
        self.joins = Buckets(1 / limits.join_every_seconds, limits.join_burst, clock)
        self.connects = Buckets(1 / limits.connect_every_seconds, limits.connect_burst, clock)
        self.reviews = Buckets(1 / limits.review_every_seconds, limits.review_burst, clock)
        self.messages = Buckets(limits.address_message_rate, limits.address_message_burst, clock)
        #: the seconds the bots at each address's tables have spent thinking
        self.thinking = Buckets(limits.bot_seconds_rate, limits.bot_seconds_burst, clock)
        #: WebSockets open now, by address
        self.sockets: Counter[str] = Counter()

    def admit_socket(self, address: str) -> str | None:
        """Count a new WebSocket from ``address``, or say why it is refused."""
        if self.sockets[address] >= self.limits.connections_per_address:
            return "too many connections from your address"
        if not self.connects.take(address):
            return "too many new connections from your address: wait a little"
        self.sockets[address] += 1
        return None

    def socket_closed(self, address: str) -> None:
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]
