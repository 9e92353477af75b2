import { MessageKeys } from '@intercom/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../ui/ToastContext';
import { wasShown } from './ApiError';
import { useErrorMessage } from './useErrorMessage';

/**
 * Runs one action of a list row (freeze, disable, recover, ...) and says how it went: "operation
 * succeeded", or the server's message. Connection failures and ended sessions were already shown
 * by the API client. Resolves to whether it worked; never rejects.
 */
export function useRunAction() {
  const { t } = useTranslation();
  const message = useToast();
  const errorMessage = useErrorMessage();
  return useCallback(
    async (action: () => Promise<unknown>, successText?: string): Promise<boolean> => {
      try {
        await action();
        message.success(successText ?? t(MessageKeys.ok));
        return true;
      } catch (error) {
        if (!wasShown(error)) {
          message.error({ content: errorMessage(error) || t(MessageKeys.failed), duration: 5 });
        }
        return false;
      }
    },
    [message, errorMessage, t],
  );
}
