import { KeyOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session/SessionContext';
import { useLayoutActions } from '../../layout/LayoutActions';
import { ROLE_LABELS } from '../account/roleLabels';

/** The signed-in account: who, which enterprise, which role; and its password. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { info } = useSession();
  const { openChangePassword } = useLayoutActions();
  return (
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
  );
}
