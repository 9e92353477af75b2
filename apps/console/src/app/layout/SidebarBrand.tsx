import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../shared/session/SessionContext';
import { subjectImageUrl } from '../../features/settings';
import { AppLogo } from '../../shared/ui/AppLogo';

/**
 * Logo and product name at the top of the sidebar; only the logo when collapsed. An uploaded
 * logo (SubjectLogo, 304x31) takes the place of both; collapsed, its left end shows.
 */
export function SidebarBrand({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { sysConfig } = useSession();
  const logoUrl = subjectImageUrl(sysConfig?.SubjectLogo);

  return (
    <Link
      to="/"
      aria-label={t('app.short_title')}
      data-testid="sidebar-brand"
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
      {logoUrl ? (
        <img
          src={logoUrl}
          alt={t('app.short_title')}
          width={304}
          height={31}
          style={
            collapsed
              ? { width: 31, height: 31, objectFit: 'cover', objectPosition: 'left center' }
              : { display: 'block', maxWidth: '100%', height: 'auto' }
          }
        />
      ) : (
        <>
          <AppLogo size={28} />
          {!collapsed && (
            <span style={{ fontWeight: 600, fontSize: 15, overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {t('app.short_title')}
            </span>
          )}
        </>
      )}
    </Link>
  );
}
