import type { MessageInstance, MessageType } from 'antd/es/message/interface';
import type { ToastHolderProps } from './ToastHolder';
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';

const ToastContext = createContext<MessageInstance | null>(null);

/** Whether antd's toasts are wanted yet (a first toast, or preloadToasts): then every provider loads them. */
let wanted = false;
const wantListeners = new Set<() => void>();
const subscribeWanted = (listener: () => void) => {
  wantListeners.add(listener);
  return () => void wantListeners.delete(listener);
};
const isWanted = () => wanted;

function setWanted(value: boolean): void {
  if (wanted === value) return;
  wanted = value;
  for (const listener of wantListeners) listener();
}

/** Loads antd's toasts before the first one is needed (the signed-in screens call it). */
export function preloadToasts(): void {
  setWanted(true);
}

/**
 * antd's toasts, loaded on demand. A load that fails (the server unreachable) renders nothing and
 * is tried again at the next toast; the toasts asked for meanwhile stay queued.
 */
function loadHolder() {
  return lazy<ComponentType<ToastHolderProps>>(() =>
    import('./ToastHolder').catch(() => {
      ToastHolder = loadHolder();
      setWanted(false);
      return { default: () => null };
    }),
  );
}
let ToastHolder = loadHolder();

type Pending = (api: MessageInstance) => void;

/**
 * A stand-in for antd's toast API that works before antd's toasts have loaded: calls are queued
 * and made once they are there; what a call returns closes its toast, and resolves when it closed.
 */
function deferredToasts(state: { api?: MessageInstance; pending: Pending[] }): MessageInstance {
  const later = (call: (api: MessageInstance) => MessageType): MessageType => {
    if (state.api) return call(state.api);
    preloadToasts();
    let closed = false;
    let close: (() => void) | undefined;
    let settle: (value: boolean) => void = () => undefined;
    const done = new Promise<boolean>((resolve) => (settle = resolve));
    state.pending.push((api) => {
      if (closed) return settle(true);
      const shown = call(api);
      close = shown;
      shown.then(settle, () => settle(false));
    });
    const result = (() => {
      closed = true;
      close?.();
    }) as MessageType;
    result.then = (onDone, onFailed) => done.then(onDone, onFailed);
    return result;
  };
  return {
    open: (args) => later((api) => api.open(args)),
    info: (...args) => later((api) => api.info(...args)),
    success: (...args) => later((api) => api.success(...args)),
    error: (...args) => later((api) => api.error(...args)),
    warning: (...args) => later((api) => api.warning(...args)),
    loading: (...args) => later((api) => api.loading(...args)),
    destroy: (key) => {
      if (state.api) state.api.destroy(key);
      else if (key === undefined) state.pending.length = 0;
      else state.pending.push((api) => api.destroy(key));
    },
  };
}

/**
 * antd's toasts, bound to the theme and locale. Their code (antd's message and notification) loads
 * on the first toast or after sign-in (preloadToasts), never with the login page's first chunk;
 * toasts asked for before it arrives show once it has. (antd's `App` would also bring modal and
 * notification into the first chunk; the login page needs neither.)
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  // A live region that exists before the first toast, so screen readers announce every one.
  const region = useRef<HTMLDivElement>(null);
  const [state] = useState<{ api?: MessageInstance; pending: Pending[] }>(() => ({ pending: [] }));
  const [api] = useState(() => deferredToasts(state));
  const load = useSyncExternalStore(subscribeWanted, isWanted, isWanted);
  const [container] = useState(() => () => region.current ?? document.body);
  const [onReady] = useState(() => (real: MessageInstance) => {
    state.api = real;
    for (const call of state.pending.splice(0)) call(real);
  });
  return (
    <ToastContext value={api}>
      <div ref={region} role="status" aria-live="polite" />
      {load && (
        <Suspense fallback={null}>
          <ToastHolder container={container} onReady={onReady} />
        </Suspense>
      )}
      {children}
    </ToastContext>
  );
}

export function useToast(): MessageInstance {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast outside ToastProvider');
  return api;
}
