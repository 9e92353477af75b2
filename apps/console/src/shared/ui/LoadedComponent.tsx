import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

export interface LoadedComponentProps {
  /** Loads the component (memoised by the caller, so a remount does not load it again). */
  load: () => Promise<ComponentType>;
  /** Shown until it is loaded. */
  fallback: ReactNode;
}

type Loading = { Loaded: ComponentType } | { error: unknown } | undefined;

/**
 * A component whose code loads on first render, as with React.lazy, but shown by a state update
 * rather than a Suspense retry: React 19 holds a retried boundary's content back until 300 ms
 * after its fallback appeared, and the signed-in screens' fallback appears at the very first
 * render, so they (and the live map after them) came up to 0.13 s after their code
 * (docs/benchmarks.md). A failed load is thrown to the nearest error boundary; rendering this
 * afresh loads again.
 */
export function LoadedComponent({ load, fallback }: LoadedComponentProps) {
  // Started while rendering, as React.lazy starts its factory: not one commit later.
  const [loading] = useState(load);
  const [state, setState] = useState<Loading>();
  useEffect(() => {
    let live = true;
    loading.then(
      (Loaded) => live && setState({ Loaded }),
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
