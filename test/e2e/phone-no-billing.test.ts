/**
 * Phones, third part: no route scrolls sideways at 390 px for the customer whose customer has no billing account
 * (the other users are in phone.test.ts and phone-users.test.ts).
 */
import t from 'tap';
import { startProduct } from './harness.ts';
import { TOUR_USERS, tourPaths } from './tour.ts';
import { phoneTour } from './phone-tour.ts';

t.test('phones, the customer without a billing account', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const paths = await tourPaths(app.env.pool, { raiseTicket: true });
  await phoneTour(t, browser, base, paths, TOUR_USERS[3]);
});
