.PHONY: run test build fmt package check-template

## Start DynamoDB Local (data kept in .local/data) and the API on http://127.0.0.1:3000
run:
	@scripts/run-local.sh

.PHONY: admin
## Make the account registered with EMAIL an admin on the local stack (ACTION=demote undoes it)
admin:
	@EMAIL="$(EMAIL)" ACTION="$(ACTION)" scripts/admin.sh

## Every check: fmt, clippy, unit tests, API tests against DynamoDB Local
test:
	@scripts/test.sh

build:
	cargo build --workspace

fmt:
	cargo fmt --all

## Lint template.yaml and check it against the routers and shared/table.json (offline)
check-template:
	@scripts/check-template.sh

## sam build of every function for Lambda (arm64, cargo-lambda + zig); prints sizes
package:
	@scripts/package.sh

.PHONY: test-browser test-api-fuzz

## Swagger UI and the mailed links' pages in headless Debian Chromium against a throw-away stack with its mail catcher (installs chromium and npm packages when missing)
test-browser:
	@tests/browser/install.sh
	@scripts/with-stack.sh node --test tests/browser/docs.spec.mjs tests/browser/pages.spec.mjs

## Schemathesis, every phase, two users, against a throw-away stack (installs it into .local/venv when missing)
test-api-fuzz:
	@scripts/schemathesis.sh install
	@scripts/with-stack.sh scripts/schemathesis.sh

.PHONY: bench bench-lambda bench-import
## Measure and write BENCHMARKS.md (tools in bench/): cost per active user, warm path against raw calls, Lambda cold start and memory, imports with rules, the recurring job, load, capacity
bench:
	@scripts/bench.sh

## The import against its raw floor and a 20,000-row import job through a running `make run` (127.0.0.1:3000, DynamoDB Local on 127.0.0.1:8000)
bench-import:
	@scripts/bench-import.sh

## Cold start, warm path and peak memory of the Lambda binaries built with the shipped release profile
bench-lambda:
	@scripts/bench-lambda.sh

.PHONY: run-sam test-sam
## The deployed functions (sam build, arm64) behind `sam local start-api` on http://127.0.0.1:3001, with DynamoDB Local; Docker, or podman + qemu as root
run-sam:
	@scripts/sam-local.sh run

## Smoke suite through SAM's API Gateway emulation against a throw-away run-sam stack (every function once)
test-sam:
	@scripts/sam-local.sh test
