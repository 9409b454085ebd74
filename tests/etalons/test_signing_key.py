"""The signing key: from the environment, else a private key file beside the warehouse, never in the lake."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from etalons.keys import KEY_ENV, SigningKeyError, key_path, signing_key

NO_ENV: dict[str, str] = {}


def test_the_first_use_makes_a_private_key_file_and_later_uses_read_it(tmp_path: Path) -> None:
    first = signing_key(tmp_path, tmp_path / "lake", environ=NO_ENV)
    again = signing_key(tmp_path, tmp_path / "lake", environ=NO_ENV)
    path = key_path(tmp_path)
    assert (first, len(first or b""), path) == (again, 32, tmp_path / "keys" / "signing.key")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["signing.key"]


def test_the_environment_key_wins_and_no_file_is_made(tmp_path: Path) -> None:
    key = signing_key(tmp_path, environ={KEY_ENV: "a team secret of some length"})
    assert (key, key_path(tmp_path).exists()) == (b"a team secret of some length", False)


def test_a_short_environment_key_is_refused_without_showing_it(tmp_path: Path) -> None:
    with pytest.raises(SigningKeyError, match="too short") as refused:
        signing_key(tmp_path, environ={KEY_ENV: "hunter2"})
    assert "hunter2" not in str(refused.value)


def test_a_key_that_would_live_inside_the_lake_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SigningKeyError, match="inside the lake"):
        signing_key(tmp_path, tmp_path, environ=NO_ENV)
    assert not key_path(tmp_path).exists()


def test_a_key_file_others_can_read_is_refused(tmp_path: Path) -> None:
    signing_key(tmp_path, environ=NO_ENV)
    key_path(tmp_path).chmod(0o644)
    with pytest.raises(SigningKeyError, match=r"readable by others \(mode 0644\)"):
        signing_key(tmp_path, environ=NO_ENV)


def test_reading_without_creating_gives_no_key_in_a_warehouse_that_never_signed(tmp_path: Path) -> None:
    assert (signing_key(tmp_path, create=False, environ=NO_ENV), key_path(tmp_path).exists()) == (None, False)


def test_a_damaged_key_file_is_refused_without_showing_its_content(tmp_path: Path) -> None:
    key_path(tmp_path).parent.mkdir()
    key_path(tmp_path).write_text("not-a-key-0123\n", encoding="ascii")
    key_path(tmp_path).chmod(0o600)
    with pytest.raises(SigningKeyError, match="expected 64 hexadecimal characters") as refused:
        signing_key(tmp_path, environ=NO_ENV)
    assert "not-a-key" not in str(refused.value)
