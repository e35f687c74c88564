# WebTableView — two commands for a fresh machine: `make run` and `make test`.
# Each installs the system packages it needs (apt-get, as root) when missing.

SWIFT       ?= swift
PORT        ?= 8080
BUILD_FLAGS ?=
BIN          = .build/debug/webtableview

.PHONY: run build release deps test test-unit test-http test-openapi test-browser screenshots \
        container-test test-container bench fuzz clean help

help:
	@echo "make run             install what is missing, build, serve the demo tables on :$(PORT)"
	@echo "make test            install what is missing, build, run every test"
	@echo "make test-unit       model, JSON and rendering unit tests"
	@echo "make test-http       HTTP server and API tests over real sockets"
	@echo "make test-openapi    validate /api/openapi.json with openapi-spec-validator"
	@echo "make test-browser    the live page in headless Chromium (Selenium)"
	@echo "make container-test  build and run the container image with podman"

deps:
	@scripts/install-deps.sh build

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

run: build
	$(BIN) serve --port $(PORT)

# Everything CI runs, cheapest first so that a failure shows early.
test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)
	$(MAKE) test-openapi
	$(MAKE) test-browser
	$(MAKE) container-test
	@echo "make test: every suite passed"

test-unit: deps
	$(SWIFT) test $(BUILD_FLAGS) --filter 'JSONTests|TableModelTests|TableRenderingTests'

test-http: deps
	$(SWIFT) test $(BUILD_FLAGS) --filter 'MicroHTTPTests|TableServerTests'

test-openapi: build
	scripts/test-openapi.sh $(BIN)

test-browser:
	scripts/test-browser.sh

screenshots:
	WEBTABLEVIEW_SCREENSHOTS=$(CURDIR)/docs/screenshots scripts/test-browser.sh -k screenshots

container-test test-container:
	scripts/container/test.sh

clean:
	rm -rf .build
