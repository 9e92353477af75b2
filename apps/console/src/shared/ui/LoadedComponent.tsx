import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

export interface LoadedComponentProps {
  /** Loads the component (memoised by the caller, so a remount does not load it again). */
  load: () => Promise<ComponentType>;
  /** Shown until it is loaded. */
  fallback: ReactNode;
}

type Loading = { Loaded: ComponentType } | { error: unknown } | undefined;

/** Components whose load has succeeded, by the promise `load` gave: a remount shows them at once. */
const loaded = new WeakMap<Promise<ComponentType>, ComponentType>();

/**
 * A component whose code loads on first render, as with React.lazy, but shown by a state update
 * rather than a Suspense retry: React 19 holds a retried boundary's content back until 300 ms
 * after its fallback appeared, and the signed-in screens' fallback appears at the very first
 * render, so they (and the live map after them) came up to 0.13 s after their code
 * (docs/benchmarks.md). Mounted again after its code has loaded (signed out and in again), it
 * shows the component at once. A failed load is thrown to the nearest error boundary; rendering
 * this afresh loads again.
 */
export function LoadedComponent({ load, fallback }: LoadedComponentProps) {
  // Started while rendering, as React.lazy starts its factory: not one commit later.
  const [loading] = useState(load);
  const [state, setState] = useState<Loading>(() => {
    const Loaded = loaded.get(loading);
    return Loaded && { Loaded };
  });
  useEffect(() => {
    let live = true;
    loading.then(
      (Loaded) => {
        loaded.set(loading, Loaded);
        if (live) setState((now) => (now && 'Loaded' in now && now.Loaded === Loaded ? now : { Loaded }));
      },
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [loading]);
  if (!state) return fallback;
  if ('error' in state) throw state.error;
  return <state.Loaded />;
}
