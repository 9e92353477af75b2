import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { useEffect } from 'react';
import { AntdConfig } from './AntdConfig';

export interface ToastHolderProps {
  /** Where the toasts are drawn: ToastProvider's live region. */
  container: () => HTMLElement;
  /** Called with antd's toast API once the holder is mounted (calls made before it are queued). */
  onReady: (api: MessageInstance) => void;
}

/** antd's toasts, bound to the theme and locale; loaded by ToastProvider on first use. */
export default function ToastHolder({ container, onReady }: ToastHolderProps) {
  const [api, holder] = message.useMessage({ maxCount: 3, getContainer: container });
  useEffect(() => onReady(api), [api, onReady]);
  // The login page has no antd theme around it; the holder brings its own (toasts carry translated
  // texts only, so no antd locale).
  return <AntdConfig>{holder}</AntdConfig>;
}
