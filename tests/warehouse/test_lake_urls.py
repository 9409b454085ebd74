"""A lake named by a URL: object-store writes are one PUT, credentials never travel in the URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.fs as pafs
import pytest
from pyarrow._fs import _MockFileSystem

from tests.rows import row
from warehouse.lake import Lake

ROW = row("answers", system="s1", code="C-01", attempt=1, text="hi")


class _Recording(pafs.FileSystemHandler):  # type: ignore[misc]  # pyarrow ships no stubs
    """An object store that counts what the lake asks of it (delegating to pyarrow's in-memory mock)."""

    def __init__(self) -> None:
        self.fs = _MockFileSystem()
        self.calls: list[str] = []

    def __eq__(self, other: object) -> bool:
        return other is self

    def __ne__(self, other: object) -> bool:
        return other is not self

    def get_type_name(self) -> str:
        return "recording"

    def normalize_path(self, path: str) -> str:
        return path

    def get_file_info(self, paths: list[str]) -> list[pafs.FileInfo]:
        return list(self.fs.get_file_info(paths))

    def get_file_info_selector(self, selector: pafs.FileSelector) -> list[pafs.FileInfo]:
        return list(self.fs.get_file_info(selector))

    def create_dir(self, path: str, recursive: bool) -> None:
        self.fs.create_dir(path, recursive=recursive)

    def delete_dir(self, path: str) -> None:
        self.fs.delete_dir(path)

    def delete_dir_contents(self, path: str, missing_dir_ok: bool = False) -> None:
        self.fs.delete_dir_contents(path, missing_dir_ok=missing_dir_ok)

    def delete_root_dir_contents(self) -> None:
        self.fs.delete_dir_contents("", accept_root_dir=True)

    def delete_file(self, path: str) -> None:
        self.calls.append(f"delete {path}")
        self.fs.delete_file(path)

    def move(self, src: str, dest: str) -> None:
        self.calls.append(f"move {src}")
        self.fs.move(src, dest)

    def copy_file(self, src: str, dest: str) -> None:
        self.fs.copy_file(src, dest)

    def open_input_stream(self, path: str) -> Any:
        return self.fs.open_input_stream(path)

    def open_input_file(self, path: str) -> Any:
        return self.fs.open_input_file(path)

    def open_output_stream(self, path: str, metadata: Any) -> Any:
        stream = self.fs.open_output_stream(path)
        self.calls.append(f"put {path}")  # only an opened stream stores an object
        return stream

    def open_append_stream(self, path: str, metadata: Any) -> Any:
        self.calls.append(f"append {path}")
        return self.fs.open_append_stream(path)


def test_an_object_store_write_is_one_put_to_the_final_key_with_no_rename() -> None:
    store = _Recording()
    lake = Lake("s3://bucket/lake", filesystem=pafs.PyFileSystem(store))
    lake.write("answers", ("C-01", "s1"), [ROW])
    lake.write("answers", ("C-01", "s1"), [{**ROW, "text": "again"}])
    assert store.calls == ["put bucket/lake/answers/C-01/s1.parquet"] * 2


@pytest.mark.parametrize("url", [
    "s3://AKIAEXAMPLE:hunter2@bucket/lake",
    "s3://bucket/lake?region=eu-west-1&access_key=AKIAEXAMPLE&secret_key=hunter2",
    "s3://bucket/lake?session_token=hunter2",
    "gs://bucket/lake?access_token=hunter2",
], ids=["user and password", "key and secret in the query", "session token", "gcs access token"])
def test_a_url_carrying_credentials_is_refused_without_repeating_them(url: str) -> None:
    with pytest.raises(ValueError, match="environment") as refused:
        Lake(url)
    assert "hunter2" not in str(refused.value) and "AKIAEXAMPLE" not in str(refused.value)


@pytest.mark.parametrize("url, glob", [
    ("s3://bucket/etalon/lake?region=eu-central-1", "s3://bucket/etalon/lake/scores/**/*.parquet"),
    ("gs://bucket/etalon/lake/", "gs://bucket/etalon/lake/scores/**/*.parquet"),
], ids=["s3 with region", "gcs with trailing slash"])
def test_an_object_store_lake_gives_the_views_a_url_glob_without_its_query(url: str, glob: str) -> None:
    assert Lake(url).glob("scores") == glob


def test_an_object_store_lake_has_no_local_root_and_says_so() -> None:
    lake = Lake("s3://bucket/lake", filesystem=_MockFileSystem())
    with pytest.raises(ValueError, match="not a local folder"):
        _ = lake.root


def test_a_lake_written_through_a_file_url_is_the_same_lake_as_its_plain_path(tmp_path: Path) -> None:
    Lake((tmp_path / "lake").as_uri()).write("answers", ("C-01", "s1"), [ROW])
    assert Lake(tmp_path / "lake").read("answers", "C-01", "s1").column("text").to_pylist() == ["hi"]


@pytest.mark.parametrize("make, expected", [
    (lambda tmp: Lake(tmp / "lake"), "{tmp}/lake/answers/C-01/s1.parquet"),
    (lambda tmp: Lake("s3://bucket/lake", filesystem=_MockFileSystem()), "s3://bucket/lake/answers/C-01/s1.parquet"),
], ids=["local path", "object store"])
def test_write_says_where_the_partition_went(tmp_path: Path, make: Any, expected: str) -> None:
    lake: Lake = make(tmp_path)
    assert lake.write("answers", ("C-01", "s1"), [ROW]) == expected.format(tmp=tmp_path.resolve())
