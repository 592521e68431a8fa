"""Where a document's imports, workflow nodes and prompt files come from, placed as
``logicmd evals run`` places them: under the project root (``root``, else the nearest directory
above the document holding ``.git``, ``LOGIC.md`` or ``.logic/``, else the document's own
directory), nothing outside it. The driver reads them once; every batch, on a thread or on a
Ray worker that does not share this disk, gets their texts."""

from __future__ import annotations

import os
from typing import Dict, Optional, Tuple

# The root markers of the CLI (cli/src/fs_loader.rs): a directory's name ends with "/".
_MARKERS = (".git", "LOGIC.md", ".logic/")

# The largest file read, as the CLI reads one (logicmd::Limits::DEFAULT.max_bytes).
_LIMIT = 8 * 1024 * 1024


class ProjectFiles:
    """Reads files by id (a ``/``-separated path under the root) and keeps what it read. A
    missing file is a ``FileNotFoundError`` the core says as it is."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self.read: Dict[str, str] = {}

    def __call__(self, id: str) -> Optional[str]:
        if id in self.read:
            return self.read[id]
        path = os.path.realpath(os.path.join(self.root, *id.split("/")))
        if not os.path.exists(path):
            raise FileNotFoundError(f"no file `{id}` in the project root `{self.root}`")
        if os.path.commonpath([path, self.root]) != self.root:
            raise OSError(f"`{id}` resolves outside the project root (through a symlink)")
        if not os.path.isfile(path):
            raise OSError(f"`{id}` is not a file")
        with open(path, "rb") as file:
            data = file.read(_LIMIT + 1)
        if len(data) > _LIMIT:
            raise OSError(f"`{id}` is larger than {_LIMIT} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise OSError(f"`{id}` is not UTF-8 text") from None
        self.read[id] = text
        return text


def placed(document: str, root: Optional[str]) -> Tuple[str, ProjectFiles]:
    """The document's id in its project, and the reader of the project's files."""
    path = os.path.realpath(document)
    if root is None:
        directory = os.path.dirname(path)
        root = _project_root(directory) or directory
    files = ProjectFiles(root)
    relative = os.path.relpath(path, files.root)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        raise ValueError(f"{document} is outside the project root {files.root}")
    return "/".join(relative.split(os.sep)), files


def _project_root(directory: str) -> Optional[str]:
    while True:
        for marker in _MARKERS:
            name = marker.rstrip("/")
            found = os.path.join(directory, name)
            if os.path.isdir(found) if marker.endswith("/") else os.path.exists(found):
                return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
