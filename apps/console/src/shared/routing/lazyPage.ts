import { createElement, lazy, useState, type ComponentType, type FunctionComponent } from 'react';

/** A route's page whose code loads on first use, or earlier through `preload`. */
export type LazyPage = FunctionComponent & {
  /** Starts loading the page's code (once); resolves when it is here. */
  preload(): Promise<void>;
};

/**
 * Like React.lazy, but a page whose code was preloaded renders at once instead of suspending.
 * React 19 holds back the content of a suspended boundary until 300 ms after its fallback
 * appeared, so a page that suspends even for a chunk already here shows up to 0.3 s later: the
 * live map's first frame waited for that (docs/benchmarks.md).
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        // A later visit tries again (a chunk that failed over a flaky network).
        loading = undefined;
        throw error;
      },
    ));
  const Suspending = lazy(() => preload().then(() => ({ default: loaded! })));
  function Page() {
    // Chosen once per mount: the element type under the route never changes while it is shown.
    const [type] = useState<ComponentType>(() => loaded ?? Suspending);
    return createElement(type);
  }
  return Object.assign(Page, { preload });
}
