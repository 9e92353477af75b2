import type { LoginInfo, Statistics } from '@intercom/contract';
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { english, renderWithProviders } from '../../../test/renderWithProviders';
import { SessionContext } from '../../shared/session/SessionContext';
import { FirstRunChecklist } from './FirstRunChecklist';
import { firstRunKey } from './firstRunState';

const fresh: Statistics = {
  User: 0,
  Organ: 0,
  Channel: 0,
  Balance: 100,
  ChannelSum: 0,
  RecordSum: 0,
  Online: 0,
  Enterprise: 1,
};
const info = { E_ID: 7, A_ID: 3, account: 'admin', name: 'Admin' } as unknown as LoginInfo;

function show(stats: Statistics) {
  return renderWithProviders(
    <SessionContext value={{ info, sysConfig: {}, routes: [] }}>
      <FirstRunChecklist stats={stats} />
    </SessionContext>,
  );
}
const done = (step: string) => screen.getByTestId(`first-run-${step}`).getAttribute('data-done');

beforeEach(() => window.localStorage.clear());

describe('the first-run checklist', () => {
  it('a fresh enterprise: five steps, none ticked, 0 of 5', () => {
    show(fresh);
    for (const step of ['departments', 'users', 'channel', 'download', 'map']) expect(done(step)).toBe('false');
    expect(screen.getByText(english('dashboard.first_run.progress', { done: 0, total: 5 }))).toBeTruthy();
  });

  it('steps tick from the real counts; the map ticks once opened from here, and stays so', () => {
    const view = show({ ...fresh, Organ: 2, Channel: 1 });
    expect([done('departments'), done('users'), done('channel')]).toEqual(['true', 'false', 'true']);
    fireEvent.click(screen.getByText(english('dashboard.first_run.map_action')));
    expect(done('map')).toBe('true');
    view.unmount();
    show({ ...fresh, Organ: 2, Channel: 1 });
    expect(done('map')).toBe('true');
  });

  it('dismissed, it stays hidden for this account, but not for another', () => {
    const view = show(fresh);
    fireEvent.click(screen.getByTestId('first-run-dismiss'));
    expect(screen.queryByTestId('first-run')).toBeNull();
    view.unmount();
    show(fresh);
    expect(screen.queryByTestId('first-run')).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(firstRunKey(7, 3))!)).toMatchObject({ dismissed: true });
    expect(window.localStorage.getItem(firstRunKey(7, 4))).toBeNull();
  });

  it('all done: it goes by itself', () => {
    window.localStorage.setItem(firstRunKey(7, 3), JSON.stringify({ download: true, map: true }));
    show({ ...fresh, Organ: 1, User: 1, Channel: 1 });
    expect(screen.queryByTestId('first-run')).toBeNull();
  });
});
