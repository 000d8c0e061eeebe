import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * Headers every answer carries, set by @fastify/helmet so a deployment is safe without a proxy adding
 * them: a content security policy allowing exactly what the product loads, no framing by other sites
 * (`frame-ancestors 'none'` and X-Frame-Options DENY: clickjacking of the sign-in and admin screens), no MIME
 * sniffing, no full URLs (invitation tokens) leaked as Referer, HSTS when served over https.
 *
 * What the pages load, and so what the policy allows (checked against the built web app, /docs and /ops/queues):
 * - scripts: only our own files (the Vite bundle, Swagger UI, bull-board). No inline script runs; the social
 *   sign-in callback page allows its one script by hash (routes/auth/oidc.ts).
 * - styles: our own files and inline styles: Primer, Plotly and bull-board insert `<style>` elements at run time.
 *   bull-board also loads its fonts from Google Fonts.
 * - images: our own, data: and blob: (Plotly's and Swagger UI's icons, chart downloads).
 * - connections: our own api; with ATTACHMENT_STORE=gcs also the Cloud Storage endpoint the browser uploads to.
 * - frames: the System Health iframe shows our own kiosk page or the customer's external dashboard link, which an
 *   administrator may set to any http(s) address (spec 001 §2.4), so https: (and http: when we are served over http).
 */
const SAME_ORIGIN_FRAMES = /^\/systemhealth\/kiosk\//;
const BULL_BOARD = /^\/ops\/queues(\/|$)/;
const GOOGLE_FONTS_CSS = 'https://fonts.googleapis.com';
const GOOGLE_FONTS = 'https://fonts.gstatic.com';

export default fp(
  async (app) => {
    const https = app.config.PUBLIC_URL.startsWith('https:');
    const connect = ["'self'"];
    if (app.config.ATTACHMENT_STORE === 'gcs') connect.push(new URL(app.config.ATTACHMENT_GCS_ENDPOINT).origin);
    const frames = ["'self'", 'https:', ...(https ? [] : ['http:'])];

    // The policy is written once per kind of page, not by helmet per request: with per-request directives helmet
    // rebuilt and re-validated the whole header on every answer (~3 % of a cached chart's time).
    const policy = (page: 'app' | 'board' | 'kiosk') =>
      Object.entries({
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'", ...(page === 'board' ? [GOOGLE_FONTS_CSS] : [])],
        'font-src': ["'self'", 'data:', ...(page === 'board' ? [GOOGLE_FONTS] : [])],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': connect,
        'frame-src': frames,
        'worker-src': ["'self'", 'blob:'],
        'form-action': ["'self'"],
        'frame-ancestors': [page === 'kiosk' ? "'self'" : "'none'"],
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      })
        .map(([name, values]) => [name, ...values].join(' '))
        .join(';');
    const policies = { app: policy('app'), board: policy('board'), kiosk: policy('kiosk') };
    app.addHook('onRequest', async (req, reply) => {
      const url = req.url;
      reply.header('content-security-policy', BULL_BOARD.test(url) ? policies.board : SAME_ORIGIN_FRAMES.test(url) ? policies.kiosk : policies.app);
    });

    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      // Not includeSubDomains: other hosts of the domain may not serve https; an operator can widen it at the proxy.
      strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: false } : false,
      // The social sign-in popup answers its opener with postMessage: the opener keeps its popups.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      crossOriginEmbedderPolicy: false,
    });

    app.addHook('onSend', async (req, reply) => {
      if (SAME_ORIGIN_FRAMES.test(req.url)) reply.header('x-frame-options', 'SAMEORIGIN');
      // A route's own policy (a playbook document's sandbox) replaces helmet's: the framing rule is added back to it.
      const own = reply.getHeader('content-security-policy');
      if (typeof own === 'string' && !own.includes('frame-ancestors')) reply.header('content-security-policy', `${own}; frame-ancestors 'none'`);
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
