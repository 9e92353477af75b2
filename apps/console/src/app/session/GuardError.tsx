import { CloseCircleFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearTokens } from '../../shared/storage/tokenStore';
import styles from './GuardError.module.css';

/**
 * The guard's own failure (GuardBoundary): "Has Error", try again or log in afresh. Laid out as
 * antd's Result, without it: this is part of the login page's first chunk (antd's Result carries
 * its illustrations), and it must show even when no further chunk can load.
 */
export function GuardError({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <main className={styles.page} role="alert">
      <CloseCircleFilled className={styles.icon} aria-hidden />
      <h1 className={styles.title}>{t('session.guard_error')}</h1>
      <p className={styles.hint}>{t('session.guard_error_hint')}</p>
      <div className={styles.actions}>
        <Button type="primary" onClick={retry}>
          {t('common.retry')}
        </Button>
        <Button
          onClick={() => {
            clearTokens();
            window.location.assign('/login');
          }}
        >
          {t('session.relogin')}
        </Button>
      </div>
    </main>
  );
}
