#!/usr/bin/env python3
"""Validates napkin's JSON documents against docs/schema/napkin.schema.json (Draft 2020-12).

Every *.json file of each --valid folder must validate; every file of each --invalid folder must be
rejected (the negative cases: a wrong schema_version, a missing field, ...). --kinds lists the kinds the
valid documents must cover together. Run with Debian's /usr/bin/python3 (python3-jsonschema).

Usage: validate_schema.py --schema FILE --valid DIR [--valid DIR] [--invalid DIR] [--kinds k1,k2,...]
"""
import argparse
import copy
import json
import pathlib
import sys

import jsonschema


def entity(doc):
    """The document's first entity (a report, kernel, phase, estimate, occupancy or GPU), or None."""
    for member in ("report", "comparison", "estimate", "occupancy"):
        if member in doc:
            return doc[member]
    for member in ("kernels", "phases", "gpus", "rows"):
        if doc.get(member):
            return doc[member][0]
    return None


def setter(key, value, where=lambda d: d):
    def mutate(doc):
        target = where(doc)
        if target is None or key not in target:
            return False
        target[key] = value
        return True
    return mutate


def deleter(key, where=lambda d: d):
    def mutate(doc):
        target = where(doc)
        if target is None or key not in target:
            return False
        del target[key]
        return True
    return mutate


def first_section(doc):
    """The first report section of the document's first entity, or None (report/section_documents.hpp)."""
    e = entity(doc)
    sections = e.get("sections") if isinstance(e, dict) else None
    return next(iter(sections.values())) if sections else None


def section_mutation(change):
    def mutate(doc):
        s = first_section(doc)
        return s is not None and change(s, entity(doc)["sections"]) is not False
    return mutate


def other_kind(doc):
    doc["kind"] = "estimate" if doc["kind"] != "estimate" else "occupancy"
    return True


MUTATIONS = [
    ("schema_version 99", setter("schema_version", 99)),
    ("schema_version \"1\"", setter("schema_version", "1")),
    ("no schema", deleter("schema")),
    ("no schema_version", deleter("schema_version")),
    ("no napkin_version", deleter("napkin_version")),
    ("no kind", deleter("kind")),
    ("no gpu", deleter("gpu")),
    ("an unknown schema name", setter("schema", "napkin.unknown")),
    ("a kind that does not match the schema", other_kind),
    ("a gpu with an unknown member", lambda d: d["gpu"].update(vendor="x") is None),
    ("an entity without its name", deleter("name", entity)),
    ("an entity name that is a number", setter("name", 7, entity)),
    ("duration_ns as text", setter("duration_ns", "fast", entity)),
    ("no duration_ns", deleter("duration_ns", entity)),
    ("no verdicts", deleter("verdicts", entity)),
    ("an unknown measured_by", setter("measured_by", "guess", entity)),
    ("an unknown entity member", lambda d: entity(d) is not None and entity(d).update(surprise=1) is None),
    ("occupancy above 100 %", setter("occupancy_pct", 101, entity)),
    ("an unknown pipe", setter("pipe", "fp4-tc", entity)),
    ("no peak_flop_per_s", deleter("peak_flop_per_s", entity)),
    ("a negative count", setter("passes", -1, entity)),
    ("a section number as text", section_mutation(lambda s, _: s.update(made_up_pct="high"))),
    ("a section without about", section_mutation(lambda s, _: s.pop("about") and None)),
    ("a section's about with an unknown member", section_mutation(lambda s, _: s["about"].update(colour=1))),
    ("a section's shares as text", section_mutation(lambda s, _: s["about"].update(shares="yes"))),
    ("an unknown better direction", section_mutation(
        lambda s, _: s["about"]["better"].update(made_up_pct="sideways"))),
    ("a row of an unknown kind", setter("by", "block", entity)),
    ("a share above 100 %", setter("share_pct", 101, entity)),
    ("a stall reason's samples as text", lambda d: isinstance(entity(d), dict) and "stalls" in entity(d)
     and entity(d)["stalls"].update(wait="many") is None),
    ("a section name that is not snake_case", section_mutation(lambda s, all_: all_.update({"Memory Chart": s}))),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("--valid", action="append", default=[])
    ap.add_argument("--invalid", action="append", default=[])
    ap.add_argument("--kinds", default="")
    args = ap.parse_args()
    schema = json.loads(pathlib.Path(args.schema).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures, kinds, checked = [], set(), 0

    for folder in args.valid:
        files = sorted(pathlib.Path(folder).glob("*.json"))
        if not files:
            failures.append(f"{folder}: no document to validate")
        for f in files:
            checked += 1
            doc = json.loads(f.read_text(encoding="utf-8"))
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
            for e in errors[:5]:
                failures.append(f"{f}: /{'/'.join(map(str, e.absolute_path))}: {e.message}")
            kinds.add(doc.get("kind"))

    # Negative cases made from each valid document: one change each, which the schema must reject.
    for folder in args.valid:
        for f in sorted(pathlib.Path(folder).glob("*.json")):
            doc = json.loads(f.read_text(encoding="utf-8"))
            for what, mutate in MUTATIONS:
                bad = copy.deepcopy(doc)
                if not mutate(bad):
                    continue
                checked += 1
                if validator.is_valid(bad):
                    failures.append(f"{f} with {what}: accepted, but the schema must reject it")

    for folder in args.invalid:
        files = sorted(pathlib.Path(folder).glob("*.json"))
        if not files:
            failures.append(f"{folder}: no document to reject")
        for f in files:
            checked += 1
            doc = json.loads(f.read_text(encoding="utf-8"))
            if validator.is_valid(doc):
                failures.append(f"{f}: accepted, but the schema must reject it")

    missing = [k for k in args.kinds.split(",") if k and k not in kinds]
    if missing:
        failures.append(f"no valid document of kind(s) {', '.join(missing)}")
    for line in failures:
        print(line)
    print(f"validate_schema.py: {checked} documents, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
