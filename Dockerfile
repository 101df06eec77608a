# The sandbox as a container: `docker run -p 8443:8443 IMAGE` serves the default seed over HTTPS.
# NODE_IMAGE: any Node 20+ image with npm; CI builds with a base made locally (scripts/base-image.sh)
# because no image registry is reachable there.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
# The builder's own npm registry and CA bundle, when `npm run image` found any (.image-build/):
# this stage is thrown away, so neither reaches the image.
RUN if [ -f .image-build/registry ]; then export npm_config_registry="$(cat .image-build/registry)"; fi; \
    if [ -f .image-build/ca.pem ]; then export NODE_EXTRA_CA_CERTS=/app/.image-build/ca.pem; fi; \
    npm ci --no-audit --no-fund --ignore-scripts \
    && npm run build \
    && npm prune --omit=dev --no-audit --no-fund --ignore-scripts \
    && rm -rf .image-build

FROM ${NODE_IMAGE}
ARG VERSION=0.0.0
LABEL org.opencontainers.image.title="fake-marketing-server" \
      org.opencontainers.image.description="An in-memory, faithful fake of an email platform's Marketing API" \
      org.opencontainers.image.source="https://github.com/fake-marketing-server/fake-marketing-server" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT"
WORKDIR /app
COPY --from=build /app/package.json /app/seed.schema.json /app/openapi.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/fixtures ./fixtures
# Every interface, as a container must; without FMS_ADMIN_TOKEN the control API answers only
# clients inside the container (or on the host with --network host). See docs/container.md.
ENV NODE_ENV=production \
    FMS_HOST=0.0.0.0 \
    FMS_PORT=8443 \
    FMS_LOCAL_CONTROL_ONLY=true
USER node
EXPOSE 8443
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=1s --timeout=2s --start-period=30s --retries=3 CMD ["node", "dist/healthcheck.js"]
ENTRYPOINT ["node", "dist/cli.js"]
