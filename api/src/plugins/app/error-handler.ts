import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { redactParams, redactUrl } from '../../log-redaction.ts';
import { isUnavailableError, unavailableDetail } from '@cc/shared/unavailable.ts';

/**
 * One error handler: every error body is exactly `{ detail }`. 4xx sends the message (validation
 * messages name the part and property, e.g. "body must have required property 'email'");
 * 5xx sends a generic text and logs the error with the request, unless the error says it may be shown
 * (`expose`, e.g. an upstream Google or Jira refusal answered as 502): that message helps the user, hides nothing.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError, req, reply) => {
      // Redis restarting, a database connection cut, a database refusing connections or writes for now: the client
      // may retry, it is not a bug here.
      if (!(err.statusCode && err.statusCode < 500) && isUnavailableError(err)) {
        req.log.warn({ err: err.message, code: (err as { code?: unknown }).code, method: req.method, url: redactUrl(req.url) }, 'dependency unavailable');
        return reply.code(503).header('retry-after', '5').send({ detail: unavailableDetail(err) });
      }
      const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
      if (status >= 500) {
        req.log.error({ err, method: req.method, url: redactUrl(req.url), params: redactParams(req.params) }, 'request failed');
        const exposed = (err as { expose?: unknown }).expose === true;
        return reply.code(status).send({ detail: exposed ? err.message : 'Internal Server Error' });
      }
      const retryAfter = (err as { headers?: Record<string, string> }).headers?.['retry-after'];
      if (status === 429 && retryAfter) reply.header('retry-after', retryAfter);
      return reply.code(status).send({ detail: err.message });
    });
  },
  { name: 'error-handler' },
);
