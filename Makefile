# WebTableView — two commands for a fresh machine: `make run` and `make test`.
# Each installs the system packages it needs (apt-get, as root) when missing.

SWIFT        ?= swift
PORT         ?= 8080
BUILD_FLAGS  ?=
FUZZ_SECONDS ?= 300
BIN           = .build/debug/webtableview
RELEASE_BIN   = .build/release/webtableview
PREFIX       ?= /usr/local
# What `make install` copies: the release binary (the tests install another).
INSTALL_BIN  ?= $(RELEASE_BIN)

.PHONY: run build release release-server install install-files deps format check test test-unit test-http test-client test-openapi test-openapi-client test-redbot test-csv-reference test-docs test-scripts test-schemathesis \
        test-crash test-replicas test-sanitizers test-fuzz test-load test-browser screenshots \
        container-test test-container container-test-source deploy-images deploy-up deploy-down deploy-down-all \
        bench fuzz clean help

help:
	@echo "make run               install what is missing, build the release binary, serve the demo tables on :$(PORT)"
	@echo "make release           build the optimised binaries: $(RELEASE_BIN) and webtableview-follow"
	@echo "make release-server    build the optimised server alone: $(RELEASE_BIN)"
	@echo "make install           make release, then copy it to PREFIX/bin ($(PREFIX)) with its Templates and Public"
	@echo "make test              install what is missing, build, run every test (below)"
	@echo "make check             daily feedback in minutes: format, imports, docs' facts, unit and HTTP tests"
	@echo "make format            format every Swift file as .swift-format says (make test checks it)"
	@echo "make test-unit         model, JSON, journal and rendering unit tests"
	@echo "make test-http         HTTP server, API and Swift client tests over real sockets"
	@echo "make test-client       the Swift client library's tests against live servers"
	@echo "make test-openapi      validate /api/openapi.json (openapi-spec-validator) and /metrics (prometheus-client)"
	@echo "make test-openapi-client  generate a Swift client from the document (swift-openapi-generator) and call every operation"
	@echo "make test-redbot       lint the pages, JSON reads, static files and change feed with REDbot"
	@echo "make test-scripts      the shell scripts' own tests (Tests/scripts)"
	@echo "make test-csv-reference  the CSV reader against Python's csv module on 300 generated files"
	@echo "make test-docs         check the docs' facts against the tree; run every curl example of README.md, docs/API.md and docs/ACCESS.md"
	@echo "make test-schemathesis fuzz every API operation against /api/openapi.json"
	@echo "make test-crash        SIGKILL/restart cycles against serve --journal"
	@echo "make test-replicas     replicas sharing PostgreSQL; a full disk under --journal"
	@echo "make test-sanitizers   the Swift tests under AddressSanitizer, then ThreadSanitizer"
	@echo "make test-fuzz         each libFuzzer harness for 20 s"
	@echo "make test-load         1,000 readers + writers, slowloris, 2,000 SSE subscribers"
	@echo "make test-browser      the live page in headless Chromium (Selenium)"
	@echo "make container-test    build the container image around the release binary, run it, then the replicated stack, with podman"
	@echo "make container-test-source  the same with the image compiled from source, as docker build . does"
	@echo "make deploy-up         PostgreSQL, three replicas and nginx on 127.0.0.1:8080 (deploy/compose.yaml)"
	@echo "make deploy-down       stop that stack (deploy-down-all also removes its database volume)"
	@echo "make fuzz              each libFuzzer harness for FUZZ_SECONDS ($(FUZZ_SECONDS) s)"
	@echo "make bench             benchmarks side by side; writes docs/PERFORMANCE.md"
	@echo "make screenshots       rewrite docs/screenshots/ from the browser tests"

deps:
	@scripts/install-deps.sh build

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

# The server alone, optimised: what make run, the load test and the container
# test run (make release builds webtableview-follow too, for make install).
release-server: deps
	$(SWIFT) build -c release --product webtableview $(BUILD_FLAGS)

# The binary in PREFIX/bin finds PREFIX/share/webtableview/{Templates,Public} by itself.
install: release install-files

install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/webtableview
	install -m 755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/webtableview
	# `webtableview follow` runs webtableview-follow from beside it (README.md, "Following a table").
	if [ -x $(dir $(INSTALL_BIN))webtableview-follow ]; then \
	  install -m 755 $(dir $(INSTALL_BIN))webtableview-follow $(DESTDIR)$(PREFIX)/bin/webtableview-follow; fi
	rm -rf $(DESTDIR)$(PREFIX)/share/webtableview/Templates $(DESTDIR)$(PREFIX)/share/webtableview/Public
	cp -R Templates Public $(DESTDIR)$(PREFIX)/share/webtableview/

# The optimised binary: a view (search, sort, group) of 54,000 rows takes a
# fraction of a second there, and seconds in the debug build.
run: release-server
	$(RELEASE_BIN) serve --port $(PORT)

# The format make test checks (scripts/check-format.sh): swift-format ships with
# the toolchain.
format:
	git ls-files -z '*.swift' | xargs -0 $(SWIFT) format format --in-place --parallel

