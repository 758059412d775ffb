#!/usr/bin/env python3
"""Docs drift checks of README.md and docs/**/*.md (run by scripts/check-docs.sh).

  check_docs.py links                        every relative link and anchor resolves
  check_docs.py tables --routes routes.json  every marked table matches the code
  check_docs.py blocks --out script.sh       writes the runnable shell blocks as one script

Markers are HTML comments on their own line right before a table or a code block (blank
lines between are allowed); docs/TESTING.md explains them for writers:

  <!-- check: functions -->          the table's first column names every function
                                     (functions/<name>/) exactly once; a cell may hold
                                     several, comma-separated ("tags, providers")
  <!-- check: routes GROUP -->       the table's first column holds exactly the routes of
                                     function GROUP, as backticked `METHOD /path` (methods
                                     may be joined: `GET/PUT /api/wallet`; a query string
                                     after `?` is ignored); every function must have one
  <!-- check: permissions -->        Function | DynamoDB actions on the table | Query on
                                     indexes | JWT secret | ses:SendEmail, against the
                                     template's policies
  <!-- check: function-config -->    Function | Memory (MB) | Timeout (s) | ..., against
                                     the template (Globals included)
  <!-- check: keys -->               Item | PK | SK | LSI1SK: each row's PK, SK and LSI1SK
                                     are a row of the key table in crates/store/src/keys.rs
  <!-- no-run: why -->               the next ```sh/```bash block is not run (needs AWS,
                                     SAM, Docker, a running `make run`, a value to paste)
  <!-- expect: TEXT -->              the next block's output must contain TEXT (repeatable)

Also: a table whose first header cell is "Function" or "Group" must carry a check marker,
and the path of a `METHOD /path` in the first column of any other table must be a path of
the code (placeholders match any placeholder: `/users/{me}` matches `/users/{id}`); such
loose tables (docs/CAPACITY.md's, docs/ACCOUNTS.md's) are not held to the methods.
"""

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Pages announced by a link before they are written (capabilities that land later). A link
# to one of these may dangle; once the page exists it is checked like any other.
EXPECTED_MISSING: set = set()

# Blocks in pages this check's owner does not edit that cannot run as written (placeholders
# to paste). Keyed by page and the block's first line; the page's owner can instead put
# `<!-- no-run: ... -->` before the block and drop the entry here.
NO_RUN_ELSEWHERE: set = set()

RUN_LANGS = {"sh", "bash", "shell"}
METHODS = "GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS"
ROUTE = re.compile(rf"^((?:{METHODS})(?:/(?:{METHODS}))*)\s+(/\S*)$")


def pages():
    found = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    return [p for p in found if p.is_file()]


def rel(path):
    return str(path.relative_to(ROOT))


# ---------------------------------------------------------------- markdown parsing


class Block:
    def __init__(self, kind, line, markers, lines, lang=""):
        self.kind = kind  # "table" or "code"
        self.line = line  # 1-based first line
        self.markers = markers  # [(name, argument)]
        self.lines = lines
        self.lang = lang

    def marker(self, name):
        return [arg for n, arg in self.markers if n == name]


MARKER = re.compile(r"^<!--\s*([a-z-]+)\s*(?::\s*(.*?))?\s*-->$")


def parse(path):
    """Tables and fenced code blocks of a page, each with the markers right before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, markers, prose = [], [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        fence = re.match(r"^(\s*)(```+|~~~+)\s*([A-Za-z0-9_+-]*)", line)
        if fence:
            close, body, start = fence.group(2), [], i + 1
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(close):
                body.append(lines[i][len(fence.group(1)):] if lines[i].startswith(fence.group(1)) else lines[i])
                i += 1
            blocks.append(Block("code", start, markers, body, fence.group(3).lower()))
            markers = []
            i += 1
            continue
        if stripped.startswith("|"):
            start, rows = i + 1, []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i].strip())
                i += 1
            blocks.append(Block("table", start, markers, rows))
            markers = []
            continue
        m = MARKER.match(stripped)
        if m:
            markers.append((m.group(1), (m.group(2) or "").strip()))
        elif stripped:
            markers = []
            prose.append((i + 1, line))
        i += 1
    return blocks, prose


def cells(row):
    parts = re.split(r"(?<!\\)\|", row.strip())
    return [c.strip().replace("\\|", "|") for c in parts[1:-1]]


def table_rows(block):
    """(header cells, [(line, cells)]) without the separator row."""
    header = cells(block.lines[0])
    body = [(block.line + n, cells(r)) for n, r in enumerate(block.lines[2:], start=2)]
    return header, body


def plain(cell):
    """A cell's text: links reduced to their text, no code or emphasis marks."""
    cell = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)
    return re.sub(r"[`*_]", "", cell).strip()


