import fp from 'fastify-plugin';
import { FEATURE_GATES } from '../../route-policy.ts';
import { errors } from '../../errors.ts';

/**
 * The feature guard: a route that declares `config.feature` only proceeds for a customer whose flag is on
 * (spec 000 §6). It runs after validation and after the tenant guard admitted the customer, where the handlers
 * checked it before, so a refused request answers as it always did: invalid input first, then the flag.
 */
export default fp(
  async (app) => {
    app.addHook('preHandler', async (req) => {
      const flag = req.routeOptions.config.feature;
      // No customer admitted: a route whose tenant rule resolved none (route-registry refuses a gated 'none').
      if (!flag || flag === 'none' || req.customerId === null) return;
      const gate = FEATURE_GATES[flag];
      if (gate.adminsExempt && req.auth?.admin) return;
      const customer = req.customer;
      if (!customer[flag]) throw new errors.forbidden(gate.refusal(customer));
    });
  },
  { name: 'feature-guard', dependencies: ['tenant-guard'] },
);
