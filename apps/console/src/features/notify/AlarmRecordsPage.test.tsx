import { AlarmDetailKeys, type NotifyRow } from '@intercom/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../i18n/locales/en.json';
import zh from '../../i18n/locales/zh.json';
import { ToastProvider } from '../../shared/ui/ToastContext';
import AlarmRecordsPage from './AlarmRecordsPage';

const base: NotifyRow = {
  N_ID: 1,
  E_ID: 1,
  U_ID: 7,
  UserName: 'Wang',
  Phone: '13800000007',
  NType: 'SOS',
  Content: '',
  Latitude: null,
  Longitude: null,
  State: 'new',
  AckBy: null,
  AckName: '',
  AckAt: null,
  AckComment: '',
  HandledBy: null,
  HandledName: '',
  HandledAt: null,
  Comment: '',
  CreatedAt: Date.UTC(2026, 11, 6, 8, 0),
  Escalated: 0,
  Detail: null,
};

const ROWS: NotifyRow[] = [
  {
    ...base,
    N_ID: 1,
    NType: 'LoneWorker',
    Content: 'Check-in missed (due 2 min ago)',
    Detail: { key: AlarmDetailKeys.checkInMissed, params: { minutes: 2 } },
  },
  {
    ...base,
    N_ID: 2,
    NType: 'NoMovement',
    Content: 'No movement beyond 20 m for 3 min',
    Detail: { key: AlarmDetailKeys.noMovement, params: { meters: 20, minutes: 3 } },
  },
  // Stored before details had keys: its English text shows as it is.
  { ...base, N_ID: 3, NType: 'Offline', Content: 'Connection lost' },
  // A key this console does not know yet (a newer server): the text it sent.
  { ...base, N_ID: 4, NType: 'ManDown', Content: 'Fell twice', Detail: { key: 'alarms.detail.future', params: {} } },
];

function serve(rows: NotifyRow[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ BaseResult: { Code: 8888, Message: '' }, Data: rows, Total: rows.length }), {
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    ),
  );
}

function renderIn(language: 'en' | 'zh') {
  const i18n = createInstance();
  void i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: { en: { translation: en }, zh: { translation: zh } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <ToastProvider>
            <AlarmRecordsPage />
          </ToastProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

/** The texts of one row, as a person reads them across the table. */
async function rowOf(text: string): Promise<string> {
  const cell = await screen.findByText(text);
  return within(cell.closest('tr')!)
    .getAllByRole('cell')
    .map((c) => c.textContent ?? '')
    .join(' | ');
}

afterEach(() => vi.unstubAllGlobals());

describe('the alarm records in the reader language', () => {
  it('names safety alarms and writes their details in Chinese; old rows keep their text', async () => {
    serve(ROWS);
    renderIn('zh');
    expect(await rowOf('未按时报到（已超时 2 分钟）')).toContain('独自作业');
    expect(await rowOf('3 分钟内移动未超过 20 米')).toContain('静止不动');
    expect(await rowOf('Connection lost')).toContain('离线');
    expect(await rowOf('Fell twice')).toContain('人员倒地');
    expect(screen.queryByText('LoneWorker')).toBeNull();
    expect(screen.queryByText('NoMovement')).toBeNull();
  });

  it('writes the same details in English for an English reader', async () => {
    serve(ROWS);
    renderIn('en');
    expect(await rowOf('Check-in missed (due 2 min ago)')).toContain('Lone worker');
    expect(await rowOf('No movement beyond 20 m for 3 min')).toContain('No movement');
  });
});
