"""The key signatures are made and verified with: never in the lake, never printed.

Anyone who can write a Parquet file into the lake could otherwise sign for anyone. The key comes from
`ETALON_SIGNING_KEY` when it is set (a team shares one key through its secret store), else from a key file
beside the warehouse, `$ETALON_HOME/keys/signing.key`, made on first use: 32 random bytes in hex, mode 0600
in a 0700 folder, published whole by a hard link so that two first uses at once agree on one key and a
killed first use leaves no half key. A lake configured to contain that folder is refused, as is a key file
others can read.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

KEY_ENV = "ETALON_SIGNING_KEY"
KEY_FILE = Path("keys") / "signing.key"
MIN_ENV_KEY = 16  # characters: a short passphrase is guessable from the HMACs in the lake


class SigningKeyError(ValueError):
    """The signing key is unusable; the message says what to fix and never contains the key."""


def key_path(home: Path) -> Path:
    return home / KEY_FILE


def signing_key(home: Path, lake: str | os.PathLike[str] | None = None, *, create: bool = True,
                environ: Mapping[str, str] | None = None) -> bytes | None:
    """The key: `ETALON_SIGNING_KEY`, else the key file under `home` (made when absent and `create`).

    `lake` is the warehouse's lake (a folder or a URL): a key file inside a local lake is refused. Without
    `create`, a warehouse that never signed anything has no key: None (every signature row then fails)."""
    env = os.environ if environ is None else environ
    given = env.get(KEY_ENV)
    if given:
        if len(given) < MIN_ENV_KEY:
            raise SigningKeyError(f"{KEY_ENV} is too short: expected at least {MIN_ENV_KEY} characters")
        return given.encode("utf-8")
    path = key_path(home)
    _refuse_inside_lake(path, lake)
    if path.exists() or path.is_symlink():
        return _read_key(path)
    if not create:
        return None
    return _create_key(path)


def key_id(key: bytes) -> str:
    """A public name for a key, stored with each signature: tells "signed with another key" from tampering."""
    return hashlib.sha256(b"etalon signing key id\0" + key).hexdigest()[:16]


def _refuse_inside_lake(path: Path, lake: str | os.PathLike[str] | None) -> None:
    if lake is None:
        return
    text = os.fspath(lake)
    if "://" in text and not text.startswith("file://"):
        return  # object storage: never the home folder
    folder = Path(text.removeprefix("file://")).expanduser().resolve()
    if path.resolve().is_relative_to(folder):
        raise SigningKeyError(f"the signing key {path} would live inside the lake {folder}: anyone who can write "
                              f"the lake could sign; keep the lake elsewhere or set {KEY_ENV}")


def _read_key(path: Path) -> bytes:
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise SigningKeyError(f"{path}: cannot be read: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise SigningKeyError(f"{path}: expected a regular file holding the signing key")
    if info.st_mode & 0o077:
        raise SigningKeyError(f"{path}: readable by others (mode {stat.S_IMODE(info.st_mode):04o}): "
                              f"expected 0600 (chmod 600 {path})")
    try:
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeDecodeError, ValueError):
        raise SigningKeyError(f"{path}: expected 64 hexadecimal characters (a key made by etalon)") from None
    if len(key) != 32:
        raise SigningKeyError(f"{path}: expected 64 hexadecimal characters (a key made by etalon)")
    return key


def _create_key(path: Path) -> bytes:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_bytes(32).hex() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        # fails if another process published its key first: then that key is the key
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        os.unlink(tmp)
    return _read_key(path)
