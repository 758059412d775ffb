"""Helpers of scripts/sam-local.sh, run with .local/venv/bin/python (it has the SAM CLI's
own packages: its YAML loader for CloudFormation tags, and boto3).

  sam_local.py env-vars TEMPLATE OUT   the --env-vars file of `sam local start-api`
  sam_local.py create-table ENDPOINT   the table of shared/table.json on DynamoDB Local
  sam_local.py functions TEMPLATE      the binaries of the template's functions, one a line
  sam_local.py forward HOST PORT FILE  forwards HOST:<free port> to 127.0.0.1:PORT until
                                       stopped, after writing <free port> to FILE

env-vars: every variable that template.yaml declares for a function (Globals and each
function, read generically), with the template's value where it is a literal or a !Ref to
a parameter (its default), and "" where it names a resource (the table, the secret).
Then the local overrides: TABLE_NAME, DYNAMODB_ENDPOINT and JWT_SECRET from the
environment of this script (SAM_TABLE_NAME, SAM_DYNAMODB_ENDPOINT, SAM_JWT_SECRET), and
JWT_SECRET_ARN empty (the functions then use JWT_SECRET). One "Parameters" block applies
to every function; SAM passes a function only the variables its template declares.

create-table: creates SAM_TABLE_NAME from shared/table.json with the environment's
credentials and region (those the functions get), waits until it is active, and enables its TTL; an existing table is kept.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def env_vars(template_path, out_path):
    from samcli.yamlhelper import yaml_parse

    with open(template_path) as f:
        template = yaml_parse(f.read())
    defaults = {
        name: str(p.get("Default", "")) for name, p in (template.get("Parameters") or {}).items()
    }

    def value(v):
        if isinstance(v, (str, int, float)) and not isinstance(v, bool):
            return str(v)
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, dict) and list(v) == ["Ref"] and v["Ref"] in defaults:
            return defaults[v["Ref"]]
        return ""  # a resource (table name, secret ARN) or another intrinsic function

    def variables(props):
        return ((props or {}).get("Environment") or {}).get("Variables") or {}

    merged = {k: value(v) for k, v in variables((template.get("Globals") or {}).get("Function")).items()}
    for resource in (template.get("Resources") or {}).values():
        if resource.get("Type") == "AWS::Serverless::Function":
            merged.update({k: value(v) for k, v in variables(resource.get("Properties")).items()})

    overrides = {
        "TABLE_NAME": os.environ["SAM_TABLE_NAME"],
        "DYNAMODB_ENDPOINT": os.environ["SAM_DYNAMODB_ENDPOINT"],
        "JWT_SECRET": os.environ["SAM_JWT_SECRET"],
        "JWT_SECRET_ARN": "",
        # No SES here: mail is off (the API logs what it would have sent).
        "MAIL_TRANSPORT": "off",
    }
    for name, v in overrides.items():
        if name not in merged:
            sys.exit(f"template.yaml declares no {name} for the functions: SAM local could not set it")
        merged[name] = v
    with open(out_path, "w") as f:
        json.dump({"Parameters": merged}, f, indent=2)
    os.chmod(out_path, 0o600)  # holds the local JWT secret


def create_table(endpoint):
    import boto3

    table = os.environ["SAM_TABLE_NAME"]
    with open(os.path.join(ROOT, "shared", "table.json")) as f:
        definition = json.load(f)
    ttl = definition.pop("TimeToLiveSpecification", None)  # not a CreateTable parameter
    # The credentials and region of the environment: DynamoDB Local keeps one database per
    # access key and region, and the functions must see this table.
    client = boto3.client("dynamodb", endpoint_url=endpoint)
    try:
        client.create_table(TableName=table, **definition)
    except client.exceptions.ResourceInUseException:
        return  # kept from an earlier run (persisted data)
    client.get_waiter("table_exists").wait(TableName=table, WaiterConfig={"Delay": 1, "MaxAttempts": 30})
    if ttl:
        client.update_time_to_live(TableName=table, TimeToLiveSpecification=ttl)


def functions(template_path):
    from samcli.yamlhelper import yaml_parse

    with open(template_path) as f:
        template = yaml_parse(f.read())
    for name, resource in sorted((template.get("Resources") or {}).items()):
        if resource.get("Type") == "AWS::Serverless::Function":
            binary = ((resource.get("Metadata") or {}).get("BuildProperties") or {}).get("Binary")
            print(binary or name)


def forward(host, target_port, port_file):
    """DynamoDB Local listens on 127.0.0.1 only; the functions' containers reach the host at
    their bridge's gateway. This relays one to the other, on the gateway address alone (not
    on every interface). IP_FREEBIND: the bridge may not exist until the first container."""
    import asyncio
    import socket

    async def pipe(reader, writer):
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def handle(client_reader, client_writer):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", int(target_port))
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, writer), pipe(reader, client_writer))

    async def main():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_IP, getattr(socket, "IP_FREEBIND", 15), 1)
        sock.bind((host, 0))
        server = await asyncio.start_server(handle, sock=sock)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(sock.getsockname()[1]))
        os.replace(port_file + ".tmp", port_file)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "env-vars":
        env_vars(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "forward":
        forward(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "functions":
        functions(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "create-table":
        create_table(sys.argv[2])
    else:
        sys.exit(__doc__)
