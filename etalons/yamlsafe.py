"""The one way Etalon reads YAML people write: size, depth and alias expansion bounded before any value exists.

PyYAML's safe loader refuses Python tags but not alias bombs: ten anchors of ten aliases each ("billion
laughs") compose into a few hundred nodes that share children, and only blow up later, when a report, a JSON
column or an Arrow table walks them out (gigabytes from a kilobyte file). So the node tree is checked first:
its *expanded* size (nodes plus scalar characters, each alias counted as a full copy of what it names) and
depth are measured over the shared tree in one pass, and a recursive alias (a value containing itself) is
refused. Only then are Python values built. A refusal is one line naming the file and the line.

Every reader of etalons, `benchmark.yaml`, `systems.yaml`, `sources.yaml`, the sample decisions and signatures
and the registries goes through here, so one set of limits holds everywhere. It lives beside `yamlpos` (the
node tree with positions) and imports nothing but PyYAML, so corpus and evaluation code can use it without
depending on etalon models.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same result, faster


@dataclass(frozen=True)
class YamlLimits:
    """What a hand-written YAML file may be. Written files never come near these; only crafted ones do."""

    max_bytes: int = 1_000_000
    max_depth: int = 64
    # nodes + scalar characters once every alias is expanded: a file without aliases weighs about its size,
    # so this lets anchors be reused freely and refuses only expansion far beyond what was written
    max_expanded: int = 2_000_000


DEFAULT_LIMITS = YamlLimits()


class YamlRefused(ValueError):
    """A YAML file refused; `str()` is one line: `file:line: reason`."""

    def __init__(self, file: str, line: int | None, reason: str) -> None:
        self.file = file
        self.line = line
        self.reason = reason
        where = file if line is None else f"{file}:{line}"
        super().__init__(f"{where}: {reason}")


def load_file(path: Path, shown: str | None = None, limits: YamlLimits = DEFAULT_LIMITS) -> Any:
    """The plain data of a YAML file (None when empty); `shown` names it in errors (default: the path)."""
    return load_file_with_nodes(path, shown, limits)[1]


def load_file_with_nodes(
    path: Path, shown: str | None = None, limits: YamlLimits = DEFAULT_LIMITS
) -> tuple[Node | None, Any]:
    """The node tree (for line numbers, see `etalons.yamlpos`) and the plain data of a YAML file."""
    name = shown if shown is not None else str(path)
    return load_bytes(read_bounded(path, name, limits), name, limits)


def read_bounded(path: Path, shown: str, limits: YamlLimits = DEFAULT_LIMITS) -> bytes:
    """The file's bytes, never more than the limit allows into memory (a 2 GB file is refused unread)."""
    try:
        size = path.stat().st_size
        if size > limits.max_bytes:
            raise YamlRefused(shown, None, f"expected at most {limits.max_bytes} bytes, got {size}")
        with open(path, "rb") as handle:
            data = handle.read(size + 1)  # not read(max_bytes): that allocates the whole limit up front
            if len(data) > size:  # it grew since the stat
                data += handle.read(limits.max_bytes - len(data) + 1)
            return data
    except OSError as exc:
        raise YamlRefused(shown, None, f"cannot be read: {exc.strerror or exc}") from None


def load_bytes(raw: bytes, shown: str, limits: YamlLimits = DEFAULT_LIMITS) -> tuple[Node | None, Any]:
    """Bytes -> UTF-8 text -> checked node tree -> data, each step's refusal naming `shown` and the line."""
    if len(raw) > limits.max_bytes:
        raise YamlRefused(shown, None, f"expected at most {limits.max_bytes} bytes, got {len(raw)}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlRefused(
            shown, raw[: exc.start].count(b"\n") + 1, "expected UTF-8 text, got bytes that are not"
        ) from None
    return parse_text(text, shown, limits)


def parse_text(text: str, shown: str, limits: YamlLimits = DEFAULT_LIMITS) -> tuple[Node | None, Any]:
    """The node tree and the data of one YAML document, checked against `limits` before it is built."""
    if len(text) > limits.max_bytes:
        raise YamlRefused(shown, None, f"expected at most {limits.max_bytes} characters, got {len(text)}")
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            raise syntax_error(shown, exc) from None
        except yaml.YAMLError as exc:
            raise YamlRefused(shown, None, f"YAML error: {_one_line(str(exc))}") from None
        except RecursionError:  # the pure-Python composer recurses per level (libyaml stops at 1000)
            raise YamlRefused(shown, None, f"nested deeper than {limits.max_depth} levels") from None
        if node is None:
            return None, None
        check_tree(node, shown, limits)
        try:
            data = loader.construct_document(node)
        except yaml.MarkedYAMLError as exc:
            raise syntax_error(shown, exc) from None
        except (yaml.YAMLError, ValueError, OverflowError) as exc:  # e.g. an integer of 5,000 digits
            raise YamlRefused(shown, None, f"a value YAML cannot read: {_one_line(str(exc))}") from None
    finally:
        loader.dispose()
    return node, data


def check_tree(root: Node, shown: str, limits: YamlLimits = DEFAULT_LIMITS) -> None:
    """Refuse a tree whose aliases expand beyond the limits, that nests too deep, or that contains itself.

    Aliases make the tree a graph whose nodes are shared; each distinct node is measured once (its expanded
    weight and depth memoised), so a bomb is measured in time proportional to what was written, not to what
    it would become. The line named is that of the smallest value that goes over: the anchor being multiplied.
    """
    weight: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()  # entered, not finished: the path from the root to the current node
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            children = _children(node)
            w = 1 + (len(node.value) if isinstance(node, ScalarNode) else sum(weight[id(c)] for c in children))
            d = 1 + max((depth[id(c)] for c in children), default=0)
            if w > limits.max_expanded:
                raise YamlRefused(
                    shown, _line(node), f"aliases expand this value beyond {limits.max_expanded} nodes and "
                    "characters (an alias bomb?): expected anchors reused a reasonable number of times"
                )
            if d > limits.max_depth:
                raise YamlRefused(shown, _line(node), f"nested deeper than {limits.max_depth} levels")
            weight[key], depth[key] = w, d
            continue
        if key in weight:
            continue
        open_nodes.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in open_nodes:
                raise YamlRefused(
                    shown, _line(node), "an alias refers to a value that contains it (a recursive alias)"
                )
            if id(child) not in weight:
                stack.append((child, False))


def syntax_error(shown: str, exc: yaml.MarkedYAMLError) -> YamlRefused:
    """The line where YAML gave up, and where the construct it was reading began (an unclosed bracket)."""
    mark = exc.problem_mark or exc.context_mark
    message = f"YAML syntax error: {exc.problem or exc.context}"
    if exc.context and exc.context_mark is not None and exc.problem_mark is not None:
        message += f", {exc.context} started on line {exc.context_mark.line + 1}"
    return YamlRefused(shown, mark.line + 1 if mark is not None else None, _one_line(message))


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _line(node: Node) -> int | None:
    mark = node.start_mark
    return None if mark is None else int(mark.line) + 1


def _one_line(text: str) -> str:
    return " ".join(text.split())
