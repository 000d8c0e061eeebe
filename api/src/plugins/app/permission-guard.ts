import fp from 'fastify-plugin';
import { hasPermission } from '@cc/shared/permissions.ts';
import { errors } from '../../errors.ts';

/**
 * The permission guard: before anything else is read, the caller must be signed in (unless the route
 * is public) and hold the route's declared permission.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (req) => {
      const permission = req.routeOptions.config.permission;
      if (req.is404) return;
      // route-registry refuses to start with such a route; should one slip past it, it is closed, not open.
      if (!permission) throw new errors.forbidden('This route declares no permission');
      if (permission === 'public') return;
      const user = await app.authenticate(req);
      if (permission === 'authenticated') return;
      if (permission === 'admin') {
        if (!user.admin) throw new errors.forbidden('Admin only');
        return;
      }
      if (!user.role) throw new errors.forbidden('Your user account is being initialised');
      if (!hasPermission(user.perms, permission)) throw new errors.forbidden(`Permission ${permission} required`);
    });
  },
  { name: 'permission-guard', dependencies: ['auth', 'route-registry'] },
);
