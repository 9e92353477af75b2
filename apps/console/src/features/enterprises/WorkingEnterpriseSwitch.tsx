import { BankOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRunAction } from '../../shared/api/useRunAction';
import { liveHub } from '../../shared/hub/liveHub';
import { useSwitchWorking, useWorkingEnterprise } from './api';

/**
 * The top bar's working-enterprise choice (admins of an enterprise with sub-enterprises): every
 * call after a switch works in the chosen enterprise, and every cached query is refetched.
 */
export function WorkingEnterpriseSwitch({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const run = useRunAction();
  const working = useWorkingEnterprise();
  const switchWorking = useSwitchWorking();
  const data = working.data;
  if (!data || data.choices.length < 2) return null;
  const away = data.working.E_ID !== data.own.E_ID;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [String(data.working.E_ID)],
        items: data.choices.map((choice) => ({
          key: String(choice.E_ID),
          label:
            choice.E_ID === data.own.E_ID
              ? t('enterprises.own_choice', { name: choice.E_Name, code: choice.E_Code })
              : t('enterprises.choice', { name: choice.E_Name, code: choice.E_Code }),
          disabled: Boolean(choice.Disabled),
        })),
        onClick: ({ key }) => {
          const choice = data.choices.find((c) => String(c.E_ID) === key);
          if (!choice || choice.E_ID === data.working.E_ID) return;
          // The hub's scope is fixed when it connects: reconnect it in the new enterprise.
          const switched = () => switchWorking.mutateAsync(choice.E_ID).then(() => liveHub.restart());
          void run(switched, t('enterprises.switched', { name: choice.E_Name }));
        },
      }}
    >
      <Button
        type="text"
        icon={<BankOutlined />}
        loading={switchWorking.isPending}
        aria-label={t('enterprises.working', { name: data.working.E_Name })}
        title={t('enterprises.working', { name: data.working.E_Name })}
        data-testid="working-enterprise"
      >
        {!compact && (
          <span style={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis' }}>{data.working.E_Name}</span>
        )}
        {!compact && away && <Tag color="orange">{t('enterprises.away')}</Tag>}
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
