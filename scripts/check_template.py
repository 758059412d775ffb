#!/usr/bin/env python3
"""Offline consistency checks of template.yaml against the code (run by check-template.sh).

1. Routes: the (method, path) pairs of every function's HttpApi events equal exactly what
   `cargo run -q -p local --bin routes` prints, and each goes to the function whose
   `Metadata.BuildProperties.Binary` is the group that serves it.
2. Table: the DynamoDB table's properties equal shared/table.json for every key that file
   has (and the template adds no key-design property the file lacks), and the table stays
   production-safe (Retain policies, point-in-time recovery, deletion protection, SSE).
3. Every function is complete: built with cargo-lambda for arm64 / provided.al2023, JSON
   logs into its own log group with a retention, an Errors and a Throttles alarm, the
   configuration variables, and least-privilege policies (known DynamoDB item actions on
   this table and its indexes only; GetSecretValue on the JWT secret, exactly for the
   functions whose main.rs reads it: through `state_from_env`, or `serve` and
   `serve_with_global_categories`, which call it).

Usage: scripts/check_template.py [--template template.yaml] [--table shared/table.json]
                                 [--routes routes.json]   (default: runs the routes binary)
Needs cfn-lint (its YAML decoder understands !Ref, !Sub, !GetAtt, ...).
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from cfnlint.decode import decode

ROOT = Path(__file__).resolve().parent.parent

# Item-level DynamoDB actions a function may hold (TransactWriteItems is authorised by the
# actions of its parts). Anything else, and any wildcard, is refused.
DYNAMODB_ACTIONS = {
    "GetItem",
    "BatchGetItem",
    "Query",
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "ConditionCheckItem",
    "BatchWriteItem",
    "DescribeTable",
}
# Table properties that belong to the key design: when the template has one, table.json
# must have it too (and then they must be equal).
DEFINITION_KEYS = {
    "AttributeDefinitions",
    "KeySchema",
    "LocalSecondaryIndexes",
    "GlobalSecondaryIndexes",
    "BillingMode",
    "ProvisionedThroughput",
    "TimeToLiveSpecification",
    "StreamSpecification",
}
ENV_VARS = {
    "TABLE_NAME",
    "JWT_SECRET_ARN",
    "DOC_PATH",
    "SORT",
    "CORS_ALLOWED_ORIGINS",
    "RUST_LOG",
}
FUNCTION_DEFAULTS = {
    "Runtime": "provided.al2023",
    "Architectures": ["arm64"],
    "Handler": "bootstrap",
    "CodeUri": ".",
    "Tracing": "Active",
}


class Checker:
    def __init__(self, template_path):
        self.template_path = template_path
        self.errors = []

    def error(self, message, node=None):
        mark = getattr(node, "start_mark", None)
        where = f"{self.template_path}:{mark.line + 1}: " if mark is not None else ""
        self.errors.append(f"{where}{message}")


def shown(path):
    """A path relative to the repository when it is inside it."""
    resolved = Path(path).resolve()
    try:
        return str(resolved.relative_to(ROOT))
    except ValueError:
        return str(path)


def pascal(name):
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]+", name) if w)


def load_routes(path):
    if path:
        text = Path(path).read_text()
    else:
        cmd = ["cargo", "run", "-q", "--locked", "-p", "local", "--bin", "routes"]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"check_template: `{' '.join(cmd)}` failed:\n{proc.stderr}")
        text = proc.stdout
    routes = json.loads(text)
    return {group: {(m.upper(), p) for m, p in pairs} for group, pairs in routes.items()}


def ref_name(value, function="Ref"):
    """`!Ref X` -> X (or `!GetAtt X.Arn` -> X.Arn with function="Fn::GetAtt")."""
    if isinstance(value, dict) and len(value) == 1 and function in value:
        inner = value[function]
        if isinstance(inner, list):
            return ".".join(str(part) for part in inner)
        return str(inner)
    return None


def canonical(key, value):
    """Order-insensitive where DynamoDB is: attribute definitions, index lists, projections."""
    value = json.loads(json.dumps(value))
    if key == "AttributeDefinitions" and isinstance(value, list):
        return sorted(value, key=lambda a: json.dumps(a, sort_keys=True))
    if key in ("LocalSecondaryIndexes", "GlobalSecondaryIndexes") and isinstance(value, list):
        for index in value:
            projection = index.get("Projection", {}) if isinstance(index, dict) else {}
            if isinstance(projection.get("NonKeyAttributes"), list):
                projection["NonKeyAttributes"] = sorted(projection["NonKeyAttributes"])
        return sorted(value, key=lambda i: json.dumps(i, sort_keys=True))
    return value


def check_table(c, resources, table_path):
    tables = {k: v for k, v in resources.items() if v.get("Type") == "AWS::DynamoDB::Table"}
    if len(tables) != 1:
        c.error(f"expected exactly one AWS::DynamoDB::Table, found {len(tables)}")
        return None, set()
    logical_id, table = next(iter(tables.items()))
    props = table.get("Properties", {})
    wanted = json.loads(Path(table_path).read_text())
    table_path = shown(table_path)
    for key, value in wanted.items():
        if key not in props:
            c.error(f"table {logical_id}: {key} is in {table_path} but missing from the template", table)
        elif canonical(key, props[key]) != canonical(key, value):
            c.error(
                f"table {logical_id}: {key} differs from {table_path}\n"
                f"    template:   {json.dumps(canonical(key, props[key]), sort_keys=True)}\n"
                f"    table.json: {json.dumps(canonical(key, value), sort_keys=True)}",
                props[key],
            )
    for key in sorted(DEFINITION_KEYS & set(props) - set(wanted)):
        c.error(f"table {logical_id}: {key} is in the template but not in {table_path} (the one definition)", props[key])
    for policy in ("DeletionPolicy", "UpdateReplacePolicy"):
        if table.get(policy) != "Retain":
            c.error(f"table {logical_id}: {policy} must be Retain (user data outlives the stack)", table)
    if props.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled") is not True:
        c.error(f"table {logical_id}: point-in-time recovery must be enabled", table)
    if props.get("DeletionProtectionEnabled") is not True:
        c.error(f"table {logical_id}: DeletionProtectionEnabled must be true", table)
    if props.get("SSESpecification", {}).get("SSEEnabled") is not True:
        c.error(f"table {logical_id}: SSESpecification.SSEEnabled must be true", table)
    indexes = {
        i.get("IndexName")
        for key in ("LocalSecondaryIndexes", "GlobalSecondaryIndexes")
        for i in wanted.get(key, [])
    }
    return logical_id, indexes


def policy_statements(props):
    for policy in props.get("Policies", []) or []:
        if isinstance(policy, dict) and "Statement" in policy:
            statements = policy["Statement"]
            yield from statements if isinstance(statements, list) else [statements]
        else:
            yield {"__unsupported__": policy}


def as_list(value):
    return value if isinstance(value, list) else [value]


def verifies_tokens(binary):
    """A function whose main builds the state from the environment reads the JWT secret
    (`state_from_env`, or `pf_http::lambda::serve*`, which build it so)."""
    main = ROOT / "functions" / binary / "src" / "main.rs"
    if not main.exists():
        return True
    text = main.read_text()
    return "state_from_env" in text or re.search(r"\b(?:pf_http|shared)::lambda::serve(_with_global_categories)?\(", text) is not None


def serves_schedule(binary):
    """Whether the function's main also runs a job on a scheduled event (`run_with_schedule`)."""
    main = ROOT / "functions" / binary / "src" / "main.rs"
    return main.exists() and "run_with_schedule" in main.read_text()


