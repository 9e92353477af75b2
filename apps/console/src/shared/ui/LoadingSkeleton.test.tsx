import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { Spin } from 'antd';
import { AntdConfig } from './AntdConfig';
import { FullPageSpin } from './FullPageSpin';
import { LoadingSkeleton } from './LoadingSkeleton';
import { LOADING_DELAY_MS } from './useShownAfter';

describe('loading indicators', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a skeleton says it is loading at once and draws its lines only after the delay', () => {
    const { container } = renderWithProviders(<LoadingSkeleton rows={4} />);
    expect(screen.getByRole('status', { name: 'Loading…' }).getAttribute('aria-busy')).toBe('true');
    expect(container.querySelector('.ant-skeleton')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(LOADING_DELAY_MS - 1);
    });
    expect(container.querySelector('.ant-skeleton')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(container.querySelectorAll('.ant-skeleton-paragraph li')).toHaveLength(4);
    // Still lines: a shimmer would repaint them at every frame while the page loads.
    expect(container.querySelector('.ant-skeleton-active')).toBeNull();
  });

  it('the page spinner shows its text only once the load has taken a moment', () => {
    const { container } = renderWithProviders(<FullPageSpin />);
    expect(container.querySelector('[role="status"][aria-busy="true"]')).not.toBeNull();
    expect(screen.queryByText('Loading…')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(LOADING_DELAY_MS);
    });
    expect(screen.getByText('Loading…')).toBeTruthy();
  });

  it("antd's spinners show the app's stepped ring, not antd's four dots", () => {
    const { container } = renderWithProviders(
      <AntdConfig>
        <Spin spinning />
      </AntdConfig>,
    );
    const indicator = container.querySelector('.ant-spin .ant-spin-dot');
    expect(indicator?.tagName).toBe('SPAN');
    expect(indicator?.className).toMatch(/indicator/);
    expect(container.querySelectorAll('.ant-spin-dot-item')).toHaveLength(0);
  });

  it('nothing is left running once the load ends first', () => {
    const { unmount } = renderWithProviders(<LoadingSkeleton rows={2} />);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
