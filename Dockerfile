# WebTableView in a container: a Swift builder stage and a slim Debian runtime.
#
#   docker build -t webtableview .
#   docker run --rm -p 127.0.0.1:8080:8080 webtableview
#   docker run --rm -p 127.0.0.1:8080:8080 webtableview --token-file /run/secrets/token
#
# Both images are build arguments, fully qualified so that podman (which has no
# default registry) finds them too; override them to build from local copies.
ARG SWIFT_IMAGE=docker.io/library/swift:6.3.1-bookworm
ARG RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS builder

# Debian's bookworm packages (no version pins: they would break at each security update).
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get update -q \
 && apt-get install -y -q --no-install-recommends libmicrohttpd-dev zlib1g-dev libbrotli-dev libpq-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Packages first: this layer is reused until Package.swift (or Package.resolved) changes.
COPY Package.* ./
RUN swift package resolve

COPY Sources ./Sources
# The EmbedFiles build plugin builds the OpenAPI document and the demo tables (examples/) into the binary.
COPY Plugins ./Plugins
COPY examples ./examples
# SwiftPM checks that every target's folder exists, the test targets' too.
COPY Tests ./Tests
# The Swift runtime goes into the binary (static stdlib); libmicrohttpd, zlib, libbrotli and libpq stay shared libraries.
RUN swift build -c release --static-swift-stdlib --product webtableview \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/webtableview" /out/webtableview \
 && strip --strip-debug /out/webtableview

# The runtime: everything but the binary, which the last stage adds. make
# test's container test builds this stage alone (--target runtime) and adds the
# release binary it built already, with the Swift runtime's shared libraries
# (docs/CONTAINER.md).
FROM ${RUNTIME_IMAGE} AS runtime

LABEL org.opencontainers.image.title="WebTableView" \
      org.opencontainers.image.description="UIKit's table view, served over HTTP"

# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get update -q \
 && apt-get install -y -q --no-install-recommends libmicrohttpd12 zlib1g libbrotli1 libpq5 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 webtableview \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin webtableview \
 && install -d -o 10001 -g 10001 -m 0750 /var/lib/webtableview

WORKDIR /app
COPY Public ./Public
COPY Templates ./Templates
COPY scripts/container/entrypoint.sh /usr/local/bin/webtableview-entrypoint
COPY scripts/container/healthcheck.sh /usr/local/bin/webtableview-healthcheck

# /var/lib/webtableview is where a journal on a volume goes (a new named volume takes its owner).
# Defaults that arguments add to rather than replace (scripts/container/entrypoint.sh):
# `docker run IMAGE --token-file F` serves on $WEBTABLEVIEW_HOST:$WEBTABLEVIEW_PORT with --token-file F.
ENV WEBTABLEVIEW_HOST=0.0.0.0 \
    WEBTABLEVIEW_PORT=8080

USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
# GET /healthz on the port the server was given (an argument or WEBTABLEVIEW_PORT).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/webtableview-healthcheck"]

ENTRYPOINT ["/usr/local/bin/webtableview-entrypoint"]
CMD ["serve"]

FROM runtime
COPY --from=builder /out/webtableview /usr/local/bin/webtableview
