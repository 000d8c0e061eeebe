import { createElement, lazy, useEffect, useState, type ComponentType, type ReactElement } from 'react';
import { PageLoading } from '../common/Page.tsx';

/** A page fetched when first shown, as with React.lazy, which can be fetched earlier and then renders at once. */
export interface LazyPage<P extends object> {
  (props: P): ReactElement;
  /** Fetches the page's code now (once; a failed fetch may be retried). */
  preload(): Promise<ComponentType<P>>;
}

/**
 * React.lazy suspends on a page's first render even when its code has already arrived (it awaits the import's
 * promise), and React 19 then keeps the Suspense fallback on screen until 300 ms after it was first shown, so
 * content does not flash: the billing home drew its chart ~250 ms after everything it needed was there (a trace of
 * a warm load: a 267 ms timer, then the chart). A page whose code was preloaded (app/preload.ts) renders directly;
 * one whose preload is still on its way shows the loading state without suspending and renders as soon as the code
 * is there (a later trace: the session answered before the page's chunk had run, and the throttle cost 204 ms);
 * a page nobody preloaded goes through React.lazy as before.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (page) => (loaded = page),
      (err: unknown) => {
        loading = null;
        throw err;
      },
    ));
  const Lazy = lazy(() => preload().then((page) => ({ default: page })));
  function Page(props: P): ReactElement {
    // Chosen per mount: turning the lazy element into the loaded one later would remount the page.
    const [page, setPage] = useState<{ component: ComponentType<P> } | 'waiting' | 'lazy'>(() =>
      loaded ? { component: loaded } : loading ? 'waiting' : 'lazy',
    );
    useEffect(() => {
      if (page !== 'waiting') return;
      let live = true;
      // A failed preload falls back to React.lazy, which fetches again.
      preload().then(
        (component) => live && setPage({ component }),
        () => live && setPage('lazy'),
      );
      return () => {
        live = false;
      };
    }, [page]);
    if (page === 'waiting') return createElement(PageLoading);
    return createElement((page === 'lazy' ? Lazy : page.component) as ComponentType<P>, props);
  }
  return Object.assign(Page, { preload });
}
