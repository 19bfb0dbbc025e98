"""The keys of the composed scenario schema, and values for each at, inside and beyond
its documented limits (docs/testing.md, "Schema-driven fuzzing").

The schema (scenarios/schema/scenario.schema.json) is what `wmnsim fragments` composes
from every registry (controllers, transports, queue disciplines) and the hand-written
keys (PHY, MAC, outputs); ctest `fragments` fails when it differs from the registries.
So reading it here reaches a key the day it is registered, with no list to keep.

A *site* is one key at one place of a scenario: the path of its container (with `*`
for the entries of an array) and the conditions that select the schema branch it
belongs to, written in its name: `/controllers/*[type=gateway_rate_control]/fred/max_p`,
`/phy[standard=802.11a]/data_rate_bps`. A key reached through a `$ref` is a site at
every place that refers to it (`/mac/queue/rate_bps`, `/links/*/queue/rate_bps`, ...),
since each place is read by its own code.
"""
from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

# A path step: a key of an object, ITEM for any entry of an array, ANY for any key of a
# map (additionalProperties with a schema, e.g. routing tables).
ITEM = "*"
ANY = "{}"


@dataclass(frozen=True)
class Condition:
    """At the container `depth` steps down, `key` equals `value` (or, negated, does not)."""
    depth: int
    key: str
    value: Any
    negated: bool = False
    present_only: bool = False  # `if: {required: [key]}`: the key only has to be there

    def text(self) -> str:
        if self.present_only:
            return f"[{self.key}]"
        return f"[{self.key}{'!=' if self.negated else '='}{self.value}]"


@dataclass
class Site:
    steps: Tuple[str, ...]            # container path, then the key
    conditions: Tuple[Condition, ...]
    schema: Dict[str, Any]            # the key's schema, $refs resolved
    container: Dict[str, Any]         # the object schema that declares the key
    required: bool                    # the container requires it
    kind: str = "value"               # "value", or "name" for a map's key names (propertyNames)
    name: str = field(default="")

    def __post_init__(self) -> None:
        if not self.name:
            self.name = pointer(self.steps, self.conditions) + ("(name)" if self.kind == "name" else "")


def pointer(steps: Tuple[str, ...], conditions: Tuple[Condition, ...]) -> str:
    out = ""
    for depth in range(len(steps) + 1):
        out += "".join(c.text() for c in conditions if c.depth == depth)
        if depth < len(steps):
            out += "/" + steps[depth]
    return out or "/"


