import {
  ApiOutlined,
  BankOutlined,
  SafetyCertificateOutlined,
  DownOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  LogoutOutlined,
  PhoneOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { loginPathFor } from '../../shared/routing/redirects';
import { useSession } from '../../shared/session/SessionContext';
import { useLogout } from '../../features/account';
import { IntercomAccountDialog } from '../../talk';
import { useLayoutActions } from '../../shared/ui/LayoutActions';

/**
 * The user dropdown of the top bar: home, profile, change password, for admins the manager
 * accounts and sub-enterprises (hidden in the sidebar), plugin download, log out.
 */
export function UserMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const { info } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const logout = useLogout();
  const { openChangePassword } = useLayoutActions();
  const [intercomOpen, setIntercomOpen] = useState(false);

  const items: MenuProps['items'] = [
    { key: 'home', icon: <HomeOutlined />, label: t('layout.home') },
    { key: 'profile', icon: <IdcardOutlined />, label: t('route.profile') },
    { key: 'password', icon: <KeyOutlined />, label: t('layout.change_password') },
    ...(info.IsAdmin
      ? [
          { key: 'accounts', icon: <SafetyCertificateOutlined />, label: t('route.accounts') },
          { key: 'enterprises', icon: <BankOutlined />, label: t('route.enterprises') },
        ]
      : []),
    { key: 'intercom', icon: <PhoneOutlined />, label: t('talk.account_title') },
    { key: 'plugin', icon: <ApiOutlined />, label: t('route.plugin') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('layout.logout'), danger: true },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'home') void navigate('/');
    else if (key === 'profile') void navigate('/profile');
    else if (key === 'password') openChangePassword();
    else if (key === 'intercom') setIntercomOpen(true);
    else if (key === 'plugin') void navigate('/System/plugin');
    else if (key === 'accounts') void navigate('/Managent/Account');
    else if (key === 'enterprises') void navigate('/Managent/Enterprise');
    else if (key === 'logout') {
      const back = loginPathFor(location.pathname + location.search);
      logout.mutate(undefined, {
        onSettled: () => {
          void navigate(back, { replace: true });
          logout.forget();
        },
      });
    }
  };

  return (
    <>
      <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
        <Button
          type="text"
          style={{ height: 40, paddingInline: 8 }}
          // The visible name stays part of the accessible name (label in name).
          aria-label={t('layout.user_menu', { name: info.name })}
          data-testid="user-menu"
          loading={logout.isPending}
        >
          <Avatar size={28} icon={<UserOutlined />} style={{ background: '#1668dc' }} />
          {!compact && <span style={{ maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis' }}>{info.name}</span>}
          <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
      <IntercomAccountDialog open={intercomOpen} onClose={() => setIntercomOpen(false)} />
    </>
  );
}
