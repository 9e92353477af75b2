import { useTranslation } from 'react-i18next';

/** A one-line outcome (sent, failed) with a Dismiss button, announced to screen readers. */
export function StatusBanner({ text, failed, onDismiss }: { text: string; failed: boolean; onDismiss?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={failed ? 'banner banner--incident' : 'banner banner--ok'} role="status">
      <span>{text}</span>
      {onDismiss && (
        <button type="button" className="link" onClick={onDismiss}>
          {t('dismiss')}
        </button>
      )}
    </div>
  );
}
