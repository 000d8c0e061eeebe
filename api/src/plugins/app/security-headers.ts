import fp from 'fastify-plugin';

/**
 * Headers every answer carries, so a deployment is safe without a proxy adding them: no MIME sniffing,
 * no framing by other sites (clickjacking of the sign-in and admin screens), no full URLs (invitation
 * tokens) leaked as Referer, and HSTS when the product is served over https. No script policy here: the
 * OIDC callback page and the API docs run inline scripts; a proxy may add one.
 */
/**
 * The built-in System Health dashboard is the System Health screen's iframe (spec 000 §2): our own pages may frame
 * it, other sites still may not.
 */
const SAME_ORIGIN_FRAMES = /^\/systemhealth\/kiosk\//;

export default fp(
  async (app) => {
    const https = app.config.PUBLIC_URL.startsWith('https:');
    app.addHook('onSend', async (req, reply) => {
      const ownFrame = SAME_ORIGIN_FRAMES.test(req.url);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', ownFrame ? 'SAMEORIGIN' : 'DENY');
      const frames = ownFrame ? "frame-ancestors 'self'" : "frame-ancestors 'none'";
      // A route's own policy (a playbook document's sandbox) is kept, with the framing rule added to it.
      const own = reply.getHeader('content-security-policy');
      reply.header('content-security-policy', typeof own === 'string' && own ? `${own}; ${frames}` : frames);
      reply.header('referrer-policy', 'same-origin');
      if (https) reply.header('strict-transport-security', 'max-age=31536000');
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
