import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/SessionContext';
import { WorkingEnterpriseSwitch } from '../../features/enterprises';
import { AlarmBell } from './AlarmBell';
import { LanguageSwitch } from './LanguageSwitch';
import { AppBreadcrumb } from './AppBreadcrumb';
import { SizeSwitch } from './SizeSwitch';
import { UserMenu } from './UserMenu';
import { TalkToggle } from './TalkToggle';

interface TopBarProps {
  menuOpen: boolean;
  onToggleMenu: () => void;
  mobile: boolean;
  talkOpen: boolean;
}

/** Hamburger, breadcrumb and, on the right, notifications, size, language and the user menu. */
export function TopBar({ menuOpen, onToggleMenu, mobile, talkOpen }: TopBarProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { info } = useSession();
  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        height: 56,
        lineHeight: 'normal',
        padding: '0 8px',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        background: token.colorBgContainer,
        boxShadow: '0 1px 4px rgba(0, 21, 41, 0.08)',
      }}
    >
      <Button
        type="text"
        icon={menuOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={onToggleMenu}
        aria-label={t('layout.toggle_sidebar')}
        title={t('layout.toggle_sidebar')}
        data-testid="hamburger"
      />
      <div style={{ flex: 1, minWidth: 0 }}>
        <AppBreadcrumb compact={mobile} />
      </div>
      {info.IsAdmin && info.HasChildren && <WorkingEnterpriseSwitch compact={mobile} />}
      <TalkToggle open={talkOpen} />
      <AlarmBell />
      {!mobile && <SizeSwitch />}
      <LanguageSwitch showName={!mobile} />
      <UserMenu compact={mobile} />
    </Layout.Header>
  );
}
