import type { LoginInfo } from '@intercom/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en.json';
import { SessionContext } from '../../shared/session/SessionContext';
import { routeTable } from '../routeTable';
import { resolveRoutes } from '../routing/resolveRoutes';
import { SideMenu } from './SideMenu';

const i18n = createInstance();
void i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });
const title = (key: string) => i18n.t(key);

function menuAt(path: string, defaultMap = 'OFFLINE') {
  const routes = resolveRoutes(routeTable, { role: 'admin', defaultMap });
  const info = { E_ID: 1, A_ID: 1, account: 'admin' } as unknown as LoginInfo;
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <SessionContext value={{ info, sysConfig: { DefaultMap: defaultMap }, routes }}>
          <MemoryRouter initialEntries={[path]}>
            <SideMenu collapsed={false} />
          </MemoryRouter>
        </SessionContext>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

/** The titles of the entries the menu lights. */
const lit = () =>
  [...document.querySelectorAll('.ant-menu-item-selected')].map((item) => item.textContent?.trim() ?? '');

describe('the side menu lights the page shown', () => {
  it.each([
    ['/main/map', 'route.map'],
    ['/main/3dmap', 'route.map3d'],
    ['/main/trace', 'route.trace'],
  ])('%s lights %s alone', (path, key) => {
    menuAt(path);
    expect(lit()).toEqual([title(key)]);
  });

  it('the live map, the 3D map and track playback stand side by side in the menu', () => {
    menuAt('/main/map');
    const entries = screen.getAllByRole('menuitem').map((item) => item.textContent?.trim());
    const map = entries.indexOf(title('route.map'));
    expect(map).toBeGreaterThanOrEqual(0);
    expect(entries.slice(map, map + 3)).toEqual([title('route.map'), title('route.map3d'), title('route.trace')]);
  });

  it('without a map (DefaultMap NONE) none of the three is in the menu', () => {
    menuAt('/Managent/User', 'NONE');
    const entries = screen.getAllByRole('menuitem').map((item) => item.textContent?.trim());
    for (const key of ['route.map', 'route.map3d', 'route.trace']) expect(entries).not.toContain(title(key));
  });

  it('a sub-page still lights the entry it belongs to (channel members: the channel list)', () => {
    menuAt('/Channel/cmember');
    expect(lit()).toEqual([title('route.channels')]);
  });
});
