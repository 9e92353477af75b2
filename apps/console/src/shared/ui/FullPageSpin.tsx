import { useTranslation } from 'react-i18next';
import styles from './FullPageSpin.module.css';

/**
 * Shown while a lazily loaded screen or the session arrives. Plain CSS rather than antd's Spin:
 * it is part of the first chunk, which the login page keeps small.
 */
export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div className={styles.page} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      <span className={styles.text}>{t('common.loading')}</span>
    </div>
  );
}
