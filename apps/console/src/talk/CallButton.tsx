import { PhoneOutlined, SoundOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { talk as talkClient } from './talk';
import { useTalk } from './useTalk';

const ignore = () => undefined;

type CallButtonProps =
  | { kind: 'group'; cid: number; name: string; size?: 'small' | 'middle' }
  | { kind: 'private'; uid: number; name: string; size?: 'small' | 'middle' }
  | { kind: 'listen'; cid: number; name: string; size?: 'small' | 'middle' };

/**
 * Group call / end call of a channel, listen to a channel, or a private call to a user: shown only
 * once a seat is logged in (the channel tree, the map's user card, the user list).
 */
export function CallButton(props: CallButtonProps) {
  const { t } = useTranslation();
  const seat = useTalk((state) => state.seat);
  const current = useTalk((state) => state.current);
  const monitored = useTalk((state) => state.monitored);
  const calls = useTalk((state) => state.calls);
  if (!seat) return null;
  const stop = (event: React.MouseEvent) => event.stopPropagation();
  const size = props.size ?? 'small';

  if (props.kind === 'listen') {
    const listening = monitored.includes(props.cid);
    const next = listening ? monitored.filter((cid) => cid !== props.cid) : [...monitored, props.cid];
    return (
      <Tooltip title={listening ? t('talk.stop_listening') : t('talk.listen')}>
        <Button
          size={size}
          type={listening ? 'primary' : 'text'}
          icon={<SoundOutlined />}
          aria-label={`${listening ? t('talk.stop_listening') : t('talk.listen')} ${props.name}`}
          aria-pressed={listening}
          onClick={(event) => {
            stop(event);
            void talkClient.monitor(next, new Map([[props.cid, props.name]])).catch(ignore);
          }}
        />
      </Tooltip>
    );
  }
  // A group call of the channel or a private call to the user: the one button starts it and ends it.
  const group = props.kind === 'group';
  const ongoing = group ? undefined : [...calls.values()].find((entry) => entry.peerUid === props.uid);
  const active = group ? current === props.cid : ongoing !== undefined;
  const toggle = () => {
    if (props.kind === 'group') {
      return active ? talkClient.endCall(props.cid) : talkClient.groupCall(props.cid, props.name);
    }
    return ongoing ? talkClient.endCall(ongoing.cid) : talkClient.privateCall(props.uid, props.name);
  };
  const startName = group ? t('talk.group_call') : t('talk.private_call');
  return (
    <Button
      size={size}
      type={active ? 'primary' : group ? 'text' : 'default'}
      danger={active}
      icon={<PhoneOutlined rotate={active ? 135 : 0} />}
      aria-label={`${active ? t('talk.end_call') : startName} ${props.name}`}
      onClick={(event) => {
        stop(event);
        void toggle().catch(ignore);
      }}
    >
      {size === 'middle' ? (active ? t('talk.end_call') : group ? t('talk.group_call') : t('talk.call')) : undefined}
    </Button>
  );
}
