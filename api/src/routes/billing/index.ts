import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import settings from './settings.ts';
import charts from './charts.ts';
import exportsRoutes from './exports.ts';
import ingest from './ingest.ts';
import fxRates from './fx-rates.ts';
import reconcile from './reconcile.ts';
import exportSources from './export-sources.ts';

/** Billing settings, charts and exports (spec 000 §7 Billing); admin ingest enqueue and rates upload. Shapes: shared/src/schemas/billing.ts. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(settings);
  await app.register(charts);
  await app.register(exportsRoutes);
  await app.register(ingest);
  await app.register(fxRates);
  await app.register(reconcile);
  await app.register(exportSources);
};
export default routes;
