# Latchkey's image (docs/decisions/064-health-probes-and-containers.md). The build stage has the compilers
# better-sqlite3 builds with and the dev dependencies `remix build` needs; the runtime stage gets only what runs.
# The steps are the README's: `npm ci`, `npm run build`, then `node scripts/start.mjs --no-build` (migrates,
# then serves). Node is the current LTS, 24 (docs/decisions/063-supported-node-versions.md): a pinned major,
# never `latest`. No secret here: AUTH_SECRET and METRICS_TOKEN come from the environment the container runs in.

FROM node:24-bookworm AS build
WORKDIR /app
# The install's postinstall (scripts/generate-prisma.mjs) generates the Prisma clients from the schemas, so they
# come first; npm 11 runs only the install scripts package.json's "allowScripts" names (better-sqlite3).
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci
COPY . .
RUN npm run build
RUN npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/server.mjs /app/prisma.config.ts ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
# app/: the generated Prisma clients and the route files start-up checks the API's route table against (ADR 035).
COPY --from=build /app/app ./app
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/server ./server
# SQLite's file (the default DATABASE_URL, file:data/app.db) lives here, owned by the user the server runs as.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
# 3000: the public port (PORT); 9464: metrics, served only when METRICS_PORT is set.
EXPOSE 3000 9464
# Slim images have no curl: node's own fetch asks the liveness probe (it checks no dependency, ADR 064).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The exec form: node is PID 1's only process, so SIGTERM reaches the server and it stops within two seconds.
CMD ["node", "scripts/start.mjs", "--no-build"]