# The functions that mail links (reset, verification); see crates/mail/src/lib.rs.
MAIL_SENDERS = {"auth", "users"}

# The functions that invoke themselves to go on with work after a request (large
# imports: functions/imports/src/job.rs; mails after the answer: functions/auth/src/mail.rs),
# each only itself.
SELF_INVOKERS = {"imports", "auth"}
LAMBDA_ARN = "arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:"


def binary_of(fn):
    return ((fn.get("Metadata") or {}).get("BuildProperties") or {}).get("Binary")


def dynamodb_target(resource, table_id):
    """`table` for a policy resource that is the table's ARN (`!GetAtt <table>.Arn`),
    `index/<name>` for an index's (`!Sub "${<table>.Arn}/index/<name>"`), else None."""
    if ref_name(resource, "Fn::GetAtt") == f"{table_id}.Arn":
        return "table"
    sub = resource.get("Fn::Sub") if isinstance(resource, dict) else None
    index = re.fullmatch(r"\$\{" + re.escape(str(table_id)) + r"\.Arn\}/(index/[A-Za-z0-9_.-]+)", sub or "")
    return index.group(1) if index else None


def check_policies(c, name, fn, props, table_id, indexes, secret_id, needs_secret):
    has_secret = False
    for st in policy_statements(props):
        if "__unsupported__" in st:
            c.error(f"{name}: only inline policy statements are allowed in Policies (got {st['__unsupported__']!r})", fn)
            continue
        if st.get("Effect") != "Allow":
            continue
        actions = as_list(st.get("Action", []))
        resources = as_list(st.get("Resource", []))
        for action in actions:
            if not isinstance(action, str) or "*" in action:
                c.error(f"{name}: wildcard or non-literal action {action!r}; name each action", st)
                continue
            service, _, op = action.partition(":")
            if service == "dynamodb":
                if op not in DYNAMODB_ACTIONS:
                    c.error(f"{name}: dynamodb:{op} is not an item action this API uses ({', '.join(sorted(DYNAMODB_ACTIONS))})", st)
            elif action == "secretsmanager:GetSecretValue":
                has_secret = True
            elif action == "ses:SendEmail":
                # Mail only from the functions that send it, only as the MailFrom identity.
                if binary_of(fn) not in MAIL_SENDERS:
                    c.error(f"{name}: ses:SendEmail outside the functions that mail ({', '.join(sorted(MAIL_SENDERS))})", st)
                # SES authorizes against the identity used (the address, or its verified
                # domain; in the sandbox the recipients' too), so the resource is this
                # account's identities and the From address is pinned by a condition.
                for resource in resources:
                    sub = resource.get("Fn::Sub") if isinstance(resource, dict) else None
                    if sub != "arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/*":
                        c.error(f"{name}: ses:SendEmail must be on this account's SES identities, not {resource!r}", st)
                condition = st.get("Condition") or {}
                pinned = (condition.get("StringEquals") or {}).get("ses:FromAddress")
                if pinned != {"Ref": "MailFrom"} or len(condition) != 1:
                    c.error(f"{name}: ses:SendEmail must be conditioned on ses:FromAddress = MailFrom alone, not {condition!r}", st)
            elif action == "lambda:InvokeFunction":
                # Only a function that goes on with its own work, and only on itself: its
                # FunctionName is set (a !GetAtt of itself would be a cycle) and the
                # resource is exactly that name's ARN.
                if binary_of(fn) not in SELF_INVOKERS:
                    c.error(f"{name}: lambda:InvokeFunction outside the functions that invoke themselves ({', '.join(sorted(SELF_INVOKERS))})", st)
                own = props.get("FunctionName")
                own = own.get("Fn::Sub") if isinstance(own, dict) else None
                for resource in resources:
                    sub = resource.get("Fn::Sub") if isinstance(resource, dict) else None
                    if not (isinstance(own, str) and sub == LAMBDA_ARN + own):
                        c.error(f"{name}: lambda:InvokeFunction must be scoped to the function itself ({LAMBDA_ARN}<its FunctionName>), not {resource!r}", st)
            else:
                c.error(f"{name}: unexpected action {action}", st)
        services = {a.partition(":")[0] for a in actions if isinstance(a, str)}
        for resource in resources:
            if "dynamodb" in services:
                target = dynamodb_target(resource, table_id)
                if target == "table":
                    continue
                if target and target.removeprefix("index/") in indexes:
                    others = sorted(a for a in actions if isinstance(a, str) and a != "dynamodb:Query")
                    if others:
                        c.error(f"{name}: only dynamodb:Query applies to an index; put {', '.join(others)} on the table", st)
                    continue
                c.error(f"{name}: DynamoDB resource {resource!r} is not the table or one of its indexes ({', '.join(sorted(indexes))})", st)
            if "secretsmanager" in services and ref_name(resource) != secret_id:
                c.error(f"{name}: secretsmanager resource {resource!r} must be !Ref {secret_id}", st)
    if needs_secret and not has_secret:
        c.error(f"{name}: needs secretsmanager:GetSecretValue on !Ref {secret_id} (its main reads the JWT secret)", fn)
    if has_secret and not needs_secret:
        c.error(f"{name}: holds secretsmanager:GetSecretValue but its main never reads the JWT secret", fn)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--template", default=str(ROOT / "template.yaml"))
    parser.add_argument("--table", default=str(ROOT / "shared" / "table.json"))
    parser.add_argument("--routes", help="routes JSON file instead of running the routes binary")
    args = parser.parse_args()

    template, matches = decode(args.template)
    if matches or template is None:
        sys.exit("check_template: cannot parse {}:\n{}".format(args.template, "\n".join(str(m) for m in matches)))
    c = Checker(Path(args.template).name)
    routes = load_routes(args.routes)
    resources = template.get("Resources", {})
    globals_fn = template.get("Globals", {}).get("Function", {})

    table_id, indexes = check_table(c, resources, args.table)
    secrets = [k for k, v in resources.items() if v.get("Type") == "AWS::SecretsManager::Secret"]
    secret_id = secrets[0] if len(secrets) == 1 else None
    if secret_id is None:
        c.error(f"expected exactly one AWS::SecretsManager::Secret (the JWT signing key), found {len(secrets)}")
    else:
        props = resources[secret_id].get("Properties", {})
        if "SecretString" in props:
            c.error(f"{secret_id}: must not carry a SecretString (no secret in the repository)", resources[secret_id])
        length = props.get("GenerateSecretString", {}).get("PasswordLength", 0)
        if not isinstance(length, int) or length < 64:
            c.error(f"{secret_id}: GenerateSecretString.PasswordLength must be at least 64", resources[secret_id])
    apis = [k for k, v in resources.items() if v.get("Type") == "AWS::Serverless::HttpApi"]
    if len(apis) != 1:
        c.error(f"expected exactly one AWS::Serverless::HttpApi, found {len(apis)}")
    api_id = apis[0] if apis else None

    functions = {}  # binary -> logical id
    served = {}  # (method, path) -> binary
    for logical_id, fn in resources.items():
        if fn.get("Type") != "AWS::Serverless::Function":
            continue
        metadata = fn.get("Metadata", {})
        binary = metadata.get("BuildProperties", {}).get("Binary")
        if metadata.get("BuildMethod") != "rust-cargolambda" or not isinstance(binary, str):
            c.error(f"{logical_id}: needs Metadata BuildMethod: rust-cargolambda and BuildProperties.Binary: <group>", fn)
            continue
        if binary in functions:
            c.error(f"{logical_id}: binary {binary} is already built by {functions[binary]}", fn)
            continue
        functions[binary] = logical_id
        if binary in routes and logical_id != f"{pascal(binary)}Function":
            c.error(f"{logical_id}: name the function of group {binary} {pascal(binary)}Function", fn)
        props = fn.get("Properties", {})
        effective = {**globals_fn, **props}
        for key, expected in FUNCTION_DEFAULTS.items():
            if effective.get(key) != expected:
                c.error(f"{logical_id}: {key} must be {expected!r} (got {effective.get(key)!r})", fn)
        variables = {
            **globals_fn.get("Environment", {}).get("Variables", {}),
            **props.get("Environment", {}).get("Variables", {}),
        }
        for var in sorted(ENV_VARS - set(variables)):
            c.error(f"{logical_id}: environment variable {var} is missing", fn)
        # SAM merges a function's LoggingConfig map into the Globals' one.
        logging = {**globals_fn.get("LoggingConfig", {}), **props.get("LoggingConfig", {})}
        group = ref_name(logging.get("LogGroup"))
        if logging.get("LogFormat") != "JSON":
            c.error(f"{logical_id}: LoggingConfig.LogFormat must be JSON", fn)
        if group is None or resources.get(group, {}).get("Type") != "AWS::Logs::LogGroup":
            c.error(f"{logical_id}: LoggingConfig.LogGroup must be !Ref to its own AWS::Logs::LogGroup", fn)
        elif "RetentionInDays" not in resources[group].get("Properties", {}):
            c.error(f"{group}: needs RetentionInDays", resources[group])
        for metric in ("Errors", "Throttles"):
            alarmed = any(
                r.get("Type") == "AWS::CloudWatch::Alarm"
                and r.get("Properties", {}).get("Namespace") == "AWS/Lambda"
                and r.get("Properties", {}).get("MetricName") == metric
                and any(
                    d.get("Name") == "FunctionName" and ref_name(d.get("Value")) == logical_id
                    for d in r.get("Properties", {}).get("Dimensions", [])
                )
                for r in resources.values()
            )
            if not alarmed:
                c.error(f"{logical_id}: no AWS/Lambda {metric} alarm on this function", fn)
        if table_id and secret_id:
            check_policies(c, logical_id, fn, props, table_id, indexes, secret_id, verifies_tokens(binary))
        scheduled = serves_schedule(binary)
        schedules = [e for e in (props.get("Events") or {}).values() if e.get("Type") == "Schedule"]
        if scheduled and not schedules:
            c.error(f"{logical_id}: its main runs a scheduled job but no Schedule event starts it", fn)
        for event_id, event in (props.get("Events") or {}).items():
            if event.get("Type") == "Schedule" and scheduled:
                rate = event.get("Properties", {}).get("Schedule")
                if not (isinstance(rate, str) and rate.startswith(("rate(", "cron("))):
                    c.error(f"{logical_id}.{event_id}: Schedule must be a rate(...) or cron(...) expression", event)
                continue
            if event.get("Type") != "HttpApi":
                c.error(f"{logical_id}.{event_id}: only HttpApi events are expected", event)
                continue
            ev = event.get("Properties", {})
            if ref_name(ev.get("ApiId")) != api_id:
                c.error(f"{logical_id}.{event_id}: ApiId must be !Ref {api_id} (else SAM creates another API)", event)
            method = str(ev.get("Method", "")).upper()
            path = ev.get("Path")
            if not isinstance(path, str):
                # sam validate accepts it, but `sam build` and the deploy-time transform don't.
                c.error(f"{logical_id}.{event_id}: Path must be a literal string (SAM resolves no !Ref or !Sub there), got {path!r}", event)
                continue
            key = (method, path)
            if key in served:
                c.error(f"{logical_id}.{event_id}: {method} {path} is also routed to {served[key]}", event)
            served[key] = binary

    # DOC_PATH is a parameter, but the docs routes are literal: their defaults must agree.
    doc_path = template.get("Parameters", {}).get("DocPath", {}).get("Default")
    if doc_path is not None and ("GET", doc_path) not in served:
        c.error(f"parameter DocPath defaults to {doc_path}, but no function's HttpApi event serves GET {doc_path}")

    # Routes, both ways.
    for group in sorted(set(routes) - set(functions)):
        c.error(
            f"function group {group!r} (openapi::functions()) has no function in the template: add "
            f"{pascal(group)}Function with BuildProperties.Binary: {group} (see the comment at the top)"
        )
    for group in sorted(set(functions) - set(routes)):
        c.error(f"{functions[group]}: builds binary {group!r}, which is not in openapi::functions() (stale?)")
    wanted = {(m, p): g for g, pairs in routes.items() for (m, p) in pairs}
    for (method, path), group in sorted(wanted.items()):
        have = served.get((method, path))
        if have is None:
            c.error(f"route {method} {path} (served by {group}) has no HttpApi event in the template")
        elif have != group:
            c.error(f"route {method} {path} goes to {functions.get(have, have)} in the template, but {group} serves it")
    for (method, path), group in sorted(served.items()):
        if (method, path) not in wanted:
            c.error(f"{functions.get(group, group)}: HttpApi event {method} {path} is not a route of any router")

    if c.errors:
        print(f"check_template: {len(c.errors)} problem(s) in {shown(args.template)}:", file=sys.stderr)
        for e in c.errors:
            print(f"  - {e}", file=sys.stderr)
        sys.exit(1)
    print(
        f"check_template: {len(wanted)} routes in {len(functions)} functions match the routers; "
        f"table {table_id} matches {shown(args.table)}"
    )


if __name__ == "__main__":
    main()