def names(cell):
    return [n.strip() for n in plain(cell).split(",") if n.strip()]


def routes_in(cell):
    out = []
    for span in re.findall(r"`([^`]+)`", cell):
        m = ROUTE.match(span.strip())
        if m:
            path = m.group(2).split("?")[0]
            out.extend((method, path) for method in m.group(1).split("/"))
    return out


# ---------------------------------------------------------------- links


def slug(heading):
    text = re.sub(r"`|\*|_(?=\w)|(?<=\w)_", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r"^\s*(```|~~~)", line):
            in_fence = not in_fence
        if in_fence:
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def check_links():
    errors, count = [], 0
    for page in pages():
        _, prose = parse(page)
        rows = [(b.line + n, r) for b in parse(page)[0] if b.kind == "table" for n, r in enumerate(b.lines)]
        for number, line in prose + rows:
            text = re.sub(r"`[^`]*`", "", line)
            for target in LINK.findall(text):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                    continue  # http:, https:, mailto:
                count += 1
                file_part, _, anchor = target.partition("#")
                dest = (page.parent / file_part).resolve() if file_part else page
                where = f"{rel(page)}:{number}"
                try:
                    shown = str(dest.relative_to(ROOT))
                except ValueError:
                    errors.append(f"{where}: link {target} leaves the repository")
                    continue
                if not dest.exists():
                    if shown not in EXPECTED_MISSING:
                        errors.append(f"{where}: link {target} -> {shown} does not exist")
                    continue
                if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    errors.append(f"{where}: link {target}: no heading #{anchor} in {shown}")
    return errors, f"{count} relative links"


# ---------------------------------------------------------------- tables


def load_template():
    try:
        from cfnlint.decode import decode
    except ImportError:
        sys.exit("check_docs: needs cfn-lint (scripts/check-template.sh installs it into .local/venv)")
    template, matches = decode(str(ROOT / "template.yaml"))
    if matches or template is None:
        sys.exit("check_docs: cannot parse template.yaml:\n" + "\n".join(str(m) for m in matches))
    return template


def substitute(value, name, item):
    if isinstance(value, str):
        return value.replace("${" + name + "}", item).replace("&{" + name + "}", re.sub(r"[^A-Za-z0-9]", "", item))
    if isinstance(value, list):
        return [substitute(v, name, item) for v in value]
    if isinstance(value, dict):
        return {substitute(k, name, item): substitute(v, name, item) for k, v in value.items()}
    return value


def expand(resources):
    """Resources with AWS::LanguageExtensions `Fn::ForEach` loops over literal lists expanded."""
    out = {}
    for key, value in resources.items():
        if not key.startswith("Fn::ForEach::"):
            out[key] = value
            continue
        name, collection, body = value
        if not isinstance(collection, list):
            sys.exit(f"check_docs: {key}: only Fn::ForEach over a literal list is understood; extend expand()")
        for item in collection:
            out.update(expand(substitute(body, name, str(item))))
    return out


def template_functions(template):
    """binary -> {memory, timeout, actions, indexes, secret, ses}"""
    globals_fn = (template.get("Globals") or {}).get("Function") or {}
    out = {}
    for fn in expand(template.get("Resources") or {}).values():
        if fn.get("Type") != "AWS::Serverless::Function":
            continue
        binary = ((fn.get("Metadata") or {}).get("BuildProperties") or {}).get("Binary")
        props = fn.get("Properties") or {}
        info = {
            "memory": props.get("MemorySize", globals_fn.get("MemorySize")),
            "timeout": props.get("Timeout", globals_fn.get("Timeout")),
            "actions": set(),
            "indexes": set(),
            "secret": False,
            "ses": False,
        }
        for policy in props.get("Policies") or []:
            statements = policy.get("Statement", []) if isinstance(policy, dict) else []
            for st in statements if isinstance(statements, list) else [statements]:
                actions = st.get("Action", [])
                actions = actions if isinstance(actions, list) else [actions]
                resources = st.get("Resource", [])
                resources = resources if isinstance(resources, list) else [resources]
                for resource in resources:
                    sub = resource.get("Fn::Sub") if isinstance(resource, dict) else None
                    index = re.search(r"/index/([A-Za-z0-9_.-]+)$", sub) if isinstance(sub, str) else None
                    for action in actions:
                        service, _, op = str(action).partition(":")
                        if service == "dynamodb" and index:
                            info["indexes"].add(index.group(1))
                        elif service == "dynamodb":
                            info["actions"].add(op)
                        elif action == "secretsmanager:GetSecretValue":
                            info["secret"] = True
                        elif action == "ses:SendEmail":
                            info["ses"] = True
        out[binary] = info
    return out


