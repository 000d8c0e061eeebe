import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { FxRatesLoaded, FxRatesUpload } from '@cc/shared/schemas/billing.ts';
import { parseRatesCsv } from '@cc/shared/billing/fx-csv.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { errors } from '../../errors.ts';

/**
 * Admin: load a rates CSV (the same file `npm run fx-rates -- --file` loads) as source 'csv'. Rates serve every
 * customer, so the route has no tenant; a bad file is refused whole with its first problem's line. Afterwards every
 * cached chart is dropped (any converted figure may change).
 */
const fxRates: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v2/billing/fx-rates',
    {
      bodyLimit: 25 * 1024 * 1024,
      config: { permission: 'admin', tenant: 'none' },
      schema: { tags: ['billing'], summary: 'Load exchange rates from a rates CSV (admin)', body: FxRatesUpload, response: withErrors({ 200: FxRatesLoaded }) },
    },
    async (req) => {
      const parsed = parseRatesCsv(req.body.csv);
      if (parsed.errors.length > 0) {
        const e = parsed.errors[0];
        throw new errors.badRequest(`csv line ${e.line}: ${e.reason}${parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more problems)` : ''}`);
      }
      const saved = await saveRates(app.pg, 'csv', parsed.rates);
      await chartCache(app.producers.redis, app.config.QUEUE_PREFIX, app.log).invalidateRates().catch((err: unknown) => app.log.warn({ err }, 'billing cache not invalidated'));
      const dates = parsed.rates.map((r) => r.rate_date).sort();
      return { saved, currencies: [...new Set(parsed.rates.map((r) => r.currency))].sort(), first_date: dates[0], last_date: dates.at(-1)! };
    },
  );
};
export default fxRates;
