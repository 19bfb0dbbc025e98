"""Schema-driven fuzzing of the scenario loader (mutate_scenarios.py --mode schema).

For every key of the composed schema (schema_sites.py) and every value schema_sites
gives for it (at, inside and beyond each limit, enum members and near misses, wrong
types, the key left out), the value is put in its place in a valid seed scenario
(a controller key in a controller of its type, a queue key in a queue at each place a
queue is set), and the mutant goes through the oracle of mutate_scenarios.py. On top of
that oracle, a refusal must name a path (`FILE: /path: ...`), and an accepted mutant
must be valid under the schema: the loader accepting what the schema documents as out
of range is a finding.

Key coverage: a key counts as *accepted* when a mutant with a value at it was valid,
and as *refused* when a mutant with a value at it was refused with a message naming the
key's place (the key, its container or something inside it). The table is printed and,
with --coverage, written as JSON; --require-full-coverage fails the run when a key lacks
either, so a key that the generator cannot reach (a newly registered one included)
fails ctest `fuzz_schema_coverage`.
"""
from __future__ import annotations

import copy
import json
import pathlib
import random
import re
import time
from typing import Any, Dict, List, Optional, Tuple

import schema_sites as S

# Runs are short in simulated time and write inside the fuzzer's folder (shorten()).
from mutate_scenarios import Finding, shorten  # noqa: E402

KEEP = "the value the base seed has"
PATH_IN_MESSAGE = re.compile(r": (/[^:]*?|/): ")


def _template(path: Tuple[Any, ...]) -> Tuple[str, ...]:
    return tuple(S.ITEM if isinstance(p, int) else p for p in path)


class Corpus:
    """The seeds: valid ones serve as bases, every one as a donor of containers and values."""

    def __init__(self, texts: List[str], oracle: Any) -> None:
        self.docs: List[Dict[str, Any]] = []
        for text in texts:
            try:
                doc = json.loads(text)
            except (ValueError, RecursionError):
                continue
            if isinstance(doc, dict) and "simulation" in doc:  # scenarios, not sweep specs or studies
                self.docs.append(doc)
        self.oracle = oracle
        self._valid: Dict[int, bool] = {}
        # small documents first: they validate and run fastest
        self.docs.sort(key=lambda d: len(json.dumps(d)))

    def valid(self, i: int) -> bool:
        if i not in self._valid:
            doc = shorten(copy.deepcopy(self.docs[i]))
            try:
                code, _, _ = _validate(self.oracle, json.dumps(doc))
            except Finding:  # a seed the program fails on is the random fuzzer's to report
                code = -1
            self._valid[i] = code == 0
        return self._valid[i]


def _validate(oracle: Any, text: str) -> Tuple[int, str, float]:
    from mutate_scenarios import run_cli
    with open(oracle.scenario, "w", encoding="utf-8") as f:
        f.write(text)
    return run_cli(oracle.wmnsim, ["validate", oracle.scenario], oracle.work)


