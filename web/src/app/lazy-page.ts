import { createElement, lazy, useState, type ComponentType, type ReactElement } from 'react';

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
 * otherwise it goes through React.lazy as before.
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
    // Chosen once per mount: turning the lazy element into the loaded one later would remount the page.
    const [ready] = useState(() => loaded);
    return createElement((ready ?? Lazy) as ComponentType<P>, props);
  }
  return Object.assign(Page, { preload });
}
