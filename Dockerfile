# The service's image (docs/deploy.md). Every stage on the same Debian base as
# the machines it also runs on: glibc for the embedded report store's native
# module, and the same packages. Settings are read at run time from the
# environment, never here: the image is the same for every deployment.

# The build: every dependency, the compiled server and the built site.
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Only what runs: the production dependencies.
FROM node:22-bookworm-slim AS production-dependencies
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# The version follows package.json (test/deploy checks it). The source is the
# repository the image is built from, given by whoever builds it: this project
# has no one public address, and the upstream site's repository is not ours.
ARG VERSION=1.0.0
ARG SOURCE=
LABEL org.opencontainers.image.title="netdiag-backend" \
      org.opencontainers.image.description="Network-diagnostics service: the site, its JSON API and the command-line face" \
      org.opencontainers.image.source="$SOURCE" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.licenses="MIT"

# Inside a container the listeners face the container's network (only the
# published ports reach them); everything the service writes goes to the
# DATA_DIR volume, so the root filesystem can be read-only.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    DATA_DIR=/data

WORKDIR /app
COPY --from=production-dependencies /src/node_modules node_modules
COPY --from=build /src/dist dist
COPY package.json LICENSE ./
COPY bin/start.sh bin/
# The shipped datasets, read from the application root until a download replaces them under DATA_DIR.
COPY datasets/tlds/tlds-alpha-by-domain.txt datasets/tlds/
COPY datasets/rdap/bootstrap datasets/rdap/bootstrap/
COPY routes/dnsresolver/resolvers.json routes/dnsresolver/
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node

EXPOSE 18966 11966
# Liveness of the process through the front listener, with the Node already
# here (the image has no curl or wget). /readyz is for load balancers: without
# the geolocation databases it may say "not ready" while the site serves.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.FRONTEND_PORT||18966)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The launcher npm start and the systemd units run: glibc's tunables and node's
# young-generation size, then it execs node, which is PID 1, so the signals reach it.
CMD ["bin/start.sh"]
