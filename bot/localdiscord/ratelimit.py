"""Discord-style rate limits: per-route buckets keyed by their major parameter, and a global bucket.

Every limited answer carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds),
``-Reset-After`` (seconds) and ``-Bucket`` (an opaque hash shared by the routes of one bucket), as on Discord,
so discord.py paces itself exactly as it does in production. A request over a bucket's limit gets
``429 {"message", "retry_after", "global"}`` with ``Retry-After``, ``X-RateLimit-Scope`` and ``Via``.
Interaction callbacks and interaction webhooks are exempt from the global bucket, as on Discord.

The numbers are Discord's (where it publishes them, otherwise the values its headers show), and
``scale`` shortens every window by the same factor: tests keep the same bursts and refusals while a
bucket refills 20× sooner (``scale=1.0`` is Discord's own timing).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RouteLimit:
    name: str
    method: str
    pattern: re.Pattern[str]
    limit: int
    window: float  # seconds at Discord's own timing
    global_exempt: bool = False


def _route(name: str, method: str, path: str, limit: int, window: float, *, exempt: bool = False) -> RouteLimit:
    # {major} is the parameter a bucket is per (channel, guild, webhook, interaction); {x} any other id.
    regex = re.escape(path).replace(r"\{major\}", r"(?P<major>[^/]+)").replace(r"\{x\}", r"[^/]+")
    return RouteLimit(name, method, re.compile(f"^{regex}$"), limit, window, exempt)


ROUTES: tuple[RouteLimit, ...] = (
    _route("message-create", "POST", "/channels/{major}/messages", 5, 5.0),
    _route("message-edit", "PATCH", "/channels/{major}/messages/{x}", 5, 5.0),
    _route("message-delete", "DELETE", "/channels/{major}/messages/{x}", 5, 1.0),
    _route("messages-read", "GET", "/channels/{major}/messages", 50, 1.0),
    _route("reaction", "PUT", "/channels/{major}/messages/{x}/reactions/{x}/@me", 1, 0.25),
    _route("reaction", "DELETE", "/channels/{major}/messages/{x}/reactions/{x}/@me", 1, 0.25),
    _route("interaction-callback", "POST", "/interactions/{major}/{x}/callback", 10, 1.0, exempt=True),
    _route("webhook", "POST", "/webhooks/{x}/{major}", 5, 2.0, exempt=True),
    _route("webhook", "PATCH", "/webhooks/{x}/{major}/messages/{x}", 5, 2.0, exempt=True),
    _route("webhook", "GET", "/webhooks/{x}/{major}/messages/{x}", 5, 2.0, exempt=True),
    _route("webhook", "DELETE", "/webhooks/{x}/{major}/messages/{x}", 5, 2.0, exempt=True),
    _route("commands", "PUT", "/applications/{x}/guilds/{major}/commands", 2, 60.0),
    _route("commands", "PUT", "/applications/{major}/commands", 2, 60.0),
)
DEFAULT_LIMIT = (50, 1.0)  # any other route, per route and major parameter
GLOBAL_LIMIT = (50, 1.0)   # requests per second per bot, all routes together (exempt routes aside)


@dataclass
class Bucket:
    hash: str
    limit: int
    window: float
    used: int = 0
    reset_at: float = 0.0  # monotonic

    def roll(self, now: float) -> None:
        if now >= self.reset_at:
            self.used = 0
            self.reset_at = now + self.window


@dataclass
class Verdict:
    """What the limiter decided for one request: its headers, or a 429."""

    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str | None = None  # "user" | "global" when refused

    @property
    def refused(self) -> bool:
        return self.scope is not None


@dataclass
class RateLimiter:
    scale: float = 0.05
    global_limit: tuple[int, float] = GLOBAL_LIMIT
    buckets: dict[tuple[str, str, str], Bucket] = field(default_factory=dict)
    refused: list[tuple[str, str, str]] = field(default_factory=list)  # (method, path, scope)
    _global: Bucket | None = None

    def _match(self, method: str, path: str) -> tuple[str, str, int, float, bool]:
        for route in ROUTES:
            if route.method == method:
                m = route.pattern.match(path)
                if m is not None:
                    return route.name, m.group("major"), route.limit, route.window, route.global_exempt
        limit, window = DEFAULT_LIMIT
        template = re.sub(r"/\d+", "/:id", path)
        return f"{method} {template}", "", limit, window, False

    def check(self, method: str, path: str, now: float | None = None) -> Verdict:
        now = time.monotonic() if now is None else now
        name, major, limit, window, exempt = self._match(method, path)
        key = (name, major, "")
        bucket = self.buckets.get(key)
        if bucket is None:
            digest = hashlib.sha1(name.encode()).hexdigest()[:32]
            bucket = self.buckets[key] = Bucket(digest, limit, window * self.scale)
        bucket.roll(now)
        if not exempt:
            if self._global is None:
                self._global = Bucket("global", self.global_limit[0], self.global_limit[1] * self.scale)
            self._global.roll(now)
            if self._global.used >= self._global.limit:
                retry = max(self._global.reset_at - now, 0.001)
                self.refused.append((method, path, "global"))
                return Verdict({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global",
                                "Retry-After": f"{retry:.3f}", "Via": "1.1 google"}, retry, "global")
        if bucket.used >= bucket.limit:
            retry = max(bucket.reset_at - now, 0.001)
            self.refused.append((method, path, "user"))
            headers = self._headers(bucket, now)
            headers.update({"X-RateLimit-Scope": "user", "Retry-After": f"{retry:.3f}", "Via": "1.1 google"})
            return Verdict(headers, retry, "user")
        bucket.used += 1
        if not exempt and self._global is not None:
            self._global.used += 1
        return Verdict(self._headers(bucket, now))

    def blocked_until(self) -> float:
        """Monotonic time until which some bucket is empty: a client may be sleeping on it until then."""
        full = [b.reset_at for b in self.buckets.values() if b.used >= b.limit]
        if self._global is not None and self._global.used >= self._global.limit:
            full.append(self._global.reset_at)
        return max(full, default=0.0)

    @staticmethod
    def _headers(bucket: Bucket, now: float) -> dict[str, str]:
        after = max(bucket.reset_at - now, 0.0)
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(bucket.limit - bucket.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }
