import { KeyOutlined } from '@ant-design/icons';
import { AccountLimits, MessageKeys, profileSaveSchema, type Profile } from '@intercom/contract';
import { Button, Card, Descriptions, Flex, Form, Input, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/SessionContext';
import { useLayoutActions } from '../../shared/ui/LayoutActions';
import { contractErrors } from '../../shared/form/contractErrors';
import { EditFormShell } from '../../shared/form/EditFormShell';
import { ROLE_LABELS } from '../account';
import { useProfile, useSaveProfile } from '../accounts';

interface ProfileValues {
  Name: string;
  Mail: string;
}

const noop = () => undefined;

/** The signed-in account: who, which enterprise, which role; its own name and mail; its password. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { info } = useSession();
  const { openChangePassword } = useLayoutActions();
  const profile = useProfile();
  const save = useSaveProfile();
  const body = (values: ProfileValues) => ({ Name: values.Name ?? '', Mail: (values.Mail ?? '').trim() });
  return (
    <Flex vertical gap={16}>
      <Card
        title={t('route.profile')}
        extra={
          <Button icon={<KeyOutlined />} onClick={openChangePassword}>
            {t('layout.change_password')}
          </Button>
        }
      >
        <Descriptions
          column={{ xs: 1, md: 2 }}
          bordered
          items={[
            { key: 'account', label: t('profile.account'), children: info.account },
            { key: 'name', label: t('profile.name'), children: info.name },
            { key: 'enterprise', label: t('profile.enterprise'), children: info.E_Name },
            { key: 'code', label: t('profile.company_code'), children: info.E_Code },
            {
              key: 'role',
              label: t('profile.role'),
              children: <Tag color={info.IsAdmin ? 'blue' : 'green'}>{t(ROLE_LABELS[info.role])}</Tag>,
            },
            {
              key: 'children',
              label: t('profile.sub_enterprises'),
              children: info.HasChildren ? t('common.yes') : t('common.no'),
            },
          ]}
        />
      </Card>
      <EditFormShell<ProfileValues>
        title={t('profile.edit')}
        load={profile}
        toFormValues={(row: Profile) => ({ Name: row.Name, Mail: row.Mail })}
        validate={(values) => contractErrors(profileSaveSchema, body(values))}
        save={(values) => save.mutateAsync(body(values))}
        messageFields={{ [MessageKeys.mailInvalid]: 'Mail' }}
        onClose={noop}
        showCancel={false}
      >
        <Form.Item name="Name" label={t('profile.name')} extra={t('profile.name_hint')}>
          <Input maxLength={AccountLimits.nameMax} />
        </Form.Item>
        <Form.Item name="Mail" label={t('accounts.mail')}>
          <Input inputMode="email" maxLength={AccountLimits.mailMax} />
        </Form.Item>
      </EditFormShell>
    </Flex>
  );
}
