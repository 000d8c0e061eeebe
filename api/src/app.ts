import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Config } from '@cc/shared/config.ts';
import { oidcIssuer } from '@cc/shared/config.ts';
import configPlugin from './plugins/external/config.ts';
import pgPlugin from './plugins/external/pg.ts';
import queuesPlugin from './plugins/external/queues.ts';
import errorHandler from './plugins/app/error-handler.ts';
import inputPolicy, { frameworkErrors } from './plugins/app/input-policy.ts';
import securityHeaders from './plugins/app/security-headers.ts';
import accessCache from './plugins/app/access-cache.ts';
import authPlugin from './plugins/app/auth.ts';
import throttlePlugin from './plugins/app/throttle.ts';
import routeRegistry from './plugins/app/route-registry.ts';
import permissionGuard from './plugins/app/permission-guard.ts';
import tenantGuard from './plugins/app/tenant-guard.ts';
import featureGuard from './plugins/app/feature-guard.ts';
import passwordsPlugin from './plugins/app/passwords.ts';
import userEventsPlugin from './plugins/app/user-events.ts';
import metricsPlugin from './plugins/app/metrics.ts';
import swaggerPlugin from './plugins/app/swagger.ts';
import bullBoardPlugin from './plugins/app/bull-board.ts';
import staticWeb from './plugins/app/static-web.ts';
import { localOidcProvider } from './oidc/local-provider.ts';
import { withGeneratedSecrets } from './secrets.ts';
import { redactUrl } from './log-redaction.ts';
import healthRoutes from './routes/health.ts';
import authRoutes from './routes/auth/index.ts';
import oidcRoutes, { OIDC_CALLBACK_PATH } from './routes/auth/oidc.ts';
import customerRoutes from './routes/customers/index.ts';
import logRoutes from './routes/logs/index.ts';
import mailRoutes from './routes/ops/mail.ts';
import billingRoutes from './routes/billing/index.ts';
import anomalyRoutes from './routes/anomalies/index.ts';
import alertRoutes from './routes/alerts/index.ts';
import viewerRoutes from './routes/viewers/index.ts';
import ticketRoutes from './routes/tickets/index.ts';
import entityRoutes from './routes/entities/index.ts';
import userRoutes from './routes/users/index.ts';
import invitationRoutes from './routes/invitations/index.ts';
import monitoringRoutes from './routes/monitoring/index.ts';
import provisioningRoutes from './routes/provisioning/index.ts';
import inventoryRoutes from './routes/inventory/index.ts';
import licenseRoutes from './routes/licenses/index.ts';
import playbookRoutes from './routes/playbook/index.ts';
import operationsRoutes from './routes/operations/index.ts';
import channelRoutes from './routes/channels/index.ts';
import { operationsInboxPlugin } from './operations/inbox.ts';

/**
 * Fastify's two info lines per request (and one per unknown route) bury start-up messages, warnings and errors
 * in `make start`'s terminal. One short debug line per finished request keeps them a `LOG_LEVEL=debug` away;
 * a request that failed while sending still logs at error.
 */
class QuietRequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const line = { method: req.method, url: redactUrl(req.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.debug(line, 'request completed');
  }
  override routeNotFound(req: FastifyRequest): void {
    req.log.debug({ method: req.method, url: redactUrl(req.url) }, 'route not found');
  }
}

/** Builds the api; `main.ts` listens, tests use `inject()`. */
export async function buildApp(given: Config, opts: { logger?: boolean; logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const config = withGeneratedSecrets(given);
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            // A logged request never shows a token from its URL (invitation links, the sign-in callback's code).
            serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), id: req.id }) },
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          },
    logController: new QuietRequestLog(),
    genReqId: (req) => (req.headers['x-request-id'] as string | undefined) ?? randomUUID(),
    requestIdHeader: 'x-request-id',
    ajv: { customOptions: { removeAdditional: 'all', coerceTypes: 'array', useDefaults: true } },
    // Only the configured proxies' X-Forwarded-For is believed: anyone else could pick their own address and dodge
    // the sign-in lockout.
    trustProxy: config.TRUST_PROXY.length ? config.TRUST_PROXY : false,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // external: config, stores, queues
  await app.register(configPlugin, { config });
  await app.register(pgPlugin);
  await app.register(queuesPlugin);
  // app: cross-cutting concerns, registered before any route so every route passes through them
  await app.register(errorHandler);
  await app.register(inputPolicy);
  await app.register(securityHeaders);
  await app.register(accessCache);
  await app.register(authPlugin);
  await app.register(throttlePlugin);
  await app.register(routeRegistry);
  await app.register(permissionGuard);
  await app.register(tenantGuard);
  await app.register(featureGuard);
  await app.register(passwordsPlugin);
  await app.register(userEventsPlugin);
  await app.register(swaggerPlugin);
  await app.register(metricsPlugin);
  await app.register(bullBoardPlugin);
  await app.register(operationsInboxPlugin);
  // routes
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(oidcRoutes);
  await app.register(customerRoutes);
  await app.register(logRoutes);
  await app.register(mailRoutes);
  await app.register(billingRoutes);
  await app.register(anomalyRoutes);
  await app.register(alertRoutes);
  await app.register(viewerRoutes);
  await app.register(ticketRoutes);
  await app.register(entityRoutes);
  await app.register(userRoutes);
  await app.register(invitationRoutes);
  await app.register(monitoringRoutes);
  await app.register(provisioningRoutes);
  await app.register(inventoryRoutes);
  await app.register(licenseRoutes);
  await app.register(playbookRoutes);
  await app.register(operationsRoutes);
  await app.register(channelRoutes);
  if (config.OIDC === 'local') {
    await app.register(localOidcProvider, {
      prefix: '/oidc',
      issuer: oidcIssuer(config),
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      redirectUris: [`${config.PUBLIC_URL}${OIDC_CALLBACK_PATH}`],
    });
  }
  await app.register(staticWeb);
  return app;
}