class SiteFuzzer:
    def __init__(self, schema: Dict[str, Any], corpus: Corpus, rng: random.Random) -> None:
        self.schema = schema
        self._resolver = S.SchemaSites(schema)
        self.sites = self._resolver.sites
        self.corpus = corpus
        self.rng = rng
        self.seeking_acceptance = True  # set by the caller: no value of the key accepted yet
        self._homes_cache: Dict[str, List[Tuple[int, Tuple[Any, ...]]]] = {}
        # where each site has a container in each seed, and the values seeds give it
        self.homes: Dict[str, List[Tuple[int, Tuple[Any, ...]]]] = {}
        self.seen: Dict[str, List[Any]] = {}
        # donors: containers that hold a key, by (the container schema's keys, the key),
        # so a queue key found under /mac/queue also serves /links/*/queue
        self.donors: Dict[Tuple[Tuple[str, ...], str], List[Dict[str, Any]]] = {}
        self.by_template: Dict[Tuple[str, ...], List[Any]] = {}
        for i, doc in enumerate(corpus.docs):
            for site in self.sites:
                for path, container in S.containers(doc, site):
                    self.homes.setdefault(site.name, []).append((i, path))
                    key = site.steps[-1]
                    if key in container and site.kind == "value":
                        seen = self.seen.setdefault(site.name, [])
                        if len(seen) < 8 and container[key] not in seen:
                            seen.append(container[key])
                        donors = self.donors.setdefault(_donor_key(site), [])
                        if len(donors) < 16:
                            donors.append(container)
            _index(doc, (), self.by_template)
        self.templates = [_templates(doc) for doc in corpus.docs]

    def make(self, steps: Optional[Tuple[str, ...]], consts: Dict[str, Any]) -> Any:
        """A new container for `steps`: one a seed has there (with the consts), else the consts."""
        if steps is not None:
            fits = [v for v in self.by_template.get(steps, []) if isinstance(v, dict)
                    and all(v.get(k) == c for k, c in consts.items())]
            if fits:
                return copy.deepcopy(self.rng.choice(fits))
            if steps[-1] != S.ITEM and any(isinstance(v, list) for v in self.by_template.get(steps, [])):
                return []
        return dict(consts)

    def mutant(self, site: S.Site, value: S.Value) -> Optional[Tuple[str, Tuple[Any, ...]]]:
        """The text of a valid seed with `value` at the site, and the concrete path of the key."""
        homes = self._valid_homes(site)
        if homes:
            # prefer seeds that already hold the key there (its context is one that accepts
            # it), the more so while no value of the key was accepted
            holding = [h for h in homes if _holds(self.corpus.docs[h[0]], h[1], site.steps[-1])]
            share = 0.9 if self.seeking_acceptance else 0.6
            i, path = self.rng.choice(holding[:12] if holding and self.rng.random() < share else homes[:24])
            doc = copy.deepcopy(self.corpus.docs[i])
            container = _get(doc, path)
        else:
            # no seed has the container: make it in a seed that has the key's nearest kin
            # (for /node_groups/*/mac/queue/rate_bps, one with some .../mac/queue/rate_bps:
            # its other settings, an edca MAC for access_categories, are the ones the key needs)
            doc = self._base_for(site)
            if doc is None:
                return None
            path, container = self._made
        key = site.steps[-1]
        if site.kind == "value" and key not in container and key != S.ANY and self.rng.random() < 0.5:
            donors = self.donors.get(_donor_key(site))
            if donors:  # a context in which the key applies (a queue of the discipline it belongs to)
                container.clear()
                container.update(copy.deepcopy(self.rng.choice(donors)))
                S._force(container, site.conditions, len(site.steps) - 1, self.rng, self.make, path)
        if key == S.ANY:
            if not container:
                return None
            key = self.rng.choice(sorted(container))
        if value.why == KEEP:
            if key not in container:
                return None
            return json.dumps(shorten(doc)), path + (key,)
        if site.kind == "value" and key not in container and not value.delete:
            self._applicable(site, container)
        if site.kind == "value" and _is_id(site.schema) and isinstance(container.get(key), str) \
                and isinstance(value.value, str) and re.fullmatch(site.schema["pattern"], value.value):
            _rename(doc, container[key], value.value + "_r")  # an id: renamed wherever it is used
            return json.dumps(shorten(doc)), path + (key,)
        if site.kind == "name":
            old = container.pop(key)
            new = value.value if value.why != "the key a seed gives" else key
            container[new] = old
            key = new
        elif value.delete:
            container.pop(key, None)
        else:
            container[key] = copy.deepcopy(value.value)
            _exclusive(site.container, container, key)
        return json.dumps(shorten(doc)), path + (key,)

    def _valid_homes(self, site: S.Site) -> List[Tuple[int, Tuple[Any, ...]]]:
        """Up to 12 places in valid seeds that hold the key, then up to 60 more places."""
        if site.name not in self._homes_cache:
            homes = self.homes.get(site.name, [])
            key = site.steps[-1]
            holding = [h for h in homes if _holds(self.corpus.docs[h[0]], h[1], key)]
            out: List[Tuple[int, Tuple[Any, ...]]] = []
            for group, limit in ((holding, 12), (homes, 60)):
                found = 0
                for i, p in group:
                    if found == limit:
                        break
                    if (i, p) not in out and self.corpus.valid(i):
                        out.append((i, p))
                        found += 1
            self._homes_cache[site.name] = out
        return self._homes_cache[site.name]

    def _base_for(self, site: S.Site) -> Optional[Dict[str, Any]]:
        plain = tuple(s for s in site.steps)
        best: List[int] = []
        for k in range(len(plain), 0, -1):
            suffix = plain[-k:]
            best = [i for i in range(len(self.corpus.docs))
                    if any(t[-k:] == suffix for t in self.templates[i] if len(t) >= k)]
            best = [i for i in best[:40] if self.corpus.valid(i)]
            if best:
                break
        if not best:
            best = [i for i in range(min(len(self.corpus.docs), 40)) if self.corpus.valid(i)]
        if not best:
            return None
        doc = copy.deepcopy(self.corpus.docs[self.rng.choice(best[:12])])
        made = S.build_container(doc, site, self.rng, self.make)
        if made is None:
            return None
        self._made = made
        return doc

    def _applicable(self, site: S.Site, container: Dict[str, Any]) -> None:
        """A key documented as "fq, token_bucket: ..." applies under those values of a sibling
        (the queue's `discipline`): sets one, with the keys that share it (a bucket's rate)."""
        # Sometimes left as the seed has it (a key out of place must be refused), but
        # never while the key still lacks an accepted value: then the sibling it
        # applies under is set, so that coverage does not hang on the random stream.
        if not self.seeking_acceptance and self.rng.random() < 0.3:
            return
        head = str(site.schema.get("description", "")).split(":", 1)[0]
        members = [w.strip() for w in head.split(",")]
        for sibling, sub in site.container.get("properties", {}).items():
            sub = self.fz_resolve(sub)
            enum = sub.get("enum") if isinstance(sub, dict) else None
            if not enum or sibling == site.steps[-1]:
                continue
            fits = [m for m in members if m in enum]
            if not fits:
                continue
            if container.get(sibling) in fits:
                return
            choice = self.rng.choice(fits)
            container[sibling] = choice
            for other, osub in site.container.get("properties", {}).items():
                osub = self.fz_resolve(osub)
                ohead = str(osub.get("description", "")).split(":", 1)[0]
                if other not in container and choice in [w.strip() for w in ohead.split(",")] \
                        and "required" in str(osub.get("description", "")):
                    inside = [v for v in S.values(osub, False, []) if v.why in ("inside", "the default")]
                    if inside:
                        container[other] = inside[0].value
            return

    def fz_resolve(self, node: Any) -> Any:
        return S.SchemaSites.resolve(self._resolver, node)

    def values(self, site: S.Site) -> List[S.Value]:
        if site.kind == "name":
            return S.name_values(site.schema, "")
        out = S.values(site.schema, site.required, self.seen.get(site.name, []))
        # a refused value early (the first wrong type, else the first beyond a limit), so
        # that --cover-only stops after a few values
        early = next((v for v in out if v.why.startswith("wrong type")), None) or \
            next((v for v in out if v.why.startswith("beyond")), None)
        if early is not None:
            out.remove(early)
            out.insert(1, early)
        # Last: the value the base seed has, unchanged. A value that names nodes (a flow's
        # src, a routing table, a node's radios on its band) from another seed is refused
        # in this one, so the base's own is the value known to be accepted there; a key no
        # seed sets never gets this one.
        out.append(S.Value(None, KEEP))
        return out


