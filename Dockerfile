# syntax=docker/dockerfile:1
#
# Signpost's container image: the server (apps/server/dist) and the built web app
# (apps/web/dist), with the server's production packages only, run by Node as the image's
# unprivileged `node` user (uid 1000). Build it at the repository's root:
#
#   docker build -t signpost .
#
# docs/deployment.md tells how to run it: alone, with compose.yaml, and on Kubernetes
# (deploy/kubernetes/). apps/server/test/deploy-files.test.ts holds this file to what these
# comments promise.

# ---- build: every package, then the web app and the server ------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
# Playwright (a development dependency of the web app's end-to-end tests) never downloads a
# browser here.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
# The package files first, so that `npm ci` is redone only when they change; .npmrc with
# them, so that npm ci refuses a package whose "engines" exclude the image's Node.js.
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/link-search/package.json packages/link-search/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/extension/package.json apps/extension/
RUN npm ci
COPY . .
RUN npm run build

# ---- deps: the server's production packages, nothing else --------------------------------
# The server's bundle holds its own code and the contract's (apps/server/build.mjs); only
# the packages in apps/server/package.json's "dependencies" stay outside it. The web app's
# packages are built into apps/web/dist and are not needed at run time.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/link-search/package.json packages/link-search/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/extension/package.json apps/extension/
# The links npm makes to the workspaces (node_modules/@signpost) are dropped: nothing
# imports them at run time, and the runtime image has no workspace sources to point at.
RUN npm ci --omit=dev --workspace=@signpost/server \
    && rm -rf node_modules/@signpost

# ---- runtime: what running needs, and no more ---------------------------------------------
FROM node:20-bookworm-slim AS runtime
LABEL org.opencontainers.image.title="Signpost" \
      org.opencontainers.image.description="The link portal for organizations" \
      org.opencontainers.image.licenses="MIT"
# HOST=0.0.0.0: the server's default, localhost, cannot be reached from outside the
# container. DATA_DIR is the embedded database's folder, used only without DATABASE_URL.
#
# Stopping: `docker stop` sends SIGTERM and, 10 s later by default, SIGKILL. The server
# takes at most SHUTDOWN_DRAIN_SECONDS (0 here) plus SHUTDOWN_TIMEOUT_SECONDS from SIGTERM
# to exit, so the image sets the limit to 8 s, below Docker's 10 s; raise it together with
# `docker stop --time` / `stop_grace_period` (compose.yaml) or terminationGracePeriodSeconds
# (Kubernetes), always keeping the orchestrator's time above drain + limit.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    SHUTDOWN_TIMEOUT_SECONDS=8
WORKDIR /app
# Files belong to root and are read-only to the server: it cannot change its own code.
COPY --from=deps /app ./
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# The data folder belongs to the server's user, so that a named volume mounted there (it
# takes the folder's owner) can be written. A folder bound from the host must be writable
# by uid 1000.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# The slim image has no curl: Node asks /healthz itself (200 while the process lives).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# Exec form: Node is process 1 and receives SIGTERM itself (no shell in between).
CMD ["node", "apps/server/dist/main.js"]
