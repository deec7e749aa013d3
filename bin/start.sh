#!/bin/sh
# Starts the service's node process with what must be set before node starts,
# in one place: npm start, both systemd units, the image (and so the Kubernetes
# pods) and the bench all run this (test/operations/process-settings.test.ts).
# Arguments replace dist/server.js (the bench runs the sources through tsx).
#
# GLIBC_TUNABLES, unless the environment names its own: glibc keeps up to
# 64 MB of freed memory instead of handing it back and faulting it in again
# (uploads to the speed test free tens of MB at every young-generation GC),
# and two arenas, not eight per core, each of which kept its own freed memory.
#
# --max-semi-space-size=2: V8's young generation, which start-up's allocations
# grew to its 32 MB ceiling and nothing shrank while idle, stays at 4 MB; V8
# reads it only as it sets the heap up. Measured in
# bench/results/2026-11-29-stop-39.md: idle memory and the upload and geo-local
# figures with and without it.
: "${GLIBC_TUNABLES:=glibc.malloc.trim_threshold=67108864:glibc.malloc.arena_max=2}"
export GLIBC_TUNABLES
[ "$#" -gt 0 ] || set -- dist/server.js
exec node --max-semi-space-size=2 "$@"