def key_rows():
    """(PK, SK, LSI1SK) of each row of the `//!` key table in crates/store/src/keys.rs."""
    rows = set()
    for line in (ROOT / "crates/store/src/keys.rs").read_text().splitlines():
        text = line.removeprefix("//!").strip()
        if text.startswith("|") and not text.startswith("|---"):
            c = cells(text)
            if len(c) >= 4:
                rows.add(tuple(plain(x) for x in c[1:4]))
    return rows


def yes_no(cell, where, errors):
    word = plain(cell).lower().split(" ")[0] if plain(cell) else ""
    if word not in ("yes", "no"):
        errors.append(f"{where}: expected yes or no, got {cell!r}")
    return word == "yes"


def word_set(cell):
    text = plain(cell)
    if text.lower() in ("", "none", "-", "—"):
        return set()
    return {w.strip() for w in re.split(r"[,\s]+", text) if w.strip()}


def expand_rows(body, where_of, errors, functions):
    """Rows keyed by each function their first cell names."""
    seen = {}
    for line, row in body:
        for name in names(row[0]) if row else []:
            if name not in functions:
                errors.append(f"{where_of(line)}: {name!r} is no function (functions/: {', '.join(sorted(functions))})")
            elif name in seen:
                errors.append(f"{where_of(line)}: {name} is listed twice")
            seen[name] = (line, row)
    for name in sorted(set(functions) - set(seen)):
        errors.append(f"{where_of(body[0][0] if body else 0)}: table lacks function {name}")
    return seen


def check_tables(routes_json):
    routes = {g: {(m.upper(), p) for m, p in pairs} for g, pairs in json.loads(Path(routes_json).read_text()).items()}
    dirs = {p.name for p in (ROOT / "functions").iterdir() if (p / "Cargo.toml").exists()}
    errors, checked = [], 0
    if dirs != set(routes):
        errors.append(
            f"functions/ ({', '.join(sorted(dirs))}) and the routes binary ({', '.join(sorted(routes))}) disagree"
        )
    functions = dirs | set(routes)
    template = None
    documented = {}  # group -> page:line
    every_route = {r for pairs in routes.values() for r in pairs}

    def loose(path):
        return re.sub(r"\{[^}]*\}", "{}", path)

    loose_paths = {loose(p) for _, p in every_route}
    for page in pages():
        blocks, _ = parse(page)
        for block in blocks:
            if block.kind != "table" or len(block.lines) < 2:
                continue
            header, body = table_rows(block)

            def where_of(line, page=page):
                return f"{rel(page)}:{line}"

            kinds = [(n, a) for n, a in block.markers if n == "check"]
            if not kinds:
                first = plain(header[0]).lower() if header else ""
                if first in ("function", "functions", "group", "groups"):
                    errors.append(f"{where_of(block.line)}: a table of functions needs a <!-- check: ... --> marker")
                for line, row in body:
                    for method, path in routes_in(row[0] if row else ""):
                        if loose(path) not in loose_paths:
                            errors.append(f"{where_of(line)}: {method} {path}: no route of the code has this path")
                continue
            for _, arg in kinds:
                checked += 1
                kind, _, group = arg.partition(" ")
                group = group.strip()
                if kind == "functions":
                    expand_rows(body, where_of, errors, functions)
                elif kind == "routes":
                    if group not in routes:
                        errors.append(f"{where_of(block.line)}: check: routes {group!r}: no such function")
                        continue
                    documented.setdefault(group, where_of(block.line))
                    listed = {}
                    for line, row in body:
                        found = routes_in(row[0] if row else "")
                        if not found:
                            errors.append(f"{where_of(line)}: no `METHOD /path` in the first column")
                        for r in found:
                            if r in listed:
                                errors.append(f"{where_of(line)}: {r[0]} {r[1]} is listed twice")
                            listed[r] = line
                    for method, path in sorted(set(listed) - routes[group]):
                        errors.append(f"{where_of(listed[(method, path)])}: {method} {path} is no route of {group}")
                    for method, path in sorted(routes[group] - set(listed)):
                        errors.append(f"{where_of(block.line)}: route {method} {path} of {group} is missing")
                elif kind in ("permissions", "function-config"):
                    template = template or template_functions(load_template())
                    rows = expand_rows(body, where_of, errors, functions)
                    for name, (line, row) in sorted(rows.items()):
                        truth = template.get(name)
                        if truth is None:
                            errors.append(f"{where_of(line)}: no function with Binary: {name} in template.yaml")
                            continue
                        if kind == "function-config":
                            if len(row) < 3:
                                errors.append(f"{where_of(line)}: expected Function | Memory | Timeout")
                                continue
                            for label, cell, want in (("memory", row[1], truth["memory"]), ("timeout", row[2], truth["timeout"])):
                                if plain(cell) != str(want):
                                    errors.append(f"{where_of(line)}: {name} {label} is {want} in template.yaml, the table says {plain(cell)}")
                            continue
                        if len(row) < 5:
                            errors.append(f"{where_of(line)}: expected Function | actions | indexes | secret | ses")
                            continue
                        got = (word_set(row[1]), word_set(row[2]), yes_no(row[3], where_of(line), errors), yes_no(row[4], where_of(line), errors))
                        want = (truth["actions"], truth["indexes"], truth["secret"], truth["ses"])
                        for label, g, w in zip(("DynamoDB actions", "indexes", "JWT secret", "ses:SendEmail"), got, want):
                            if g != w:
                                shown_w = ", ".join(sorted(w)) if isinstance(w, set) else ("yes" if w else "no")
                                shown_g = ", ".join(sorted(g)) if isinstance(g, set) else ("yes" if g else "no")
                                errors.append(f"{where_of(line)}: {name} {label}: template.yaml has [{shown_w}], the table [{shown_g}]")
                elif kind == "keys":
                    known = key_rows()
                    for line, row in body:
                        got = tuple(plain(c) for c in row[1:4])
                        if got not in known:
                            errors.append(f"{where_of(line)}: PK/SK/LSI1SK {' | '.join(got)} is no row of crates/store/src/keys.rs")
                else:
                    errors.append(f"{where_of(block.line)}: unknown marker check: {arg}")
    for group in sorted(set(routes) - set(documented)):
        errors.append(f"no <!-- check: routes {group} --> table documents the routes of {group}")
    return errors, f"{checked} checked tables, {len(every_route)} routes of {len(routes)} functions"


