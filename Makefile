.PHONY: run test build fmt

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
