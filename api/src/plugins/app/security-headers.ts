import fp from 'fastify-plugin';

/**
 * Headers every answer carries, so a deployment is safe without a proxy adding them: no MIME sniffing,
 * no framing by other sites (clickjacking of the sign-in and admin screens), no full URLs (invitation
 * tokens) leaked as Referer, and HSTS when the product is served over https. No script policy here: the
 * OIDC callback page and the API docs run inline scripts; a proxy may add one.
 */
export default fp(
  async (app) => {
    const https = app.config.PUBLIC_URL.startsWith('https:');
    app.addHook('onSend', async (_req, reply) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('content-security-policy', "frame-ancestors 'none'");
      reply.header('referrer-policy', 'same-origin');
      if (https) reply.header('strict-transport-security', 'max-age=31536000');
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
