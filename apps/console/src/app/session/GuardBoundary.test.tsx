import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { english, renderWithProviders } from '../../../test/renderWithProviders';
import AuthenticatedApp from '../AuthenticatedApp';
import { GuardBoundary } from './GuardBoundary';

// The account and its settings load fine; the route table is what breaks.
const breakGuard = vi.hoisted(() => ({ resolve: vi.fn<() => boolean>() }));
vi.mock('../../features/account', () => ({
  useLoginInfo: () => ({ data: { role: 'dispatcher', HasChildren: false }, isError: false }),
  useSysConfig: () => ({ data: {}, isPending: false }),
}));
vi.mock('../routeTable', () => ({
  routeTable: [{ path: '/dashboard', title: 'menu.dashboard', hidden: () => breakGuard.resolve() }],
}));
vi.mock('../../shared/hub/LiveHubConnection', () => ({ LiveHubConnection: () => null }));
// Not under test; starting it would import the browser audio module lazily, after the test has ended.
vi.mock('../../talk/TalkConnection', () => ({ TalkConnection: () => null }));
vi.mock('../../i18n/i18n', () => ({ syncDateLocale: () => Promise.resolve() }));
vi.mock('../layout/AppLayout', () => ({ AppLayout: () => <main data-testid="layout" /> }));

afterEach(() => {
  vi.restoreAllMocks();
  breakGuard.resolve.mockReset();
});

describe('the route guard failing', () => {
  it('shows "Has Error" with a retry instead of a blank page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    breakGuard.resolve.mockImplementation(() => {
      throw new Error('role table broken');
    });
    renderWithProviders(
      <GuardBoundary>
        <AuthenticatedApp />
      </GuardBoundary>,
    );
    expect(english('session.guard_error')).toBe('Has Error');
    expect(screen.getByText('Has Error')).toBeTruthy();
    expect(screen.getByRole('button', { name: english('session.relogin') })).toBeTruthy();

    // Try again resolves the routes afresh: once they resolve, the error is gone.
    breakGuard.resolve.mockReturnValue(false);
    fireEvent.click(screen.getByRole('button', { name: english('common.retry') }));
    expect(screen.queryByText('Has Error')).toBeNull();
    expect(screen.getByTestId('layout')).toBeTruthy();
  });
});
