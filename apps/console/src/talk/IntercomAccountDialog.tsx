import { Button, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { talk as talkClient } from './talk';
import { useTalk } from './useTalk';

/**
 * The intercom-account dialog (SPEC.md 2): proxy, enterprise id and account name read-only; the
 * seat's number (the "phone" a talk account dials as, `D<A_ID>`) and the one-time code of its
 * login. Login fetches an AuthCode and logs the seat in through the local agent, or through this
 * browser where no agent answers.
 */
export function IntercomAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const state = useTalk();
  const account = talkClient.getAccount();
  const [busy, setBusy] = useState(false);
  // Opening the dialog starts talk, as opening the talk panel does: look for the local agent now.
  useEffect(() => {
    if (open) talkClient.probeAgent();
  }, [open]);

  const login = async () => {
    setBusy(true);
    try {
      // No local agent found (or none looked for yet): this browser carries the seat.
      if (state.mode !== 'browser' && state.agent !== 'present') await talkClient.useBrowserTalk();
      else await talkClient.login();
      onClose();
    } catch {
      // The status text says what went wrong.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('talk.account_title')}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('common.close')}
        </Button>,
        state.seat ? (
          <Button key="logout" danger onClick={() => void talkClient.logout()}>
            {t('talk.logout')}
          </Button>
        ) : (
          <Button key="login" type="primary" loading={busy} onClick={() => void login()} data-testid="talk-login">
            {t('talk.login')}
          </Button>
        ),
      ]}
    >
      <Form layout="vertical" data-testid="intercom-account">
        <Form.Item htmlFor="intercom-proxy" label={t('talk.proxy')}>
          <Input id="intercom-proxy" readOnly value={account?.proxy ?? ''} />
        </Form.Item>
        <Form.Item htmlFor="intercom-enterprise_id" label={t('talk.enterprise_id')}>
          <Input id="intercom-enterprise_id" readOnly value={account?.partyId ?? ''} />
        </Form.Item>
        <Form.Item htmlFor="intercom-account_name" label={t('talk.account_name')}>
          <Input id="intercom-account_name" readOnly value={account?.name ?? ''} />
        </Form.Item>
        <Form.Item htmlFor="intercom-phone" label={t('talk.phone')} extra={t('talk.phone_hint')}>
          <Input id="intercom-phone" readOnly value={state.seat?.dispatchNo ?? account?.dispatchNo ?? ''} />
        </Form.Item>
        <Form.Item htmlFor="intercom-code" label={t('talk.code')} extra={t('talk.code_hint')}>
          <Input id="intercom-code" readOnly value={state.authCode ?? ''} placeholder="—" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