# Everything CI runs, cheapest first so that a failure shows early.
# Imports are checked twice: SwiftPM refuses an import of a target outside the
# importer's dependency closure; scripts/check-imports.py also refuses one that
# is not a DIRECT dependency in Package.swift.
# Every system package is installed first: the suites after the Swift tests
# run in two lanes side by side (scripts/test-suites.sh), and two apt-gets
# would wait on each other's lock.
# Each step runs in a lane (scripts/test-lanes.sh), which times it; the run
# ends with the table of the lanes' times and outcomes, passed or failed. (No
# `deps` first: the packages lane installs the build's packages with the rest,
# inside the total.)
test: export WEBTABLEVIEW_TEST_LANES = $(CURDIR)/.build/test-lanes
test:
	@scripts/test-lanes.sh start
	scripts/test-lanes.sh run packages scripts/install-deps.sh build python docs replicas browser container
	scripts/test-lanes.sh run packages scripts/browser-deps.sh
	scripts/test-lanes.sh run checks scripts/check-format.sh
	scripts/test-lanes.sh run checks scripts/check-imports.py
	scripts/test-lanes.sh run swift $(SWIFT) build --build-tests --explicit-target-dependency-import-check error $(BUILD_FLAGS)
	WEBTABLEVIEW_REQUIRE_POSTGRES=1 scripts/test-lanes.sh run swift $(SWIFT) test --skip-build $(BUILD_FLAGS) --skip '$(CLIENT_TESTS)'
	scripts/test-suites.sh
	@echo "make test: every suite passed"

# Daily feedback, a few minutes on a warm machine: what make test checks first,
# then the unit and HTTP tests from one build (make test runs everything).
check: deps
	scripts/check-format.sh
	scripts/check-imports.py
	scripts/check-docs.py
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS) --filter '$(UNIT_TESTS)|$(HTTP_TESTS)'
	$(SWIFT) test --skip-build $(BUILD_FLAGS) --filter '$(CLIENT_TESTS)'
	@echo "make check: passed (make test runs every suite)"

UNIT_TESTS = JSONTests|TableModelTests|TableModelSharingTests|TableRenderingTests|TableJournalTests|TableImportTests|ProcessMetricsTests
HTTP_TESTS = MicroHTTPTests|TableServerTests|ServerAccessTests|webtableviewTests
# The client's tests read live event streams through URLSession, whose pieces
# reach them through Swift's task pool, and wait for them against the clock.
# They run in a swift test of their own: beside them, the model's property tests
# keep every thread of the pool busy for a minute and more on two cores, and
# the clients' waits ran out before their streams were read. make test runs
# them in the servers' lane (scripts/test-suites.sh), where they mostly wait.
CLIENT_TESTS = WebTableViewClientTests

test-unit: deps
	$(SWIFT) test $(BUILD_FLAGS) --filter '$(UNIT_TESTS)'

test-http: deps
	$(SWIFT) test $(BUILD_FLAGS) --filter '$(HTTP_TESTS)|$(CLIENT_TESTS)'

# The Swift client's tests, in a swift test of their own (above).
test-client: build
	$(SWIFT) test $(BUILD_FLAGS) --filter '$(CLIENT_TESTS)'

test-openapi: build
	scripts/test-openapi.sh $(BIN)

# A generated client's own package, with its own .build (Tests/openapi-client).
test-openapi-client: build
	scripts/test-openapi-client.sh $(BIN)

test-redbot: build
	scripts/test-redbot.sh $(BIN)

test-scripts: build
	@for test in Tests/scripts/*.sh; do echo "$$test"; $$test || exit 1; done

# The CSV reader against Python's csv module on generated files (every dialect).
test-csv-reference: build
	scripts/test-csv-reference.py $(BIN) 300

test-docs: build
	@scripts/install-deps.sh docs
	scripts/check-docs.py
	scripts/test-docs.py $(BIN)

test-schemathesis: build
	scripts/test-schemathesis.sh $(BIN)

test-crash: build
	scripts/test-crash.sh $(BIN)

test-replicas: build
	scripts/test-replicas.sh

test-sanitizers: deps
	scripts/test-sanitizers.sh address
	scripts/test-sanitizers.sh thread

test-fuzz: deps
	scripts/fuzz.sh 20

test-load: release-server
	scripts/test-load.sh $(RELEASE_BIN)

test-browser:
	scripts/test-browser.sh

screenshots:
	WEBTABLEVIEW_SCREENSHOTS=$(CURDIR)/docs/screenshots scripts/test-browser.sh -k screenshots

# The image around the release binary; container-test-source compiles it in
# the image's builder stage, as `docker build .` does (docs/CONTAINER.md).
container-test test-container: release-server
	scripts/container/test.sh $(RELEASE_BIN)

container-test-source:
	scripts/container/test.sh

# The replicated stack of deploy/compose.yaml, with podman-compose (docs/CONTAINER.md).
COMPOSE = podman-compose -p webtableview -f deploy/compose.yaml

deploy-images:
	deploy/build-images.sh

deploy-up: deploy-images
	$(COMPOSE) up -d

deploy-down:
	$(COMPOSE) down

deploy-down-all:
	$(COMPOSE) down -v

fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

bench:
	scripts/bench/run.sh

clean:
	rm -rf .build .build-* Benchmarks/.build Fuzz/.build Tests/openapi-client/.build
