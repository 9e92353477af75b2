import { useTranslation } from 'react-i18next';
import styles from './FullPageSpin.module.css';
import { SpinIndicator } from './SpinIndicator';
import { useShownAfter } from './useShownAfter';

/**
 * Shown while a lazily loaded screen or the session arrives, after a short delay (most arrive
 * sooner). Plain CSS rather than antd's Spin: it is part of the first chunk, which the login page
 * keeps small.
 */
export function FullPageSpin() {
  const { t } = useTranslation();
  const shown = useShownAfter();
  return (
    <div className={styles.page} role="status" aria-live="polite" aria-busy="true">
      {shown && (
        <>
          <SpinIndicator className={styles.spinner} />
          <span className={styles.text}>{t('common.loading')}</span>
        </>
      )}
    </div>
  );
}
