"""Who is asking, and whether they may: sessions, CSRF tokens, slowed sign-ins, the trusted proxy header.

Sessions live in the server's memory behind a random token in an HttpOnly, SameSite=Strict cookie (a
restart signs everybody out; nothing about a session is on disk). Every session, signed in or not, has its
own CSRF token, which every state-changing request must echo in a form field or the X-CSRF-Token header;
comparing it in constant time against the session's is what refuses a forged request even when the browser
sends the cookie. Failed sign-ins are slowed per (address, login), doubling up to a few seconds.
"""

from __future__ import annotations

import hmac
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from ipaddress import ip_address

from starlette.requests import Request

from app import users

COOKIE = "etalon_session"
IDLE_S = 12 * 3600
FAIL_WINDOW_S = 15 * 60
MAX_DELAY_S = 8.0
# ETALON_WEB_USER_HEADER names the header a trusted reverse proxy sets to the signed-in login (off when
# unset); it is believed only from ETALON_WEB_TRUSTED_PROXIES (comma-separated addresses; default loopback).
USER_HEADER_ENV = "ETALON_WEB_USER_HEADER"
TRUSTED_PROXIES_ENV = "ETALON_WEB_TRUSTED_PROXIES"
SECURE_COOKIE_ENV = "ETALON_WEB_SECURE_COOKIES"


@dataclass
class Session:
    token: str
    csrf: str
    login: str | None = None
    seen: float = field(default_factory=time.monotonic)
    flash: list[tuple[str, str]] = field(default_factory=list)
    last_decision: str | None = None      # what `u` undoes


@dataclass(frozen=True)
class Identity:
    user: users.User
    via: str            # "web" (signed in here) or "proxy" (named by the trusted proxy)


class Sessions:
    def __init__(self) -> None:
        self._by_token: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._failures: dict[tuple[str, str], tuple[int, float]] = {}

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        with self._lock:
            session = self._by_token.get(token)
            if session is None:
                return None
            if time.monotonic() - session.seen > IDLE_S:
                del self._by_token[token]
                return None
            session.seen = time.monotonic()
            return session

    def new(self, login: str | None = None) -> Session:
        session = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), login)
        with self._lock:
            self._by_token[session.token] = session
        return session

    def sign_in(self, old: Session | None, login: str) -> Session:
        """A fresh token and CSRF token on sign-in, so a token planted before it is worth nothing."""
        if old is not None:
            self.drop(old)
        return self.new(login)

    def drop(self, session: Session) -> None:
        with self._lock:
            self._by_token.pop(session.token, None)

    # -- slowed sign-ins -------------------------------------------------------------------------------
    def delay_for(self, address: str, login: str) -> float:
        with self._lock:
            count, at = self._failures.get((address, login.lower()), (0, 0.0))
        if count == 0 or time.monotonic() - at > FAIL_WINDOW_S:
            return 0.0
        return float(min(MAX_DELAY_S, 0.25 * 2 ** (count - 1)))

    def failed(self, address: str, login: str) -> None:
        key = (address, login.lower())
        with self._lock:
            count, at = self._failures.get(key, (0, 0.0))
            if time.monotonic() - at > FAIL_WINDOW_S:
                count = 0
            self._failures[key] = (count + 1, time.monotonic())

    def succeeded(self, address: str, login: str) -> None:
        with self._lock:
            self._failures.pop((address, login.lower()), None)


def csrf_ok(session: Session | None, given: str | None) -> bool:
    return session is not None and bool(given) and hmac.compare_digest(session.csrf, str(given))


def secure_cookies() -> bool:
    return os.environ.get(SECURE_COOKIE_ENV, "").lower() in ("1", "true", "yes")


def proxy_header() -> str | None:
    return os.environ.get(USER_HEADER_ENV) or None


def trusted_proxy(request: Request) -> bool:
    allowed = [a.strip() for a in os.environ.get(TRUSTED_PROXIES_ENV, "127.0.0.1,::1").split(",") if a.strip()]
    host = request.client.host if request.client else ""
    try:
        return any(ip_address(host) == ip_address(a) for a in allowed)
    except ValueError:
        return False


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False
