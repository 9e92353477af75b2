import { useEffect, type ReactNode } from 'react';
import { startAlert } from './alertSignal';

/** A full-screen prompt that sounds and vibrates while it is shown. */
export function AlertOverlay({
  tone,
  label,
  children,
}: {
  tone: 'alarm' | 'prompt';
  label: string;
  children: ReactNode;
}) {
  useEffect(() => startAlert(), []);
  return (
    <div className={`overlay overlay--${tone}`} role="alertdialog" aria-modal="true" aria-label={label}>
      {children}
    </div>
  );
}
