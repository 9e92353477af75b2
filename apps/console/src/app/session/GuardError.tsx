import { useTranslation } from 'react-i18next';
import { clearTokens } from '../../shared/storage/tokenStore';
import styles from './GuardError.module.css';

/**
 * The guard's own failure (GuardBoundary): "Has Error", try again or log in afresh. Laid out as
 * antd's Result, without antd: this is part of the login page's first chunk, which loads no antd
 * (issue 34), and it must show even when no further chunk can load.
 */
export function GuardError({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <main className={styles.page} role="alert">
      <svg className={styles.icon} viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
        <circle cx="12" cy="12" r="10" fill="currentColor" />
        <path d="M9 9l6 6M15 9l-6 6" stroke="#fff" strokeWidth={2} strokeLinecap="round" />
      </svg>
      <h1 className={styles.title}>{t('session.guard_error')}</h1>
      <p className={styles.hint}>{t('session.guard_error_hint')}</p>
      <div className={styles.actions}>
        <button type="button" className={`${styles.button} ${styles.primary}`} onClick={retry}>
          {t('common.retry')}
        </button>
        <button
          type="button"
          className={styles.button}
          onClick={() => {
            clearTokens();
            window.location.assign('/login');
          }}
        >
          {t('session.relogin')}
        </button>
      </div>
    </main>
  );
}