class SchemaSites:
    """Walks the schema once and lists its sites."""

    def __init__(self, schema: Dict[str, Any]) -> None:
        self.schema = schema
        self.sites: List[Site] = []
        self._walk_object(schema, (), (), set())
        seen = set()
        unique = []
        for s in self.sites:  # a key declared twice in one branch (allOf) is one site
            if s.name not in seen:
                seen.add(s.name)
                unique.append(s)
        self.sites = unique

    def resolve(self, node: Any) -> Any:
        """The node with its $ref merged in (the node's own keywords win)."""
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            assert ref.startswith("#/"), ref
            target: Any = self.schema
            for part in ref[2:].split("/"):
                target = target[part]
            merged = dict(target)
            merged.update({k: v for k, v in node.items() if k != "$ref"})
            node = merged
        return node

    def _walk_object(self, node: Any, steps: Tuple[str, ...], conds: Tuple[Condition, ...], active: set) -> None:
        node = self.resolve(node)
        if not isinstance(node, dict):
            return
        ident = (id(node), steps, conds)
        if ident in active:  # no recursion in this schema, but never loop
            return
        active = active | {ident}
        depth = len(steps)
        required = set(node.get("required", []))
        for key, sub in node.get("properties", {}).items():
            sub = self.resolve(sub)
            self.sites.append(Site(steps + (key,), conds, sub, node, key in required))
            self._walk_value(sub, steps + (key,), conds, active)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            extra = self.resolve(extra)
            self.sites.append(Site(steps + (ANY,), conds, extra, node, False))
            self._walk_value(extra, steps + (ANY,), conds, active)
        names = node.get("propertyNames")
        if isinstance(names, dict) and steps:
            self.sites.append(Site(steps + (ANY,), conds, names, node, False, kind="name"))
        for sub in node.get("allOf", []):
            self._walk_object(sub, steps, conds, active)
        for sub in node.get("oneOf", []) + node.get("anyOf", []):
            branch = self._discriminator(self.resolve(sub), depth, enums=False)
            if branch is not None:  # e.g. one controller type among the registry's
                self._walk_object(sub, steps, conds + branch, active)
        if "if" in node and ("then" in node or "else" in node):
            when = self._discriminator(self.resolve(node["if"]), depth)
            if when is not None:
                if "then" in node:
                    self._walk_object(node["then"], steps, conds + when, active)
                if "else" in node and len(when) == 1 and not when[0].present_only:
                    c = when[0]
                    self._walk_object(node["else"], steps, conds + (Condition(c.depth, c.key, c.value, True),), active)

    def _walk_value(self, node: Dict[str, Any], steps: Tuple[str, ...], conds: Tuple[Condition, ...], active: set) -> None:
        if _is_object(node):
            self._walk_object(node, steps, conds, active)
        items = node.get("items")
        if isinstance(items, dict):
            items = self.resolve(items)
            if _is_object(items):
                self._walk_object(items, steps + (ITEM,), conds, active)

    def _discriminator(self, node: Dict[str, Any], depth: int, enums: bool = True) -> Optional[Tuple[Condition, ...]]:
        """The conditions that select a branch: a `const` of a property (or, in an `if`,
        the first of an `enum`: `traffic.type` in cbr, poisson, on_off), or the presence of
        a required key; None when the branch has neither (a plain alternative of required
        keys: nothing to select). A oneOf branch's enums are its keys' values, not a choice."""
        out: List[Condition] = []
        for key, sub in node.get("properties", {}).items():
            if isinstance(sub, dict) and "const" in sub:
                out.append(Condition(depth, key, sub["const"]))
            elif enums and isinstance(sub, dict) and isinstance(sub.get("enum"), list) and sub["enum"]:
                out.append(Condition(depth, key, sub["enum"][0]))
        if not out:
            for alt in node.get("anyOf", []):  # `if: {anyOf: [{not: required}, {properties: const}]}`
                found = self._discriminator(self.resolve(alt), depth, enums)
                if found:
                    return found
            if node.get("required") and set(node) <= {"required"}:
                return tuple(Condition(depth, k, None, present_only=True) for k in node["required"])
            return None
        return tuple(out)


def _is_object(node: Dict[str, Any]) -> bool:
    return node.get("type") == "object" or any(k in node for k in ("properties", "allOf", "oneOf", "anyOf", "if"))


# ---------------------------------------------------------------------------
# Values

@dataclass
class Value:
    value: Any
    why: str            # e.g. "at minimum", "beyond maximum", "wrong type"
    delete: bool = False  # the mutation removes the key instead


WRONG_TYPES = {"string": "x", "integer": 7, "number": 0.5, "boolean": True, "null": None,
               "array": [1], "object": {"k": 1}}


def _types(node: Dict[str, Any]) -> List[str]:
    t = node.get("type")
    if isinstance(t, list):
        return t
    if isinstance(t, str):
        return [t]
    if "const" in node:
        return [_type_of(node["const"])]
    if isinstance(node.get("enum"), list):
        return sorted({_type_of(v) for v in node["enum"]})
    return []


