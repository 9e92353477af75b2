import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearTokens } from '../../shared/storage/tokenStore';

/** The guard's own failure (GuardBoundary): "Has Error", try again or log in afresh. */
export function GuardError({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('session.guard_error')}
      subTitle={t('session.guard_error_hint')}
      extra={[
        <Button key="retry" type="primary" onClick={retry}>
          {t('common.retry')}
        </Button>,
        <Button
          key="relogin"
          onClick={() => {
            clearTokens();
            window.location.assign('/login');
          }}
        >
          {t('session.relogin')}
        </Button>,
      ]}
    />
  );
}
