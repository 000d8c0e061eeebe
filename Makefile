# CommandCenter — `make start` to run it, `make test` to prove it. `make help` lists every target.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Settings (DATABASE_URL, PORT, …) come from the environment over .env, read by the scripts and apps themselves:
# exporting defaults here would shadow .env.

.PHONY: help start test check lint typecheck deps docs-config unit e2e bench scale services install migrate seed build clean

help: ## List the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  \033[1m%-12s\033[0m %s\n", $$1, $$2}'

node_modules/.installed: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.installed ## Install npm packages (npm ci) when the lock file changed

services: ## Install (apt-get) and start PostgreSQL and Redis unless DATABASE_URL / REDIS_URL point elsewhere
	@bash infra/scripts/services.sh

migrate: services install ## Create the database if missing and apply migrations
	npx tsx infra/scripts/migrate.ts

seed: migrate ## Load the demo entities, customers, users, 13 months of generated spend, the demo exchange rates and the AWS / Azure demo exports (idempotent)
	npx tsx infra/scripts/seed.ts
	npx tsx infra/scripts/seed-billing.ts
	npx tsx infra/scripts/seed-exports.ts

build: install ## Build the web app into web/dist, then print each route's gzipped JS
	npm run build -w web
	npx tsx test/bench/web-bundle.ts

start: seed build ## Run api + worker on http://localhost:8080 (Ctrl-C stops)
	@bash infra/scripts/start.sh

lint: install ## ESLint, no warnings allowed
	npx eslint --max-warnings 0 .

typecheck: install ## tsc --noEmit for the node apps and the web app
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p web/tsconfig.json --noEmit

deps: install ## Import rules (dependency-cruiser, .dependency-cruiser.cjs): no circles, layers, infra via entry points
	npx depcruise api workers shared web infra --config .dependency-cruiser.cjs --output-type err

check: install ## Lint, typecheck and import rules, side by side (each is one process: two cores finish them sooner together)
	@$(MAKE) --no-print-directory -j3 --output-sync=target lint typecheck deps

docs-config: install ## Regenerate README's settings table, .env.example and the code maps in docs/ARCHITECTURE.md, workers/README.md
	npx tsx infra/scripts/config-table.ts --write
	npx tsx infra/scripts/docs-map.ts --write

unit: services install ## tap: unit and integration tests against real PostgreSQL and Redis
	npx tap

e2e: services build ## Browser tests in Debian Chromium (installed when missing)
	@bash infra/scripts/chromium.sh
	npx tap --disable-coverage --jobs=2 --timeout=300 test/e2e/*.test.ts

test: check unit e2e ## Everything CI runs: check, tap tests, E2E
	@echo "make test: all suites passed"

bench: services install build ## Benchmarks under test/bench, each beside a baseline measured in the same run, and each route's gzipped JS (BENCH_ROWS, BENCH_FILE_ROWS, BENCH_SECONDS, ANOMALY_SERIES, BENCH_ASSETS, BENCH_GRAPH_NODES, BENCH_GRAPH_LARGE, BENCH_PROJECTS, BENCH_LICENSES, BENCH_GROWTH shorten it; BENCH_GROWTH=5000000,50000000 measures 50M lines; BENCH_ONLY=areas,chart,... runs only those parts, e.g. BENCH_ONLY=file-ingest BENCH_FILE_ROWS=1000000; BENCH_FILE_CASES=wide,narrow,gzip,parquet picks the FOCUS files)
	npx tsx test/global-setup.ts
	npx tsx test/bench/run.ts

scale: services install ## Many processes on this machine: Redis Sentinel group and Cluster, a streaming PostgreSQL replica, 2 api processes and 3 workers; prints the table of docs/scaling.md (SCALE_SHAPES, SCALE_ROWS, SCALE_MAILS, SCALE_DAY_HOURS shorten it)
	npx tsx infra/scripts/scale.ts

clean: ## Remove build output
	rm -rf web/dist .tap
