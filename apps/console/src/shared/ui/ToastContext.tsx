import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { createContext, useContext, type ReactNode } from 'react';

const ToastContext = createContext<MessageInstance | null>(null);

/**
 * antd's toasts, bound to the theme and locale. (antd's `App` would also bring modal and
 * notification into the first chunk; the login page needs neither.)
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [api, holder] = message.useMessage({ maxCount: 3 });
  return (
    <ToastContext value={api}>
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
