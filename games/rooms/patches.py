"""The generic JSON-patch diff: the RFC 6902 ops that turn one view into the next.

Pure: plain data in, plain data out; calls only jsonpatch, nothing of Django or the room service.
"""

from typing import Any

import jsonpatch


def view_patch(before: object, after: object, path: str = "") -> list[dict[str, Any]]:
    """RFC 6902 ops from `before` to `after`, as jsonpatch.make_patch would find them, but cheaper.

    Equal subtrees are skipped with a plain == (make_patch serialises them to compare), a list
    that only grew or shrank at its end (the discard pile, a meld) gets add/remove ops at its end,
    a changed scalar one replace; anything else goes to jsonpatch.make_patch. Most of a view is
    unchanged by a move, so this is several times cheaper than one make_patch of the whole view.
    """
    if isinstance(before, dict) and isinstance(after, dict):
        return dict_patch(before, after, path)
    if isinstance(before, list) and isinstance(after, list):
        common = min(len(before), len(after))
        if before[:common] == after[:common]:
            if len(after) > common:
                return [
                    {"op": "add", "path": f"{path}/{index}", "value": after[index]}
                    for index in range(common, len(after))
                ]
            return [{"op": "remove", "path": f"{path}/{index}"} for index in range(len(before) - 1, common - 1, -1)]
    elif not isinstance(before, (dict, list)) and not isinstance(after, (dict, list)) and path:
        return [{"op": "replace", "path": path, "value": after}]
    return [rebased(op, path) for op in jsonpatch.make_patch(before, after).patch]


def rebased(op: dict[str, Any], path: str) -> dict[str, Any]:
    """An op of a sub-document's patch, pointed at that sub-document (`from` of move/copy too)."""
    op = dict(op, path=path + op["path"])
    if "from" in op:
        op["from"] = path + op["from"]
    return op


def dict_patch(before: dict[str, Any], after: dict[str, Any], path: str) -> list[dict[str, Any]]:
    # A pointer is spelled only for a key that changed: most of a view's keys do not.
    ops = [{"op": "remove", "path": f"{path}/{escape_pointer(key)}"} for key in before if key not in after]
    missing = object()
    for key, value in after.items():
        old = before.get(key, missing)
        if old is missing:
            ops.append({"op": "add", "path": f"{path}/{escape_pointer(key)}", "value": value})
        elif old != value:
            ops.extend(view_patch(old, value, f"{path}/{escape_pointer(key)}"))
    return ops


def escape_pointer(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
