"""One lake per storage route, so every behaviour is checked on a local folder and off it.

There is no object store here and no network, so the non-local routes use real in-process pyarrow filesystems:
a `file://` URL (the `FileSystem.from_uri` route, with its rename step), a SubTreeFileSystem over the local disk,
and pyarrow's in-memory mock filesystem standing in for S3 (the single-PUT route, no rename).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyarrow.fs as pafs
import pytest
from pyarrow._fs import _MockFileSystem

from warehouse.lake import Lake

LakeFactory = Callable[[Path], Lake]

BACKENDS: dict[str, LakeFactory] = {
    "local path": lambda tmp: Lake(tmp / "lake"),
    "file:// URL": lambda tmp: Lake((tmp / "lake").as_uri()),
    "subtree filesystem": lambda tmp: Lake("lake", filesystem=pafs.SubTreeFileSystem(str(tmp), pafs.LocalFileSystem())),
    "object store (in-memory s3)": lambda tmp: Lake("s3://bucket/etalon/lake", filesystem=_MockFileSystem()),
}


@pytest.fixture(params=list(BACKENDS), ids=list(BACKENDS))
def lake(request: pytest.FixtureRequest, tmp_path: Path) -> Lake:
    return BACKENDS[request.param](tmp_path)


def every_file(lake: Lake) -> list[str]:
    """Every file or object under the lake, temporary ones included: what a crash could leave behind."""
    if lake.is_local:
        return sorted(str(p.relative_to(lake.root)) for p in lake.root.rglob("*") if p.is_file())
    remote = lake._remote
    assert remote is not None
    selector = pafs.FileSelector(remote.base, recursive=True, allow_not_found=True)
    found = remote.fs.get_file_info(selector)
    return sorted(i.path[len(remote.base) + 1:] for i in found if i.type == pafs.FileType.File)
