#!/usr/bin/python3
"""results/check-schema.py SCHEMA FILE...

Validate each JSON FILE against SCHEMA (a JSON Schema of results/schema/,
draft 2020-12, python3-jsonschema).  Prints `ok: FILE` or `bad: FILE: the
first error (its path)` per file; exits 1 when any file is bad, 2 on a
usage error or an unreadable schema.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("check-schema.py: python3-jsonschema missing: run make deps")


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"check-schema.py: {argv[1]}: {e}", file=sys.stderr)
        return 2
    validator = cls(schema)
    bad = 0
    for path in argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"bad: {path}: not JSON: {e}")
            bad += 1
            continue
        err = jsonschema.exceptions.best_match(validator.iter_errors(doc))
        if err is None:
            print(f"ok: {path}")
        else:
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            print(f"bad: {path}: {where}: {err.message}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
