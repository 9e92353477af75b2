import { useQueryClient } from '@tanstack/react-query';
import { useHubBursts } from '../../shared/hub/useHubBursts';
import { useRefetchOnHubResync } from '../../shared/hub/useRefetchOnHubResync';
import { invalidateResources } from '../../shared/api/invalidate';

const ALARM_LIST_KEY = ['Notification'] as const;

/**
 * Keeps the alarm list current: a new or changed alarm pushed by the hub (another console
 * acknowledging, a terminal raising SOS) refetches it, and so does every reconnect. The hub already
 * coalesces bursts, so a flood of alarms costs one refetch per burst.
 */
export function useLiveAlarmRefresh(): void {
  const queryClient = useQueryClient();
  useRefetchOnHubResync(ALARM_LIST_KEY);
  useHubBursts(({ alarmPushed }) => {
    if (alarmPushed) void invalidateResources(queryClient, ...ALARM_LIST_KEY);
  });
}
