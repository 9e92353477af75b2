import { MessageKeys } from '@intercom/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/translateMessage';
import { isApiError } from './ApiError';

/** Turns any thrown error into the text to show: the server's message translated, else "failed". */
export function useErrorMessage(): (error: unknown) => string {
  const { i18n } = useTranslation();
  return useCallback(
    (error: unknown) =>
      isApiError(error) ? translateMessage(i18n, error.key, error.params) : translateMessage(i18n, MessageKeys.failed),
    [i18n],
  );
}
