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

# scripts/run.sh's REQUIRED_PACKAGES, less curl (only used there to try the server out).
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libssl-dev zlib1g-dev pkg-config libcurl4-openssl-dev libpq-dev \
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
# for the open-meteo and weatherbit providers. ca-certificates lets those
# providers verify TLS; tzdata gives sessions their IANA time zones (`"timeZone":"Europe/Tallinn"`).
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libstdc++6 zlib1g libssl3 libpq5 libcurl4 ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --user-group --system --create-home --home-dir /app --shell /usr/sbin/nologin viewhost

# The working directory holds Config/, so the default `--config Config/viewhost.json` resolves.
WORKDIR /app
COPY --from=build /staging/usr/local/bin/viewhost /usr/local/bin/viewhost
# Owned by root and read-only for the server's user: configuration is not the server's to change.
COPY --from=build /staging/Config ./Config

USER viewhost:viewhost

EXPOSE 8080

# SIGTERM (docker stop) drains in-flight requests for up to timeouts.drainSeconds (default 10) and exits 0. docker stop
# sends SIGKILL after its own --time (default 10 s), so give it more than the drain: `docker stop --time 15`.
ENTRYPOINT ["viewhost"]
CMD ["serve", "--host", "0.0.0.0"]
