# ViewHost image, in the shape of the hummingbird template: a Swift build stage and a slim Debian runtime stage.
#
#   docker build -t viewhost .
#   docker run --rm -p 8080:8080 viewhost
#
# No Docker engine runs on the development machines, so this file is not built by CI. Keep its steps the same as
# scripts/run.sh (the README's set-up): the same Debian packages and the same
# `swift build -c release --product viewhost`, plus --static-swift-stdlib (explained at that step).

# ---- build -------------------------------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build

# scripts/run.sh's REQUIRED_PACKAGES, less curl (only used there to try the server out). Versions are not pinned
# (hadolint DL3008, ignored in .hadolint.yaml): the image follows bookworm's security updates, as run.sh does.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libssl-dev zlib1g-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev \
        pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Resolve dependencies first, in their own layer, so that changing a source file does not download them again.
COPY Package.* ./
RUN swift package resolve

COPY . .

# The same command as scripts/run.sh, plus --static-swift-stdlib: the runtime stage has no Swift toolchain, so the
# Swift runtime, Foundation (with its ICU data) and Dispatch are linked into the binary instead of being copied from
# /usr/lib/swift/linux. `ldd` on such a build lists only libc, libm, libstdc++, libgcc_s and libz (checked on
# Debian 12 with Swift 6.3.1); a plain build (scripts/run.sh) also loads 14 Swift runtime libraries from the toolchain.
RUN swift build -c release --product viewhost --static-swift-stdlib \
    && install -D -m 0755 .build/release/viewhost /staging/usr/local/bin/viewhost \
    && cp -R Config /staging/Config

# ---- runtime -----------------------------------------------------------------------------------------------------
FROM debian:bookworm-slim

# The shared libraries ldd lists beyond libc6 and libgcc-s1 (which every Debian image has): libstdc++, zlib (gzip),
# libssl3 (HTTPS with --tls-cert/--tls-key), libpq5 (--store postgres), and libcurl, which FoundationNetworking links
# for the open-meteo and weatherbit providers, and libsqlite3-0 (the durable session store). ca-certificates lets
# those providers verify TLS; tzdata gives sessions their IANA time zones (`"timeZone":"Europe/Tallinn"`); curl is
# the HEALTHCHECK's client (libcurl4 is there anyway, so it adds little).
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libstdc++6 zlib1g libssl3 libpq5 libcurl4 libsqlite3-0 \
        ca-certificates tzdata curl \
    && rm -rf /var/lib/apt/lists/*

# A numeric id (hadolint DL3066), so `USER` resolves on any host and runtime without the image's /etc/passwd.
# The store's directory belongs to that user; it is a volume, so sessions outlive the container.
RUN useradd --user-group --system --uid 10001 --create-home --home-dir /app --shell /usr/sbin/nologin viewhost \
    && install -d -o 10001 -g 10001 -m 0750 /var/lib/viewhost

# The working directory holds Config/, so the default `--config Config/viewhost.json` resolves.
WORKDIR /app
COPY --from=build /staging/usr/local/bin/viewhost /usr/local/bin/viewhost
# Owned by root and read-only for the server's user: configuration is not the server's to change.
COPY --from=build /staging/Config ./Config

# The SQLite store (store.kind sqlite, the default) keeps its file here.
ENV VIEWHOST_STORE_DATA_DIR=/var/lib/viewhost
VOLUME /var/lib/viewhost

USER 10001:10001

EXPOSE 8080

# Liveness over plain HTTP on the default port; a container run with TLS on or another port overrides it
# (`docker run --health-cmd 'curl -fsSk https://127.0.0.1:8443/healthz'`).
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/healthz"]

# SIGTERM (docker stop) drains in-flight requests for up to timeouts.drainSeconds (default 10) and exits 0. The
# exec form makes viewhost PID 1, so the signal reaches it (a shell form would swallow it). docker stop sends
# SIGKILL after its own --time (default 10 s), so give it more than the drain: `docker stop --time 15`.
STOPSIGNAL SIGTERM
ENTRYPOINT ["viewhost"]
CMD ["serve", "--host", "0.0.0.0"]
