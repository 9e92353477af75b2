import { dispatchNoOf, type DispatchNo } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../shared/session/SessionContext';
import { getList } from '../shared/api/apiClient';
import { useSessionEnded } from '../shared/api/sessionState';
import { useToast } from '../shared/ui/ToastContext';
import { talk as talkClient } from './talk';

/**
 * Mounted with the signed-in screens (beside LiveHubConnection): starts the talk owner while they
 * show (it looks for the local agent at once where this browser had one, else when the talk panel
 * opens), gives the talk owner the account for its login payload, and shows every talk status
 * (SPEC.md 8) as a message where it happens.
 */
export function TalkConnection() {
  const { t } = useTranslation();
  const toast = useToast();
  const ended = useSessionEnded();
  const { info } = useSession();
  // The seat's number as the server lists it (`GET /api/THCustDevice/DispatchNo`, the caller's own
  // row); until it answers, or should it fail, the same rule computed here.
  const seats = useQuery({
    enabled: !ended,
    queryKey: ['THCustDevice', 'DispatchNo', info.E_ID],
    queryFn: ({ signal }) => getList<DispatchNo>('/api/THCustDevice/DispatchNo', { signal }),
    staleTime: 10 * 60_000,
    meta: { errorToast: false },
  });
  const dispatchNo = seats.data?.rows.find((seat) => seat.Self)?.DispatchNo ?? dispatchNoOf(info.A_ID);
  useEffect(() => {
    talkClient.setAccount({
      proxy: window.location.origin,
      partyId: info.E_ID,
      name: info.account,
      dispatchNo,
    });
  }, [info.E_ID, info.account, dispatchNo]);
  useEffect(() => {
    if (ended) return;
    talkClient.start();
    return () => talkClient.stop();
  }, [ended]);
  useEffect(
    () =>
      talkClient.onStatus((status) => {
        const text = t(`talk.status.${status.key}`, {
          ...status.params,
          reason: status.params?.reason ? t(`talk.reason.${status.params.reason}`) : '',
        });
        void toast.open({ type: status.level, content: text, key: `talk-${status.key}` });
      }),
    [t, toast],
  );
  return null;
}
