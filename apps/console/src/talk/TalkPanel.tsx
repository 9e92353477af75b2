import { CloseOutlined, GlobalOutlined, LoginOutlined, PhoneOutlined } from '@ant-design/icons';
import { CALL_ID_BASE } from '@intercom/contract';
import { Alert, Button, Divider, Flex, Progress, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AudioStatsLine } from './AudioStatsLine';
import { FloorLine } from './FloorLine';
import { IntercomAccountDialog } from './IntercomAccountDialog';
import { PushToTalkButton } from './PushToTalkButton';
import { talk as talkClient } from './talk';
import type { TalkState } from './talkTypes';
import { useTalk } from './useTalk';

const ignore = () => undefined;

function ConnectionTag({ state }: { state: TalkState }) {
  const { t } = useTranslation();
  const color = state.connection === 'connected' ? 'green' : state.connection === 'disconnected' ? 'red' : 'default';
  return (
    <Space size={4} wrap>
      {state.mode && <Tag>{t(`talk.mode_${state.mode}`)}</Tag>}
      <Tag color={color} data-testid="talk-connection">
        {t(`talk.connection_${state.connection}`)}
      </Tag>
      {state.seat && <Tag color="blue">{state.seat.dispatchNo}</Tag>}
    </Space>
  );
}

/** Offered where no local agent answers, or chosen on purpose; says plainly why it cannot run. */
function BrowserTalkOffer({ state }: { state: TalkState }) {
  const { t } = useTranslation();
  if (state.mode === 'browser') {
    return (
      <Button size="small" type="link" onClick={() => talkClient.useAgent()}>
        {t('talk.use_agent')}
      </Button>
    );
  }
  if (!state.secureContext) return <Alert type="warning" showIcon title={t('talk.status.insecure_context')} />;
  if (!state.webCodecs) return <Alert type="warning" showIcon title={t('talk.status.no_webcodecs')} />;
  // The hint and the button stack (the hint over the whole width): an Alert's `action` beside the
  // text left the text a few pixels in the narrow panel, one word per line.
  return (
    <Flex vertical gap={8} data-testid="talk-browser-offer">
      {state.agent === 'absent' && <Alert type="info" showIcon title={t('talk.no_agent')} />}
      <Button
        block
        icon={<GlobalOutlined />}
        onClick={() => void talkClient.useBrowserTalk().catch(ignore)}
        data-testid="talk-use-browser"
      >
        {t('talk.use_browser')}
      </Button>
    </Flex>
  );
}

function nameOf(state: TalkState, cid: number, t: TFunction): string {
  const call = state.calls.get(cid);
  if (call) return t(call.emergency ? 'talk.emergency_call_with' : 'talk.call_with', { name: call.peerName });
  return state.names.get(cid) ?? t('talk.channel_number', { cid });
}

/**
 * The talk panel (docked beside the page, a drawer on a phone): connection and seat, the current
 * channel or call and who holds its floor for how long, the monitored channels, a plain notice when
 * the seat was cut off, the level meter and the big push-to-talk button (Space works too).
 */
export function TalkPanel({ heading = true }: { heading?: boolean }) {
  const { t } = useTranslation();
  const state = useTalk();
  const [accountOpen, setAccountOpen] = useState(false);
  // The panel is where talk starts: look for the local agent now, if nothing was looked for yet.
  useEffect(() => talkClient.probeAgent(), []);
  const loggedIn = state.seat !== null;
  const current = state.current;
  const currentFloor = current !== null ? state.floors.get(current) : undefined;
  const others = [...state.floors.values()].filter((floor) => floor.cid !== current);

  return (
    <Flex vertical gap={12} data-testid="talk-panel" style={{ padding: 12 }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        {heading && (
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('talk.panel_title')}
          </Typography.Title>
        )}
        <ConnectionTag state={state} />
      </Flex>
      {!loggedIn && (
        <Button icon={<LoginOutlined />} onClick={() => setAccountOpen(true)} data-testid="talk-open-login">
          {t('talk.login')}
        </Button>
      )}
      {(state.agent === 'absent' || state.mode === 'browser') && <BrowserTalkOffer state={state} />}
      {state.lastLoss && (
        <Alert
          type="warning"
          showIcon
          data-testid="talk-preempted"
          title={t('talk.status.preempted', { reason: t(`talk.reason.${state.lastLoss.reason}`) })}
        />
      )}
      <Divider style={{ margin: 0 }} />
      {current !== null && currentFloor ? (
        <Flex vertical gap={8} data-testid="talk-current">
          <Typography.Text type="secondary">
            {state.calls.get(current)?.emergency
              ? t('talk.current_emergency')
              : current >= CALL_ID_BASE
                ? t('talk.current_call')
                : t('talk.current_channel')}
          </Typography.Text>
          <FloorLine floor={currentFloor} name={nameOf(state, current, t)} current />
          <Button
            danger
            icon={<PhoneOutlined rotate={135} />}
            onClick={() => void talkClient.endCall(current).catch(ignore)}
            data-testid="talk-end-call"
          >
            {t('talk.end_call')}
          </Button>
        </Flex>
      ) : (
        <Typography.Text type="secondary">
          {loggedIn ? t('talk.pick_channel') : t('talk.status.not_logged_in')}
        </Typography.Text>
      )}
      {state.mic === 'on' && (
        <Progress
          percent={Math.round(state.micLevel * 100)}
          showInfo={false}
          strokeColor="#cf1322"
          aria-label={t('talk.level')}
          data-testid="talk-level"
        />
      )}
      <PushToTalkButton mic={state.mic} disabled={!loggedIn || current === null} />
      {loggedIn && current !== null && <Typography.Text type="secondary">{t('talk.space_hint')}</Typography.Text>}
      {others.length > 0 && (
        <Flex vertical gap={6} data-testid="talk-monitored">
          <Typography.Text type="secondary">{t('talk.monitoring')}</Typography.Text>
          {others.map((floor) => (
            <Flex key={floor.cid} gap={4} align="center">
              <div style={{ flex: 1, minWidth: 0 }}>
                <FloorLine floor={floor} name={nameOf(state, floor.cid, t)} current={false} />
              </div>
              {state.monitored.includes(floor.cid) && (
                <Button
                  size="small"
                  type="text"
                  icon={<CloseOutlined />}
                  aria-label={t('talk.stop_listening')}
                  onClick={() =>
                    void talkClient.monitor(state.monitored.filter((cid) => cid !== floor.cid)).catch(ignore)
                  }
                />
              )}
            </Flex>
          ))}
        </Flex>
      )}
      {state.mode === 'browser' && loggedIn && <AudioStatsLine />}
      <IntercomAccountDialog open={accountOpen} onClose={() => setAccountOpen(false)} />
    </Flex>
  );
}
