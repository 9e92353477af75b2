import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AppLogo } from '../shared/ui/AppLogo';

/** Logo and product name at the top of the sidebar; only the logo when collapsed. */
export function SidebarBrand({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  return (
    <Link
      to="/"
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        height: 56,
        padding: collapsed ? '0 16px' : '0 16px 0 18px',
        justifyContent: collapsed ? 'center' : 'flex-start',
        color: '#fff',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
      }}
    >
      <AppLogo size={28} />
      {!collapsed && (
        <span style={{ fontWeight: 600, fontSize: 15, overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {t('app.short_title')}
        </span>
      )}
    </Link>
  );
}
