import { Limits } from '@intercom/contract';
import { Drawer, Layout, Spin } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { findRoute } from '../routing/findRoute';
import { useSession } from '../../shared/session/SessionContext';
import { ChangePasswordDialog } from '../../features/account';
import { useRememberSubjectImages } from '../../features/settings';
import { LayoutActionsContext } from '../../shared/ui/LayoutActions';
import { SideMenu } from './SideMenu';
import { SidebarBrand } from './SidebarBrand';
import { TopBar } from './TopBar';
import { HubConnectionBanner } from '../../shared/hub/HubConnectionBanner';
import { ConfirmProvider } from '../../shared/ui/ConfirmContext';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { LOADING_DELAY_MS } from '../../shared/ui/useShownAfter';
import { useSidebarState } from './useSidebarState';
import { PushToTalkKey, TalkPanel, useTalk } from '../../talk';

const SIDER_BG = '#001529';
/** Stays in view under the sticky top bar (56 px) while the page scrolls. */
const BANNER_STYLE = { position: 'sticky', top: 56, zIndex: 9 } as const;

function PageSpin() {
  return (
    <div style={{ padding: 64, textAlign: 'center' }}>
      <Spin size="large" delay={LOADING_DELAY_MS} />
    </div>
  );
}

/** The signed-in frame of SPEC.md section 2: sidebar (a drawer below 992 px), top bar, page. */
export function AppLayout() {
  const { t } = useTranslation();
  const { routes } = useSession();
  const { pathname } = useLocation();
  const mobile = useIsMobile();
  const [sidebarOpen, toggleSidebar] = useSidebarState();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [talkOpen, setTalkOpen] = useState(false);
  // A call started anywhere (channel tree, user card) shows the panel that holds its push-to-talk.
  const talkCurrent = useTalk((state) => state.current);
  const [shownCall, setShownCall] = useState(talkCurrent);
  if (shownCall !== talkCurrent) {
    setShownCall(talkCurrent);
    if (talkCurrent !== null) setTalkOpen(true);
  }
  const [drawerPath, setDrawerPath] = useState(pathname);
  // Mobile mode: the menu closes on navigation.
  if (drawerPath !== pathname) {
    setDrawerPath(pathname);
    setDrawerOpen(false);
  }

  const title = findRoute(routes, pathname)?.route.title;
  useEffect(() => {
    document.title = title ? `${t(title)} · ${t('app.title')}` : t('app.title');
  }, [title, t]);

  const actions = useMemo(
    () => ({ openChangePassword: () => setPasswordOpen(true), openTalk: () => setTalkOpen((open) => !open) }),
    [],
  );
  const collapsed = !mobile && !sidebarOpen;
  // For the login page of the next visit (it cannot read the settings before login).
  useRememberSubjectImages();

  return (
    <LayoutActionsContext value={actions}>
      <ConfirmProvider>
        <Layout style={{ minHeight: '100vh' }}>
          {mobile ? (
            <Drawer
              placement="left"
              open={drawerOpen}
              onClose={() => setDrawerOpen(false)}
              size={Limits.sidebarWidthPx}
              closable={false}
              styles={{ body: { padding: 0, background: SIDER_BG } }}
              data-testid="sidebar-drawer"
            >
              <SidebarBrand collapsed={false} />
              <SideMenu collapsed={false} />
            </Drawer>
          ) : (
            <Layout.Sider
              width={Limits.sidebarWidthPx}
              collapsedWidth={64}
              collapsed={collapsed}
              trigger={null}
              style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto', background: SIDER_BG }}
              data-testid="sidebar"
            >
              <SidebarBrand collapsed={collapsed} />
              <SideMenu collapsed={collapsed} />
            </Layout.Sider>
          )}
          <Layout>
            <TopBar
              mobile={mobile}
              menuOpen={mobile ? drawerOpen : sidebarOpen}
              onToggleMenu={mobile ? () => setDrawerOpen((open) => !open) : toggleSidebar}
              talkOpen={talkOpen}
            />
            <HubConnectionBanner style={BANNER_STYLE} />
            <Layout.Content style={{ margin: mobile ? 12 : 16, minWidth: 0 }}>
              <Suspense fallback={<PageSpin />}>
                <Outlet />
              </Suspense>
            </Layout.Content>
          </Layout>
          {talkOpen && !mobile && (
            <Layout.Sider
              width={300}
              theme="light"
              style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto', borderLeft: '1px solid #f0f0f0' }}
              data-testid="talk-dock"
            >
              <TalkPanel />
            </Layout.Sider>
          )}
        </Layout>
        {mobile && (
          <Drawer
            placement="right"
            open={talkOpen}
            onClose={() => setTalkOpen(false)}
            size={320}
            title={t('talk.panel_title')}
            styles={{ body: { padding: 0 } }}
            data-testid="talk-drawer"
          >
            <TalkPanel heading={false} />
          </Drawer>
        )}
        <PushToTalkKey />
        <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      </ConfirmProvider>
    </LayoutActionsContext>
  );
}
