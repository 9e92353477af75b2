import { render } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mediaQueryList } from '../../../test/mediaQueryList';
import { AntdConfig } from './AntdConfig';

/** The system's motion setting as the browser reports it. */
function systemReducesMotion(reduce: boolean): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    mediaQueryList(query, reduce && query === '(prefers-reduced-motion: reduce)'),
  );
}

/** The motion antd's components read under AntdConfig (false: dialogs, menus and toasts appear at once). */
function antdMotion(): boolean | undefined {
  let motion: boolean | undefined;
  function Read() {
    motion = theme.useToken().token.motion;
    return null;
  }
  render(
    <AntdConfig>
      <Read />
    </AntdConfig>,
  );
  return motion;
}

describe('AntdConfig', () => {
  afterEach(() => vi.restoreAllMocks());

  it('animates by default', () => {
    systemReducesMotion(false);
    expect(antdMotion()).toBe(true);
  });

  it("turns antd's motion off where the system asks to reduce motion", () => {
    systemReducesMotion(true);
    expect(antdMotion()).toBe(false);
  });
});
