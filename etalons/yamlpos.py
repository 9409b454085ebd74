"""Line numbers for YAML values, so an error points at the line the lawyer has to fix.

PyYAML's safe_load forgets positions; composing the node tree keeps them (`etalons.yamlsafe` reads it, with
its limits). A pydantic error location (`("sources", 2, "priority")`) is walked down that tree to the deepest
node that exists.
"""

from __future__ import annotations

from collections.abc import Sequence

from yaml.nodes import MappingNode, Node, SequenceNode


def line_of(root: Node | None, loc: Sequence[int | str]) -> int | None:
    """1-based line of the value at `loc`, or of its nearest existing parent (a missing key)."""
    if root is None:
        return None
    node = root
    for step in loc:
        child = _child(node, step)
        if child is None:
            break
        node = child
    return node.start_mark.line + 1


def key_line(root: Node | None, key: str) -> int | None:
    """1-based line of a top-level key itself (for unexpected keys, whose value may be far below)."""
    if isinstance(root, MappingNode):
        for k, _ in root.value:
            if k.value == key:
                return int(k.start_mark.line) + 1
    return None


def duplicate_keys(root: Node | None) -> list[tuple[str, int]]:
    """Keys given twice in one mapping, anywhere: YAML keeps the last silently, hiding an edit."""
    found: list[tuple[str, int]] = []
    stack = [root] if root is not None else []
    visited: set[int] = set()  # aliases share nodes: visit each once, or a YAML bomb walks forever
    while stack:
        node = stack.pop()
        if id(node) in visited:
            continue
        visited.add(id(node))
        if isinstance(node, MappingNode):
            seen: set[str] = set()
            for k, v in node.value:
                if k.value in seen:
                    found.append((str(k.value), k.start_mark.line + 1))
                seen.add(k.value)
                stack.append(v)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    return sorted(found, key=lambda item: item[1])


def _child(node: Node, step: int | str) -> Node | None:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            if k.value == str(step):
                return v  # type: ignore[no-any-return]
        return None
    if isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
        return node.value[step]  # type: ignore[no-any-return]
    return None