def _donor_key(site: S.Site) -> Tuple[Tuple[str, ...], str]:
    return tuple(sorted(site.container.get("properties", {}))), site.steps[-1]


def _index(node: Any, steps: Tuple[str, ...], out: Dict[Tuple[str, ...], List[Any]]) -> None:
    if steps:
        bucket = out.setdefault(steps, [])
        if len(bucket) < 32:
            bucket.append(node)
    if isinstance(node, dict):
        for k, v in node.items():
            _index(v, steps + (k,), out)
    elif isinstance(node, list):
        for v in node[:8]:
            _index(v, steps + (S.ITEM,), out)


def _templates(doc: Any) -> set:
    out: set = set()

    def walk(node: Any, steps: Tuple[str, ...]) -> None:
        out.add(steps)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, steps + (k,))
        elif isinstance(node, list):
            for v in node:
                walk(v, steps + (S.ITEM,))
    walk(doc, ())
    return out


def _is_id(schema: Dict[str, Any]) -> bool:
    return schema.get("type") == "string" and schema.get("pattern") == "^[A-Za-z0-9_.-]+$"


def _rename(node: Any, old: str, new: str) -> Any:
    """Every string equal to `old` (values and keys) becomes `new`, in place."""
    if isinstance(node, dict):
        for k in list(node):
            v = node.pop(k)
            node[new if k == old else k] = new if v == old else _rename(v, old, new)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            node[i] = new if v == old else _rename(v, old, new)
    return node


def _holds(doc: Any, path: Tuple[Any, ...], key: str) -> bool:
    c = _get(doc, path)
    return isinstance(c, dict) and (key in c or key == S.ANY)


def _get(doc: Any, path: Tuple[Any, ...]) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def _exclusive(schema: Dict[str, Any], container: Dict[str, Any], key: str) -> None:
    """Keys the schema allows only one of (`not: {required: [a, b]}`): setting one drops
    the others, so that a value of the key alone decides."""
    for node in [schema] + [s for s in schema.get("allOf", []) if isinstance(s, dict)]:
        excl = node.get("not", {})
        if "properties" in excl:  # a forbidden combination of values, not of keys
            continue
        lists = [excl.get("required", [])] + [a.get("required", []) for a in excl.get("anyOf", [])]
        for req in lists:
            if key in req:
                for other in req:
                    if other != key:
                        container.pop(other, None)


