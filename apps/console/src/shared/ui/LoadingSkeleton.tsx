import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useShownAfter } from './useShownAfter';

/**
 * The placeholder of a list or tree that is loading: nothing for a moment (most loads end sooner),
 * then antd's skeleton of `rows` lines, standing still. A shimmer (`active`) repaints the lines at
 * every frame on the page's main thread and, without a GPU, in the GPU process too: the cores the
 * map's opening needs (docs/benchmarks.md, "spinners that step").
 */
export function LoadingSkeleton({ rows }: { rows: number }) {
  const { t } = useTranslation();
  const shown = useShownAfter();
  return (
    <div role="status" aria-busy="true" aria-label={t('common.loading')}>
      {shown && <Skeleton paragraph={{ rows }} />}
    </div>
  );
}
