"""Local accounts of the workbench: who a lawyer is when they decide, approve or sign in the browser.

Stored in `$ETALON_HOME/users.json`, rewritten atomically (a temporary file, fsync, rename), so a killed
command never leaves half a file. Passwords are hashed with Argon2id (argon2-cffi); the file never holds a
password. `name` is the person's full name as etalons spell their `author` and as records carry it in
`decided_by`, `approved_by`, `signed_by`: the approval rules compare it with the etalon's author and signer.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import threading
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

ROLES: tuple[str, ...] = ("author", "reviewer", "admin")
LOGIN = re.compile(r"^[a-z0-9][a-z0-9._-]{1,63}$")
MIN_PASSWORD = 10
_HASHER = PasswordHasher()
# Verified when the login is unknown, so that a wrong login costs as long as a wrong password.
_DUMMY = _HASHER.hash("not a password of anybody")
_LOCK = threading.Lock()


class UserError(ValueError):
    """A refused change to the accounts, with a reason a user can act on."""


@dataclass(frozen=True)
class User:
    login: str
    name: str
    roles: tuple[str, ...]
    password_hash: str = field(repr=False)
    disabled: bool = False
    created_at: str = ""

    def has(self, *roles: str) -> bool:
        return "admin" in self.roles or any(r in self.roles for r in roles)

    def public(self) -> dict[str, object]:
        """What may be shown: everything but the hash."""
        return {"login": self.login, "name": self.name, "roles": list(self.roles), "disabled": self.disabled,
                "created_at": self.created_at}


def users_file(root: Path) -> Path:
    return root / "users.json"


def load(root: Path) -> dict[str, User]:
    path = users_file(root)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise UserError(f"{path}: not valid JSON ({exc}); restore it from a backup") from None
    users = {}
    for row in data.get("users", []):
        user = User(login=row["login"], name=row["name"], roles=tuple(row.get("roles", ())),
                    password_hash=row["password_hash"], disabled=bool(row.get("disabled")),
                    created_at=row.get("created_at", ""))
        users[user.login] = user
    return users


def _save(root: Path, users: dict[str, User]) -> None:
    path = users_file(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps({"users": [asdict(u) for u in sorted(users.values(), key=lambda u: u.login)]},
                         ensure_ascii=False, indent=2)
    fd, tmp = tempfile.mkstemp(prefix=".users.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(payload + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def add(root: Path, login: str, name: str, roles: list[str], password: str) -> User:
    login = login.strip().lower()
    if not LOGIN.match(login):
        raise UserError(f"login {login!r}: expected 2-64 lower-case letters, digits, '.', '_' or '-'")
    if not name.strip():
        raise UserError(f"{login}: expected the person's full name (as etalons name their author)")
    unknown = [r for r in roles if r not in ROLES]
    if unknown or not roles:
        raise UserError(f"{login}: expected roles among {', '.join(ROLES)}, got {', '.join(roles) or 'none'}")
    if len(password) < MIN_PASSWORD:
        raise UserError(f"{login}: expected a password of at least {MIN_PASSWORD} characters")
    with _LOCK:
        users = load(root)
        if login in users:
            raise UserError(f"{login}: already exists (disable it, or choose another login)")
        if any(u.name.casefold() == name.strip().casefold() for u in users.values()):
            raise UserError(f"{login}: another account already has the name {name.strip()!r}")
        user = User(login, name.strip(), tuple(dict.fromkeys(roles)), _HASHER.hash(password),
                    created_at=datetime.now(UTC).isoformat(timespec="seconds"))
        users[login] = user
        _save(root, users)
    return user


def disable(root: Path, login: str) -> User:
    with _LOCK:
        users = load(root)
        if login not in users:
            raise UserError(f"{login}: no such account (`etalon users list` shows them)")
        users[login] = replace(users[login], disabled=True)
        _save(root, users)
        return users[login]


def authenticate(root: Path, login: str, password: str) -> User | None:
    """The enabled user with this login and password, else None (in about the same time either way)."""
    user = load(root).get(login.strip().lower())
    try:
        _HASHER.verify(user.password_hash if user else _DUMMY, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return None
    if user is None or user.disabled:
        return None
    return user


def find(root: Path, login: str) -> User | None:
    """An enabled user by login (a trusted proxy names the user; roles still come from here)."""
    user = load(root).get(login.strip().lower())
    return user if user is not None and not user.disabled else None