def names_place(err: str, path: Tuple[Any, ...]) -> bool:
    """The refusal names the key, its container or something inside the key."""
    where = "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)
    parent = where.rsplit("/", 1)[0] or "/"
    for named in PATH_IN_MESSAGE.findall(err):
        if named == where or named.startswith(where + "/") or named == parent:
            return True
    return False


def fuzz(oracle: Any, findings: Any, rng: random.Random, args: Any, texts: List[str]) -> bool:
    schema = json.loads(pathlib.Path(args.schema).read_text(encoding="utf-8"))
    from jsonschema import Draft202012Validator
    validator = Draft202012Validator(schema)
    corpus = Corpus(texts, oracle)
    fz = SiteFuzzer(schema, corpus, rng)
    sites = [s for s in fz.sites if args.only is None or s.name.startswith(args.only)]
    if not sites:
        examples = ", ".join(sorted({s.name for s in fz.sites})[:5])
        raise SystemExit(f"--only {args.only!r}: no schema key's name starts with it "
                         f"(the names are JSON paths like {examples}; {len(fz.sites)} in all)")
    cov: Dict[str, Dict[str, Any]] = {s.name: {"tried": 0, "accepted": 0, "refused": 0, "refused_elsewhere": 0,
                                               "accepted_example": None, "refused_example": None} for s in sites}
    deadline = time.monotonic() + args.seconds

    def attempt(site: S.Site, value: S.Value) -> None:
        fz.seeking_acceptance = not cov[site.name]["accepted"]
        made = fz.mutant(site, value)
        if made is None:
            return
        text, path = made
        c = cov[site.name]
        c["tried"] += 1
        try:
            code, err = oracle.check(text, args.run_share, args.run_share / 5)
            if code == 2 and not PATH_IN_MESSAGE.search(err) and ": " not in err:
                raise Finding(f"refused without naming a file or path: {err[-500:]}")
            if code == 0 and value.delete:
                pass  # leaving an optional key out says nothing of its values
            elif code == 0:
                problems = list(validator.iter_errors(json.loads(text)))
                if problems:
                    raise Finding(f"accepted, but the schema refuses it at {site.name} ({value.why}): "
                                  f"{problems[0].message[:300]}")
                c["accepted"] += 1
                c["accepted_example"] = c["accepted_example"] or f"{value.why}: {_short(value)}"
            elif names_place(err, path):
                c["refused"] += 1
                c["refused_example"] = c["refused_example"] or f"{value.why}: {_short(value)}"
            else:
                c["refused_elsewhere"] += 1
        except Finding as e:
            findings.add(text, Finding(f"{site.name} = {_short(value)} ({value.why}): {e}"))

    # One pass over every key and every value, then random keys and values until the time is up.
    for site in sites:
        for value in fz.values(site):
            if args.cover_only and cov[site.name]["accepted"] and cov[site.name]["refused"]:
                break
            attempt(site, value)
    # Keys still lacking an accepted or a refused value get two more passes: their values
    # go to other seeds and places (the choice of a base is random).
    for _ in range(2):
        for site in sites:
            c = cov[site.name]
            if not (c["accepted"] and c["refused"]):
                for value in fz.values(site):
                    if args.cover_only and c["accepted"] and c["refused"]:
                        break
                    attempt(site, value)
    while time.monotonic() < deadline:
        site = rng.choice(sites)
        values = fz.values(site)
        if values:
            attempt(site, rng.choice(values))

    missing = [n for n, c in cov.items() if not (c["accepted"] and c["refused"])]
    _report(cov, missing)
    if args.coverage:
        pathlib.Path(args.coverage).write_text(json.dumps({
            "schema": args.schema, "keys": len(cov),
            "accepted_and_refused": len(cov) - len(missing), "missing": missing, "sites": cov}, indent=1) + "\n",
            encoding="utf-8")
    return not (args.require_full_coverage and missing)


def _short(value: S.Value) -> str:
    if value.delete:
        return "(left out)"
    text = json.dumps(value.value)
    return text if len(text) <= 40 else text[:37] + "..."


def _report(cov: Dict[str, Dict[str, Any]], missing: List[str]) -> None:
    width = max(len(n) for n in cov) if cov else 10
    print(f"{'key':<{width}}  tried  accepted  refused  refused elsewhere")
    for name, c in cov.items():
        print(f"{name:<{width}}  {c['tried']:5}  {c['accepted']:8}  {c['refused']:7}  {c['refused_elsewhere']:7}")
    print(f"key coverage: {len(cov) - len(missing)} of {len(cov)} keys exercised with an accepted and a refused value")
    for name in missing:
        c = cov[name]
        lacks = " and ".join(w for w, n in (("accepted", c["accepted"]), ("refused", c["refused"])) if not n)
        print(f"  not covered: {name} (no {lacks} value; {c['tried']} tried)")
