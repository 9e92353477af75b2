import { act, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useToast } from './ToastContext';

function ToastOnMount({ text }: { text: string }) {
  const message = useToast();
  useEffect(() => {
    void message.success(text);
  }, [message, text]);
  return null;
}

describe('toasts', () => {
  it('a toast asked for before antd’s toasts have loaded shows once they have, in the live region', async () => {
    renderWithProviders(<ToastOnMount text="Saved the channel" />);
    const toast = await screen.findByText('Saved the channel', undefined, { timeout: 15_000 });
    expect(toast.closest('[role="status"]')).toBeTruthy();
  });

  it('closing a queued toast before it could show keeps it from showing', async () => {
    function CloseAtOnce() {
      const message = useToast();
      useEffect(() => {
        const close = message.error('Never shown');
        close();
        void message.info('Shown after');
      }, [message]);
      return null;
    }
    renderWithProviders(<CloseAtOnce />);
    await screen.findByText('Shown after', undefined, { timeout: 15_000 });
    await act(() => Promise.resolve());
    expect(screen.queryByText('Never shown')).toBeNull();
  });
});
