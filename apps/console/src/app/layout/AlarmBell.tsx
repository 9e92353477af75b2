import { BellOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';

/** The bell of the top bar: opens the alarm records and counts the unhandled alarms the hub holds. */
export function AlarmBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const unhandled = useHubSnapshot((snapshot) => snapshot.alarms.size);
  const label = unhandled > 0 ? t('layout.alarms_unhandled', { count: unhandled }) : t('route.notify');
  return (
    <Badge count={unhandled} size="small" overflowCount={99} offset={[-6, 6]}>
      <Button
        type="text"
        icon={<BellOutlined />}
        onClick={() => void navigate('/System/notify')}
        aria-label={label}
        title={label}
        data-testid="alarm-bell"
      />
    </Badge>
  );
}