# ---------------------------------------------------------------- runnable blocks

PRELUDE = r"""# Generated by scripts/check_docs.py: the runnable shell blocks of the docs, in order.
set -eEuo pipefail
__block=""
__out=$(mktemp)
# fd 3 is the real stderr: inside a block, stderr goes to the block's output file.
exec 3>&2
trap 'echo "check-docs: block $__block failed (exit $?); its output:" >&3; cat "$__out" >&3' ERR
# Any HTTP error answer fails the block (the examples print what they get with curl -s).
curl() { command curl --fail-with-body --show-error --max-time 30 "$@"; }
"""


def check_blocks(out, local_url):
    script, ran, skipped, errors = [PRELUDE], 0, 0, []
    for page in pages():
        blocks, _ = parse(page)
        for block in blocks:
            if block.kind != "code" or block.lang not in RUN_LANGS:
                continue
            first = block.lines[0] if block.lines else ""
            if block.marker("no-run") or (rel(page), first) in NO_RUN_ELSEWHERE:
                skipped += 1
                continue
            name = f"{rel(page)}:{block.line}"
            body = "\n".join(block.lines).replace(local_url, "$BASE_URL")
            script.append(f'\n__block={json.dumps(name)}\necho "check-docs: running {name}" >&2\n{{\n{body}\n}} >"$__out" 2>&1\ncat "$__out"; echo')
            for text in block.marker("expect"):
                script.append(
                    f"grep -qF -- {sh_quote(text)} \"$__out\" || "
                    f"{{ printf 'check-docs: %s: expected %s in its output\\n' {sh_quote(name)} {sh_quote(text)} >&2; exit 1; }}"
                )
            ran += 1
    script.append(f'\nrm -f "$__out"\necho "check-docs: all {ran} runnable blocks succeeded" >&2\n')
    Path(out).write_text("\n".join(script))
    return errors, f"{ran} runnable blocks written to {out}, {skipped} marked no-run"


def sh_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("links")
    t = sub.add_parser("tables")
    t.add_argument("--routes", required=True)
    b = sub.add_parser("blocks")
    b.add_argument("--out", required=True)
    b.add_argument("--local-url", default="http://127.0.0.1:3000")
    args = parser.parse_args()
    if args.command == "links":
        errors, summary = check_links()
    elif args.command == "tables":
        errors, summary = check_tables(args.routes)
    else:
        errors, summary = check_blocks(args.out, args.local_url)
    if errors:
        print(f"check_docs {args.command}: {len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print(f"  - {e}", file=sys.stderr)
        sys.exit(1)
    print(f"check_docs {args.command}: {summary}")


if __name__ == "__main__":
    main()
