#!/usr/bin/env python3
"""Holds the DynamoDB calls the API tests made against each function's IAM policy.

The API tests record, per function, every IAM action their calls needed (the store's call
counter: `crates/store/src/counter.rs`; a `TransactWriteItems` needs the action of each of
its items, a `Query` of an index is a `Query` of `<table>/index/<name>`) into a JSON list of
`[function, action, resource]`, resource `table` or `index/<name>`. `make test` sets
`DYNAMODB_CALLS_OUT` for them, then runs this. It fails when:
- a call needed an action the function's policy in template.yaml does not grant on that
  resource (the function would fail in AWS with AccessDenied, which no local run shows);
- a function that holds DynamoDB actions made no call at all (then the recording is
  broken, or the function went untested).
Actions granted but never seen are listed, not refused: the tests need not reach every
path (a lost race, an expired item).

Usage: scripts/check_calls.py CALLS.json [--template template.yaml]
Needs cfn-lint (its YAML decoder understands !GetAtt and !Sub).
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from cfnlint.decode import decode

from check_template import ROOT, as_list, binary_of, dynamodb_target, policy_statements


def granted(props, table_id):
    """The (action, resource) pairs of DynamoDB a function's policy allows."""
    out = set()
    for st in policy_statements(props):
        if st.get("Effect") != "Allow":
            continue
        actions = [a.partition(":")[2] for a in as_list(st.get("Action", [])) if isinstance(a, str) and a.startswith("dynamodb:")]
        for resource in as_list(st.get("Resource", [])):
            where = dynamodb_target(resource, table_id)
            if where:
                out.update((action, where) for action in actions)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("calls")
    parser.add_argument("--template", default=str(ROOT / "template.yaml"))
    args = parser.parse_args()

    template, matches = decode(args.template)
    if matches or template is None:
        sys.exit(f"check_calls: cannot parse {args.template}")
    resources = template.get("Resources", {})
    tables = [k for k, v in resources.items() if v.get("Type") == "AWS::DynamoDB::Table"]
    if len(tables) != 1:
        sys.exit(f"check_calls: expected one AWS::DynamoDB::Table, found {len(tables)}")
    grants = {}  # binary -> {(action, resource)}
    for fn in resources.values():
        if fn.get("Type") == "AWS::Serverless::Function" and binary_of(fn):
            grants[binary_of(fn)] = granted(fn.get("Properties", {}), tables[0])

    seen = defaultdict(set)
    for function, action, resource in json.loads(Path(args.calls).read_text()):
        seen[function].add((action, resource))
    errors = []
    for function in sorted(seen):
        if function not in grants:
            errors.append(f"{function}: made DynamoDB calls but is no function of the template")
            continue
        for action, resource in sorted(seen[function] - grants[function]):
            errors.append(f"{function}: called dynamodb:{action} on {resource}, which its policy does not grant")
    for function in sorted(f for f, g in grants.items() if g and f not in seen):
        errors.append(f"{function}: holds DynamoDB actions but the tests recorded no call of it")
    if errors:
        print(f"check_calls: {len(errors)} problem(s) in {args.template}:", file=sys.stderr)
        for e in errors:
            print(f"  - {e}", file=sys.stderr)
        sys.exit(1)
    total = sum(len(s) for s in seen.values())
    print(f"check_calls: the {total} DynamoDB actions that the tests' calls of {len(seen)} functions needed are all granted")
    for function in sorted(seen):
        unused = sorted(f"{a}" + ("" if r == "table" else f" on {r}") for a, r in grants[function] - seen[function])
        if unused:
            print(f"  {function}: granted, not seen in the tests: {', '.join(unused)}")


if __name__ == "__main__":
    main()
