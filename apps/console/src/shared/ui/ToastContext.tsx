import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { createContext, useContext, useRef, type ReactNode } from 'react';

const ToastContext = createContext<MessageInstance | null>(null);

/**
 * antd's toasts, bound to the theme and locale. (antd's `App` would also bring modal and
 * notification into the first chunk; the login page needs neither.)
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  // A live region that exists before the first toast, so screen readers announce every one.
  const region = useRef<HTMLDivElement>(null);
  const [api, holder] = message.useMessage({ maxCount: 3, getContainer: () => region.current ?? document.body });
  return (
    <ToastContext value={api}>
      <div ref={region} role="status" aria-live="polite" />
      {holder}
      {children}
    </ToastContext>
  );
}

export function useToast(): MessageInstance {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast outside ToastProvider');
  return api;
}
