import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** A load that failed, said in one line, with a button that tries it again. */
export function RetryAlert({ title, onRetry }: { title: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={title}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
