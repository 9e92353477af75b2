import { AudioOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { talk as talkClient } from './talk';
import type { MicState } from './talkTypes';

/** The big on-screen push-to-talk button: held with the mouse, a pen or a finger. */
export function PushToTalkButton({ mic, disabled }: { mic: MicState; disabled: boolean }) {
  const { t } = useTranslation();
  const release = () => void talkClient.freeMic().catch(() => undefined);
  return (
    <Button
      type="primary"
      danger={mic === 'on'}
      shape="round"
      size="large"
      block
      disabled={disabled}
      icon={<AudioOutlined />}
      aria-pressed={mic !== 'off'}
      data-testid="talk-ptt"
      // No scrolling, zooming or context menu while a finger holds it.
      style={{ height: 72, fontSize: 18, touchAction: 'none', userSelect: 'none' }}
      onContextMenu={(event) => event.preventDefault()}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        void talkClient.applyMic().catch(() => undefined);
      }}
      onPointerUp={release}
      onPointerCancel={release}
      // Space is the push-to-talk key already; the button itself must not also click on it.
      onKeyDown={(event) => event.key === ' ' && event.preventDefault()}
    >
      {mic === 'on' ? t('talk.ptt_talking') : mic === 'requesting' ? t('talk.ptt_requesting') : t('talk.ptt_hold')}
    </Button>
  );
}
