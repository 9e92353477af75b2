import { Limits } from '@intercom/contract';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../i18n/translateMessage';
import type { ApiError } from '../shared/api/ApiError';
import { onApiEvent } from '../shared/api/apiEvents';
import { markSessionEnded } from '../shared/api/sessionState';
import { useToast } from '../shared/ui/ToastContext';

const TOAST_SECONDS = Limits.toastDurationMs / 1000;

/** Loaded the first time a session ends: the login page never pays for the dialog. */
const ReloginDialog = lazy(() => import('./ReloginDialog'));

/**
 * Shows what the API client reports: connection toasts (5 s), "query error" toasts, and the one
 * re-login dialog for an ended session (SPEC.md sections 4 and 8).
 */
export function ApiEventBridge() {
  const message = useToast();
  const { t, i18n } = useTranslation();
  const [ended, setEnded] = useState<ApiError | null>(null);

  useEffect(() => {
    const text = (error: ApiError) => translateMessage(i18n, error.key, error.params);
    return onApiEvent((event) => {
      if (event.type === 'session') {
        markSessionEnded();
        // Only one dialog at a time: later failures while it is open change nothing.
        setEnded((open) => open ?? event.error);
      } else if (event.type === 'connection') {
        message.open({ type: 'error', key: event.error.key, content: text(event.error), duration: TOAST_SECONDS });
      } else {
        message.open({
          type: 'error',
          content: t('common.query_error', { message: text(event.error) }),
          duration: TOAST_SECONDS,
        });
      }
    });
  }, [message, t, i18n]);

  if (!ended) return null;
  return (
    <Suspense fallback={null}>
      <ReloginDialog text={translateMessage(i18n, ended.key, ended.params)} onCancel={() => setEnded(null)} />
    </Suspense>
  );
}
