import type { HeartRateRow } from '@intercom/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { mergeReadings, sparklinePoints } from './HeartRateSparkline';

const asked: unknown[] = [];
vi.mock('../../shared/api/apiClient', () => ({
  getList: (path: string, options: { query: Record<string, unknown> }) => {
    asked.push([path, options.query.phone]);
    const rows: HeartRateRow[] = [70, 82, 95].map((Value, i) => ({
      HR_ID: i + 1,
      E_ID: 1,
      U_ID: 9,
      Phone: '13800000009',
      Value,
      H_Time: 1_000_000 + i * 60_000,
    }));
    return Promise.resolve({ rows, total: rows.length });
  },
}));

const { HeartRateSparkline } = await import('./HeartRateSparkline');

describe('the user card heart rate', () => {
  it('a user who reports heart rate: the history of the last hour and the live reading as a line', async () => {
    const live = { E_ID: 1, U_ID: 9, Phone: '13800000009', Value: 101, H_Time: 1_000_000 + 3 * 60_000 };
    renderWithProviders(<HeartRateSparkline phone="13800000009" live={live} />);
    const chart = await screen.findByTestId('map-card-heart-chart');
    expect(asked).toContainEqual(['/api/GISLocation/HeartRateHis', '13800000009']);
    expect(chart.querySelector('polyline')!.getAttribute('points')!.split(' ')).toHaveLength(4);
    expect(chart.getAttribute('aria-label')).toBe('Last hour: 70 to 101 bpm');
    expect(screen.getByTestId('map-card-heart-rate').textContent).toContain('101 bpm');
  });

  it('a user who reports none: a dash, and the history is not asked for', async () => {
    asked.length = 0;
    renderWithProviders(<HeartRateSparkline phone="13800000010" live={undefined} />);
    await waitFor(() => expect(screen.getByText('-')).toBeTruthy());
    expect(asked).toEqual([]);
    expect(screen.queryByTestId('map-card-heart-chart')).toBeNull();
  });

  it('the line goes up with the beats and across with time; readings merge by time', () => {
    const points = sparklinePoints(
      [
        { Value: 60, H_Time: 0 },
        { Value: 120, H_Time: 1000 },
      ],
      100,
      24,
    );
    expect(points).toBe('0.0,22.0 100.0,2.0');
    const merged = mergeReadings([], { E_ID: 1, U_ID: 1, Phone: '1', Value: 80, H_Time: 5 });
    expect(merged).toEqual([{ Value: 80, H_Time: 5 }]);
  });
});
