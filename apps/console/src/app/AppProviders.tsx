import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../shared/api/queryClient';
import { ToastProvider } from '../shared/ui/ToastContext';
import { PreferencesProvider } from './PreferencesContext';

/**
 * Query cache, stored preferences and the toasts. No antd here: the login page loads none, and
 * antd's theme (AntdTheme) wraps what loads after it.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <ToastProvider>{children}</ToastProvider>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
