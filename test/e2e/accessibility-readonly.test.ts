/**
 * Accessibility, second half: every route as the read-only viewer and as the customer without a billing account,
 * scanned with axe-core (see axe.ts); the admin, a customer and the keyboard are in accessibility.test.ts.
 */
import t from 'tap';
import { startProduct } from './harness.ts';
import { TOUR_USERS, tourPaths } from './tour.ts';
import { scanAsUser } from './axe.ts';

t.test('accessibility, read-only and without billing', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const paths = await tourPaths(app.env.pool);
  for (const email of TOUR_USERS.slice(2)) await scanAsUser(t, browser, base, paths, email);
});