def _type_of(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if v is None:
        return "null"
    return "array" if isinstance(v, list) else "object"


def _number(x: float, integer: bool) -> Any:
    if integer and math.isfinite(x) and float(x).is_integer():
        return int(x)
    return x


def _numbers(node: Dict[str, Any], integer: bool) -> List[Value]:
    out: List[Value] = []
    lo, hi = node.get("minimum"), node.get("maximum")
    xlo, xhi = node.get("exclusiveMinimum"), node.get("exclusiveMaximum")
    def below(x: Any) -> Any:
        if integer:
            return int(x) - 1
        return x - max(abs(x) * 1e-9, 1e-12) if x != 0 else -1e-9

    def above(x: Any) -> Any:
        if integer:
            return int(x) + 1
        return x + max(abs(x) * 1e-9, 1e-12) if x != 0 else 1e-9

    if lo is not None:
        out += [Value(lo, "at minimum"), Value(below(lo), "beyond minimum")]
    if xlo is not None:
        out += [Value(xlo, "at exclusiveMinimum (beyond)"), Value(above(xlo), "just inside exclusiveMinimum")]
    if hi is not None:
        out += [Value(hi, "at maximum"), Value(above(hi), "beyond maximum")]
    if xhi is not None:
        out += [Value(xhi, "at exclusiveMaximum (beyond)"), Value(below(xhi), "just inside exclusiveMaximum")]
    low = lo if lo is not None else xlo
    high = hi if hi is not None else xhi
    if low is not None and high is not None:
        mid = (low + high) / 2
        out.append(Value(_number(math.floor(mid) if integer else mid, integer), "inside"))
    elif low is not None:
        out.append(Value(_number(low * 2 + 1 if integer else (low * 2 or 1.0), integer), "inside"))
        out.append(Value(_number(10.0 ** 300, integer) if not integer else 2**64, "far above"))
    elif high is not None:
        out.append(Value(_number(high - 1 if integer else high / 2 - 1, integer), "inside"))
        out.append(Value(-2**64 if integer else -1e300, "far below"))
    else:
        out += [Value(0, "zero"), Value(-1, "negative"), Value(1e300 if not integer else 2**63, "huge")]
    if integer:
        base = low if low is not None else 0
        out.append(Value(float(base) + 0.5, "not an integer"))
        out.append(Value(2**64, "above uint64"))
    return out


def _strings(node: Dict[str, Any]) -> List[Value]:
    out = [Value("", "empty string"), Value("A" * 300, "long string")]
    if "pattern" in node:
        out += [Value("ok_1", "matches the pattern"), Value("bad name/é", "breaks the pattern"),
                Value("x/", "ends in a slash")]
    if "minLength" in node:
        n = node["minLength"]
        out += [Value("a" * n, "at minLength"), Value("a" * max(n - 1, 0), "below minLength")]
    return out


def values(node: Dict[str, Any], site_required: bool, seen: List[Any]) -> List[Value]:
    """Values for a key: those its seeds give (accepted in their place), those at, inside and
    beyond each limit, each member of an enum and a near miss, and wrong types."""
    out: List[Value] = [Value(copy.deepcopy(v), "a value a seed gives") for v in seen[:3]]
    if "default" in node:
        out.append(Value(node["default"], "the default"))
    if "const" in node:
        out.append(Value(node["const"], "the const"))
        c = node["const"]
        out.append(Value(c + "_x" if isinstance(c, str) else "x", "not the const"))
    if isinstance(node.get("enum"), list):
        for e in node["enum"]:
            out.append(Value(e, "an enum member"))
        strings = [e for e in node["enum"] if isinstance(e, str)]
        out.append(Value((strings[0].upper() + "_") if strings else "not_a_member", "not a member"))
        numbers = [e for e in node["enum"] if isinstance(e, (int, float)) and not isinstance(e, bool)]
        if numbers:
            out.append(Value(numbers[0] + 1, "a number between members"))
    for alt in node.get("oneOf", []) + node.get("anyOf", []):
        if isinstance(alt, dict):
            out += values(alt, False, [])
    types = _types(node)
    if "integer" in types:
        out += _numbers(node, True)
    elif "number" in types:
        out += _numbers(node, False)
    if "string" in types and "enum" not in node and "const" not in node:
        out += _strings(node)
    if "boolean" in types:
        out += [Value(True, "true"), Value(False, "false"), Value("true", "a string for a boolean"),
                Value(1, "a number for a boolean")]
    if "array" in types:
        out += _arrays(node, seen)
    if "object" in types:
        out += [Value({}, "an empty object"), Value({"no_such_key": 1}, "an unknown key")]
    for t, v in WRONG_TYPES.items():
        if types and t not in types and not (t == "integer" and "number" in types) \
                and not (t == "number" and "integer" in types and "number" in types):
            out.append(Value(copy.deepcopy(v), f"wrong type ({t})"))
    if not types and "enum" not in node and "const" not in node:  # untyped at this level
        out += [Value(v, f"a {t}") for t, v in WRONG_TYPES.items()]
    if site_required:
        out.append(Value(None, "missing required key", delete=True))
    else:
        out.append(Value(None, "left out", delete=True))
    return out


def _arrays(node: Dict[str, Any], seen: List[Any]) -> List[Value]:
    item = next((v[0] for v in seen if isinstance(v, list) and v), None)
    if item is None:
        item = 1 if node.get("items", {}).get("type") in ("number", "integer") else "x"
    out = [Value([], "an empty array"), Value([item, "x", None, {}], "items of wrong types")]
    lo, hi = node.get("minItems"), node.get("maxItems")
    if lo is not None:
        out += [Value([copy.deepcopy(item)] * lo, "at minItems"), Value([copy.deepcopy(item)] * (lo - 1), "below minItems")]
    if hi is not None:
        out += [Value([copy.deepcopy(item)] * hi, "at maxItems"), Value([copy.deepcopy(item)] * (hi + 1), "beyond maxItems")]
    if node.get("uniqueItems"):
        out.append(Value([copy.deepcopy(item), copy.deepcopy(item)], "duplicate items"))
    return out


def name_values(node: Dict[str, Any], existing: str) -> List[Value]:
    """New names for a map's key (propertyNames): the key itself (accepted where it is),
    names that break the pattern."""
    out = [Value(existing, "the key a seed gives"), Value("", "an empty name"), Value("bad name/é", "breaks the pattern")]
    if node.get("pattern", "").endswith("|\\*)$"):
        out.append(Value("*", "the wildcard"))
    return out


# ---------------------------------------------------------------------------
# Placing a value in a document

def containers(doc: Any, site: Site) -> Iterator[Tuple[Tuple[Any, ...], Dict[str, Any]]]:
    """Every (concrete path, container) of `doc` the site's key lives in, its conditions met."""
    def walk(node: Any, depth: int, path: Tuple[Any, ...]) -> Iterator[Tuple[Tuple[Any, ...], Dict[str, Any]]]:
        if not _meets(node, site.conditions, depth):
            return
        if depth == len(site.steps) - 1:
            if isinstance(node, dict):
                yield path, node
            return
        step = site.steps[depth]
        if step == ITEM:
            if isinstance(node, list):
                for i, v in enumerate(node):
                    yield from walk(v, depth + 1, path + (i,))
        elif step == ANY:
            if isinstance(node, dict):
                for k, v in node.items():
                    yield from walk(v, depth + 1, path + (k,))
        elif isinstance(node, dict) and step in node:
            yield from walk(node[step], depth + 1, path + (step,))
    yield from walk(doc, 0, ())


def _meets(node: Any, conditions: Tuple[Condition, ...], depth: int) -> bool:
    for c in conditions:
        if c.depth != depth:
            continue
        if not isinstance(node, dict):
            return False
        if c.present_only:
            if c.key not in node:
                return False
        elif c.negated:
            if node.get(c.key) == c.value:
                return False
        elif node.get(c.key) != c.value:
            return False
    return True


def build_container(doc: Any, site: Site, rng: random.Random, make: Any) -> Optional[Tuple[Tuple[Any, ...], Dict[str, Any]]]:
    """Makes the site's container in `doc` where it is missing: objects on the way are
    made ({} with their const conditions), an array gets a new entry (its branch's
    consts, and required keys from `make`), so a key of a controller type no seed uses
    still finds a controller of its type."""
    node = doc
    path: Tuple[Any, ...] = ()
    for depth, step in enumerate(site.steps[:-1]):
        _force(node, site.conditions, depth, rng, make, path)
        if step == ANY:
            if not isinstance(node, dict) or not node:
                return None
            key = rng.choice(sorted(node))
            nxt = node[key]
        elif step == ITEM:
            if not isinstance(node, list):
                return None
            fits = [i for i, v in enumerate(node) if _meets(v, site.conditions, depth + 1)]
            if fits:
                key = rng.choice(fits)
            else:
                item = make(site.steps[:depth + 1], {c.key: c.value for c in site.conditions
                                                               if c.depth == depth + 1 and not c.negated and not c.present_only})
                node.append(item)
                key = len(node) - 1
            nxt = node[key]
        else:
            if not isinstance(node, dict):
                return None
            if step not in node or not isinstance(node[step], (dict, list)):
                if site.steps[depth + 1] == ITEM:  # an array of entries: one is added below
                    node[step] = []
                else:
                    node[step] = make(site.steps[:depth + 1], {c.key: c.value for c in site.conditions
                                                               if c.depth == depth + 1 and not c.negated and not c.present_only})
            key = step
            nxt = node[key]
        node = nxt
        path = path + (key,)
    if not isinstance(node, dict):
        return None
    _force(node, site.conditions, len(site.steps) - 1, rng, make, path)
    return path, node


def _force(node: Any, conditions: Tuple[Condition, ...], depth: int, rng: random.Random, make: Any, path: Tuple[Any, ...]) -> None:
    if not isinstance(node, dict):
        return
    for c in conditions:
        if c.depth != depth:
            continue
        if c.present_only and c.key not in node:
            node[c.key] = make(None, {})
        elif c.negated and node.get(c.key) == c.value:
            del node[c.key]
        elif not c.present_only and not c.negated:
            node[c.key] = c.value
