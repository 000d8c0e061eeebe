import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { hasPermission } from '@cc/shared/permissions.ts';
import { errors } from '../../errors.ts';
import type { AuthUser } from './auth.ts';
import type { RoutePermission } from '../../route-policy.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Re-checks a deferred request strictly (access-cache.ts `deferredEpoch`): the caller is read again against the
     * epoch Redis holds now and must still hold the route's permission. Returns the caller; throws to refuse.
     */
    confirmAccess(req: FastifyRequest): Promise<AuthUser>;
  }
}

/** Throws unless the caller holds the route's permission. */
function permit(user: AuthUser, permission: Exclude<RoutePermission, 'public'> | undefined): void {
  if (!permission) throw new errors.forbidden('This route declares no permission');
  if (permission === 'authenticated') return;
  if (permission === 'admin') {
    if (!user.admin) throw new errors.forbidden('Admin only');
    return;
  }
  if (!user.role) throw new errors.forbidden('Your user account is being initialised');
  if (!hasPermission(user.perms, permission)) throw new errors.forbidden(`Permission ${permission} required`);
}

/**
 * The permission guard: before anything else is read, the caller must be signed in (unless the route
 * is public) and hold the route's declared permission.
 */
export default fp(
  async (app) => {
    app.decorate('confirmAccess', async (req: FastifyRequest) => {
      app.access.settle(req);
      req.auth = null;
      const user = await app.authenticate(req);
      const permission = req.routeOptions.config.permission;
      if (permission !== 'public') permit(user, permission);
      return user;
    });

    app.addHook('onRequest', async (req) => {
      const permission = req.routeOptions.config.permission;
      if (req.is404) return;
      // route-registry refuses to start with such a route; should one slip past it, it is closed, not open.
      if (!permission) throw new errors.forbidden('This route declares no permission');
      if (permission === 'public') return;
      const user = await app.authenticate(req);
      try {
        permit(user, permission);
      } catch (err) {
        // Admitted against the last epoch seen: a refusal is only given on the current one (a grant may be new).
        if (!app.access.isDeferred(req)) throw err;
        await app.confirmAccess(req);
      }
    });
  },
  { name: 'permission-guard', dependencies: ['auth', 'route-registry'] },
);
