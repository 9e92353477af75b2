import { CustomerServiceOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTalk } from '../../talk';
import { useLayoutActions } from '../../shared/ui/LayoutActions';

/** Opens and closes the talk panel; the dot says whether a seat is logged in (green) or talking (red). */
export function TalkToggle({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const { openTalk } = useLayoutActions();
  const seat = useTalk((state) => state.seat);
  const talking = useTalk((state) => state.mic === 'on' || [...state.floors.values()].some((floor) => floor.holder));
  const status = talking ? 'error' : seat ? 'success' : 'default';
  return (
    <Badge dot status={status} offset={[-6, 6]}>
      <Button
        type={open ? 'primary' : 'text'}
        icon={<CustomerServiceOutlined />}
        onClick={openTalk}
        aria-label={t('talk.panel_title')}
        aria-pressed={open}
        title={talking ? `${t('talk.panel_title')} · ${t('talk.status.user_speaking')}` : t('talk.panel_title')}
        data-testid="talk-toggle"
      />
    </Badge>
  );
}
