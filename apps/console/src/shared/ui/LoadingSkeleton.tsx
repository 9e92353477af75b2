import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useShownAfter } from './useShownAfter';

/**
 * The placeholder of a list or tree that is loading: nothing for a moment (most loads end sooner),
 * then antd's shimmering skeleton of `rows` lines.
 */
export function LoadingSkeleton({ rows }: { rows: number }) {
  const { t } = useTranslation();
  const shown = useShownAfter();
  return (
    <div role="status" aria-busy="true" aria-label={t('common.loading')}>
      {shown && <Skeleton active paragraph={{ rows }} />}
    </div>
  );
}
