import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { ROUTES } from './routes.ts';
import type { AppRoute } from './route-types.ts';
import { useGateContext } from './useGateContext.ts';
import { useSelectedCustomer } from './selection/useCustomerContext.ts';
import { PageLoading, useDocumentTitle } from '../common/Page.tsx';
import { FeatureDisabledPage, NoAccessPage, NotAvailablePage, NotFoundPage } from '../common/StatusPages.tsx';

/** The route table of spec 001 §2.1; anything else is the not-found page. */
export function AppRouter() {
  return (
    <Switch>
      {ROUTES.map((route) => (
        <Route key={route.path} path={route.path}>
          {(params) => <RoutedPage route={route} params={params} />}
        </Route>
      ))}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

/** Checks the route's gate and the customer's feature, then shows the screen (or its placeholder). */
function RoutedPage({ route, params }: { route: AppRoute; params: Record<string, string | undefined> }) {
  useDocumentTitle(route.title);
  const { ctx, ready } = useGateContext();
  const { selected } = useSelectedCustomer();

  // Gates may read the customer's flags: decide only once they are known, so no "no access" flashes.
  if (!ready) return <PageLoading />;
  if (!route.gate(ctx)) return <NoAccessPage title={route.title} />;
  if (route.feature && !route.feature.on(ctx)) {
    return <FeatureDisabledPage title={route.title} text={route.feature.disabledText(selected?.name ?? '')} />;
  }
  if (!route.page) return <NotAvailablePage title={route.title} />;
  const Screen = route.page;
  return (
    <Suspense fallback={<PageLoading />}>
      <Screen route={route} params={params} />
    </Suspense>
  );
}
