import { SafetyAlarmTypes, type Notification } from '@intercom/contract';
import { Alert, Badge, Button, Flex, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { talk, useTalk, type TalkCall } from '../../talk';
import { useIsMobile } from '../../shared/ui/useIsMobile';

/**
 * On a phone the banner stays a strip over the map: no icon, tight padding, the title and the state
 * on one line each (cut with an ellipsis, whole in a tooltip). The title names the newest alarm's
 * phone first and the number open is a badge beside it: the desktop's "4 urgent alarms, latest SOS
 * from …" took a second line at 390 px in Chinese, and an ellipsis would have cut off the phone.
 */
const COMPACT_STYLE = { padding: '4px 8px' };

/**
 * The newest SOS or ManDown alarm (the bell of the top bar counts them all) and what the dispatcher
 * does about it: Answer its emergency call (then push-to-talk, Space, talks in it), Listen to it
 * without talking, Locate the user on this map, Track them in the replay.
 */
export function SosBanner({ sos, onJump }: { sos: readonly Notification[]; onJump: (userId: number) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const newest = sos[0];
  const userId = newest?.U_ID ?? null;
  const call = useTalk((state) => emergencyCallOf(state.calls, userId));
  const answered = useTalk((state) => call !== undefined && state.current === call.cid);
  const [listening, setListening] = useState<number | null>(null);
  const compact = useIsMobile();
  if (!newest || userId === null) return null;
  const manDown = newest.NType === SafetyAlarmTypes.manDown;
  const title = t(manDown ? 'sos.title_man_down' : 'sos.title_sos', { count: sos.length, phone: newest.Phone });
  const state = !call
    ? t('sos.no_call')
    : answered
      ? t('sos.answered')
      : listening === call.cid
        ? t('sos.listening')
        : t('sos.offered');
  return (
    <Alert
      type="error"
      showIcon={!compact}
      role="alert"
      data-testid="map-sos-banner"
      style={compact ? COMPACT_STYLE : undefined}
      title={
        <Flex gap={8} align="center" wrap={!compact}>
          {compact ? (
            <>
              <Typography.Text ellipsis={{ tooltip: title }} style={{ minWidth: 0 }} data-testid="sos-title">
                {t(manDown ? 'sos.strip_man_down' : 'sos.strip_sos', { phone: newest.Phone })}
              </Typography.Text>
              {sos.length > 1 && <Badge count={sos.length} title={title} data-testid="sos-count" />}
            </>
          ) : (
            <span data-testid="sos-title">{title}</span>
          )}
          {newest.Escalated && (
            <Tooltip title={t('alarms.escalated_hint')}>
              <Tag color="volcano" data-testid="sos-escalated">
                {t('alarms.escalated')}
              </Tag>
            </Tooltip>
          )}
        </Flex>
      }
      description={
        <Flex vertical gap={compact ? 2 : 8}>
          {compact ? (
            <Typography.Text type="secondary" ellipsis={{ tooltip: state }} style={{ fontSize: 12 }}>
              <span data-testid="sos-call-state">{state}</span>
            </Typography.Text>
          ) : (
            <span data-testid="sos-call-state">{state}</span>
          )}
          <Flex gap={compact ? 4 : 8} wrap>
            {call && !answered && (
              <Button
                size="small"
                type="primary"
                danger
                data-testid="sos-answer"
                onClick={() => void talk.answerCall(call.cid).catch(() => undefined)}
              >
                {t('sos.answer')}
              </Button>
            )}
            {call && !answered && listening !== call.cid && (
              <Button size="small" data-testid="sos-listen" onClick={() => setListening(call.cid)}>
                {t('sos.listen')}
              </Button>
            )}
            <Button size="small" data-testid="sos-locate" onClick={() => onJump(userId)}>
              {t('sos.locate')}
            </Button>
            <Button size="small" data-testid="sos-track" onClick={() => void navigate(`/main/trace?uid=${userId}`)}>
              {t('sos.track')}
            </Button>
          </Flex>
        </Flex>
      }
    />
  );
}

/** The emergency call the seat was offered for this user, if any. */
function emergencyCallOf(calls: ReadonlyMap<number, TalkCall>, userId: number | null): TalkCall | undefined {
  if (userId === null) return undefined;
  for (const call of calls.values()) if (call.emergency && call.peerUid === userId) return call;
  return undefined;
}
