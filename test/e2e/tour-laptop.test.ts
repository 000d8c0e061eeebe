/**
 * Every route of the specification at 1440 px (a laptop) as the admin, who reaches them all: none scrolls sideways,
 * each pictured as test-results/screenshots/tour-admin-<route>-1440.png (390 px is in the phone files).
 */
import t from 'tap';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { billProjects } from '../inventory-fixtures.ts';
import { startProduct } from './harness.ts';
import { TOUR_USERS, tourPaths } from './tour.ts';
import { phoneTour, SCREENS } from './phone-tour.ts';

t.test('every route on a laptop', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  // an inventory, so the graph is drawn
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp');
  const paths = await tourPaths(pool, { raiseTicket: true });
  await phoneTour(t, browser, base, paths, TOUR_USERS[0], [SCREENS.laptop]);
});
