/**
 * Phones, second part: no route scrolls sideways at 390 px for the customer and the read-only viewer (the menu, the
 * graph and the admin's tour are in phone.test.ts; the customer without a billing account in phone-no-billing.test.ts).
 */
import t from 'tap';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { billProjects } from '../inventory-fixtures.ts';
import { startProduct } from './harness.ts';
import { TOUR_USERS, tourPaths } from './tour.ts';
import { phoneTour } from './phone-tour.ts';

t.test('phones, the other users', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  // an inventory, so the graph is drawn on a phone too
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp');
  const paths = await tourPaths(pool, { raiseTicket: true });
  for (const email of TOUR_USERS.slice(1, 3)) await phoneTour(t, browser, base, paths, email);
});
