.PHONY: run test build fmt package check-template

## Start DynamoDB Local (data kept in .local/data) and the API on http://127.0.0.1:3000
run:
	@scripts/run-local.sh

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
