import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { isApiError } from '../../shared/api/ApiError';
import { clearTokens } from '../../shared/storage/tokenStore';
import { loginPathFor } from '../../shared/routing/redirects';
import { useToast } from '../../shared/ui/ToastContext';

/**
 * The account could not be loaded. A server answer means the token is no good: clear it, say
 * "Verification failed, please Login again" and go to /login (SPEC.md 4 and 8). A connection
 * failure keeps the token and offers a retry instead of throwing the session away.
 */
export function SessionFailure({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const location = useLocation();
  const connection = isApiError(error) && error.connectionFailed;

  useEffect(() => {
    if (connection) return;
    clearTokens();
    message.error({ content: t('session.verify_failed'), key: 'verify-failed', duration: 5 });
  }, [connection, message, t]);

  if (!connection) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  return (
    <Result
      status="warning"
      title={t('error.network')}
      extra={
        <Button type="primary" onClick={retry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
