import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../i18n/locales/en.json';
import LoginPage, { missingFields } from './LoginPage';

// The app's i18n module loads its texts through the build's virtual modules; this test brings its own.
vi.mock('../../i18n/i18n', () => ({ changeLanguage: vi.fn() }));

const i18n = createInstance();
void i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

function showPage() {
  // The server is not part of these tests: every request fails as unreachable would.
  const fetch = vi.fn(() => Promise.reject(new TypeError('offline')));
  vi.stubGlobal('fetch', fetch);
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/login']}>
          <LoginPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return fetch;
}

const field = (key: string) => screen.getByLabelText(en.login[key as keyof typeof en.login]);
const requests = (fetch: ReturnType<typeof vi.fn>) =>
  fetch.mock.calls.filter(([url]) => !String(url).includes('/ICP')).length;

afterEach(() => vi.unstubAllGlobals());

describe('missingFields', () => {
  it('names empty and blank fields in page order; a password of spaces is a password', () => {
    expect(missingFields({ username: '', password: '', companyCode: '' })).toEqual([
      'username',
      'password',
      'companyCode',
    ]);
    expect(missingFields({ username: '  ', password: ' ', companyCode: '\t' })).toEqual(['username', 'companyCode']);
    expect(missingFields({ username: 'admin', password: 'x', companyCode: '100' })).toEqual([]);
  });
});

describe('LoginPage', () => {
  it('Enter on an empty form shows each translated error, marks the fields invalid and sends nothing', () => {
    const fetch = showPage();
    fireEvent.submit(field('account').closest('form')!);
    expect(screen.getByText(en.login.account_required)).toBeTruthy();
    expect(screen.getByText(en.login.password_required)).toBeTruthy();
    expect(screen.getByText(en.login.company_code_required)).toBeTruthy();
    expect(field('account').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('account'));
    expect(requests(fetch)).toBe(0);
  });

  it('an account of spaces stays an error; typing in a field clears its error only', () => {
    const fetch = showPage();
    fireEvent.change(field('account'), { target: { value: '   ' } });
    fireEvent.change(field('password'), { target: { value: 'secret' } });
    fireEvent.submit(field('account').closest('form')!);
    expect(screen.getByText(en.login.account_required)).toBeTruthy();
    expect(screen.queryByText(en.login.password_required)).toBeNull();
    expect(document.activeElement).toBe(field('account'));
    fireEvent.change(field('account'), { target: { value: 'admin' } });
    expect(screen.queryByText(en.login.account_required)).toBeNull();
    expect(field('account').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText(en.login.company_code_required)).toBeTruthy();
    expect(requests(fetch)).toBe(0);
  });

  it('the password can be shown and hidden again', () => {
    showPage();
    expect(field('password').getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: en.login.password_show }));
    expect(field('password').getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: en.login.password_hide }));
    expect(field('password').getAttribute('type')).toBe('password');
  });
});
