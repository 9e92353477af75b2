import { hasCap, USER_CAP_NAMES, UserCaps, type UserCapName, type UserRow } from '@intercom/contract';
import { Divider, Flex, Modal, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tk } from '../../i18n/tk';
import { useRunAction } from '../../shared/api/useRunAction';
import { useCapsSwitch } from './api';

export const CAP_LABELS: Record<UserCapName, { title: string; hint: string }> = {
  video: { title: tk('users.cap_video'), hint: tk('users.cap_video_hint') },
  privateCall: { title: tk('users.cap_private_call'), hint: tk('users.cap_private_call_hint') },
  gps: { title: tk('users.cap_gps'), hint: tk('users.cap_gps_hint') },
  record: { title: tk('users.cap_record'), hint: tk('users.cap_record_hint') },
  broadcast: { title: tk('users.cap_broadcast'), hint: tk('users.cap_broadcast_hint') },
  sos: { title: tk('users.cap_sos'), hint: tk('users.cap_sos_hint') },
};

/** One switch per capability; each switch saves at once (UCapsSwitch with that bit flipped). */
export function UserCapsDialog({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const switchCaps = useCapsSwitch();
  const run = useRunAction();
  const [caps, setCaps] = useState<number | null>(null);
  const [busy, setBusy] = useState<UserCapName | null>(null);
  const [shownUser, setShownUser] = useState(user);
  if (shownUser !== user) {
    setShownUser(user);
    setCaps(null);
  }
  const current = caps ?? user?.Caps ?? 0;

  const toggle = async (name: UserCapName) => {
    if (!user) return;
    setBusy(name);
    const next = current ^ UserCaps[name];
    await run(async () => {
      const answer = await switchCaps.mutateAsync({ phone: user.MobilePhone, cap: next });
      setCaps(answer.BaseData?.Caps ?? next);
    });
    setBusy(null);
  };

  return (
    <Modal
      open={user !== null}
      title={t('users.caps_title', { name: user?.UserName ?? '' })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="user-caps-dialog">
        <Flex vertical>
          {USER_CAP_NAMES.map((name, index) => (
            <div key={name}>
              {index > 0 && <Divider style={{ margin: '10px 0' }} />}
              <Flex justify="space-between" align="center" gap={16}>
                <Flex vertical>
                  <Typography.Text strong>{t(CAP_LABELS[name].title)}</Typography.Text>
                  <Typography.Text type="secondary">{t(CAP_LABELS[name].hint)}</Typography.Text>
                </Flex>
                <Switch
                  checked={hasCap(current, name)}
                  loading={busy === name}
                  disabled={busy !== null && busy !== name}
                  onChange={() => void toggle(name)}
                  aria-label={t(CAP_LABELS[name].title)}
                />
              </Flex>
            </div>
          ))}
        </Flex>
      </div>
    </Modal>
  );
}
