/**
 * The billing home's loading path without its waterfall. Left to itself, a reload of `/` ran one step after another:
 * the session check (POST /v1/auth/refresh), then the customer document (the route gates read its flags), then the
 * page's code (its lazy chunk, requested only once the gate could decide), then the chart and Plotly. Here, as the
 * app starts and while the session check is in flight, the customer document, the page's code and Plotly are
 * fetched side by side, and the chart request follows the document at once (features/billing/arrival.ts).
 *
 * Only with a stored session hint whose claims name the customer, and only a guess: the page still decides what it
 * shows from the confirmed claims, and asks again for anything the guess got wrong. Every request is the user's own,
 * with their cookie, checked by the api as any other (a revoked session answers 401 here as it would to the page).
 */
import type { Claims } from '@cc/shared/claims.ts';
import type { SessionHint } from '../features/session/token-storage.ts';
import { SELECTED_CUSTOMER_COOKIE, readCookie } from '../common/cookies.ts';
import { loadPlotly } from '../common/plotly-loader.ts';
import { customerApi } from './selection/customerApi.ts';
import { BillingPage } from './routes.ts';
// Static, not fetched with the page: the chart request then leaves as soon as the customer document is there, not
// once a chunk of its own has been fetched and run (a trace showed the chart sent ~140 ms after the document, while
// the main thread was rendering). About 5 KB gzipped of the home page's own code moves into the entry.
import { preloadDashboard } from '../features/billing/arrival.ts';
import type { AppStore } from './store.ts';

/** The customer the header selects on arrival (useSelectedCustomer with nothing chosen in this window yet). */
export function arrivalCustomer(claims: Claims, wish: string | null): string | null {
  if (wish && claims.customers.some((c) => c.id === wish)) return wish;
  // Past the claims' first customers a stored selection is looked up by its document (useSelectedCustomer).
  if (wish && claims.customer_count > claims.customers.length) return wish;
  return claims.customers[0]?.id ?? null;
}

/** Starts the billing home's requests and code when the app opens on `/` with a session hint; otherwise nothing. */
export function preloadLanding(store: AppStore, path: string, hint: SessionHint | null): void {
  const claims = hint?.claims;
  if (path !== '/' || !claims || claims.perms.length === 0) return;
  const customerId = arrivalCustomer(claims, readCookie(SELECTED_CUSTOMER_COOKIE));
  if (!customerId) return;
  // The route then renders the page at once (lazy-page.ts): no fetch after the gate opens, no Suspense fallback.
  void BillingPage.preload().catch(() => undefined);
  void loadPlotly().catch(() => undefined);
  const customer = store.dispatch(customerApi.endpoints.getCustomer.initiate(customerId));
  void customer
    .then((doc) => {
      if (doc.data) preloadDashboard(store.dispatch, claims, doc.data);
    })
    // A failed guess costs nothing: the page sends its own requests as before.
    .catch(() => undefined)
    .finally(() => customer.unsubscribe());
}
