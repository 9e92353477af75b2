import type { NotifyRow } from '@intercom/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/apiClient';
import { invalidateResources } from '../../shared/api/invalidate';
import { entityResource } from '../../shared/list/entityResource';

/** `/api/Notification/QueryData` and `ExportData` (any role): newest first unless the user sorts. */
export const notifyResource = entityResource<NotifyRow>({
  name: 'Notification',
  rowKey: 'N_ID',
  defaultOrder: { field: 'CreatedAt', desc: true },
});

export type NotifyStep = 'acknowledge' | 'resolve';

export interface NotifyChange {
  step: NotifyStep;
  ids: number[];
  comment: string;
}

/**
 * `POST /api/Notification/Acknowledge | Resolve` with `ids` and a comment: all or nothing (409
 * `notify.bad_state` when one alarm has moved on meanwhile). Each change writes a system-log row.
 */
export function useChangeNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ step, ids, comment }: NotifyChange) =>
      apiRequest<never, { changed: number; rows: NotifyRow[] }>(
        'POST',
        step === 'acknowledge' ? '/api/Notification/Acknowledge' : '/api/Notification/Resolve',
        { json: { ids, comment } },
      ),
    // A 409 means the list is out of date too: refresh it either way.
    onSettled: () => invalidateResources(queryClient, 'Notification', 'SysLog'),
  });
}
