import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { IncomingMessage } from 'node:http';

/**
 * Headers every answer carries (issue 12), set by @fastify/helmet so a deployment is safe without a proxy adding
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

const urlOf = (req: IncomingMessage) => req.url ?? '';

export default fp(
  async (app) => {
    const https = app.config.PUBLIC_URL.startsWith('https:');
    const connect = ["'self'"];
    if (app.config.ATTACHMENT_STORE === 'gcs') connect.push(new URL(app.config.ATTACHMENT_GCS_ENDPOINT).origin);
    const frames = ["'self'", 'https:', ...(https ? [] : ['http:'])];

    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'base-uri': ["'self'"],
          'object-src': ["'none'"],
          'script-src': ["'self'"],
          // One value per request (helmet joins the items with spaces, an empty one would leave a stray blank).
          'style-src': [(req) => `'self' 'unsafe-inline'${BULL_BOARD.test(urlOf(req as IncomingMessage)) ? ` ${GOOGLE_FONTS_CSS}` : ''}`],
          'font-src': [(req) => `'self' data:${BULL_BOARD.test(urlOf(req as IncomingMessage)) ? ` ${GOOGLE_FONTS}` : ''}`],
          'img-src': ["'self'", 'data:', 'blob:'],
          'connect-src': connect,
          'frame-src': frames,
          'worker-src': ["'self'", 'blob:'],
          'form-action': ["'self'"],
          'frame-ancestors': [(req) => (SAME_ORIGIN_FRAMES.test(urlOf(req as IncomingMessage)) ? "'self'" : "'none'")],
          ...(https ? { 'upgrade-insecure-requests': [] } : {}),
        },
      },
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
