import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useListSelection } from './useListSelection';

interface Row {
  id: number;
  name: string;
}

const alpha: Row = { id: 1, name: 'Alpha' };
const beta: Row = { id: 2, name: 'Beta' };

describe('useListSelection', () => {
  it('keeps the rows ticked on an earlier page when antd hands them back unknown', () => {
    const { result } = renderHook(() => useListSelection<Row>('id'));
    act(() => result.current.onChange([1], [alpha]));
    // On the next page antd knows only its own rows: the one of page 1 comes as undefined.
    act(() => result.current.onChange([1, 2], [undefined as unknown as Row, beta]));
    expect(result.current.keys).toEqual([1, 2]);
    expect(result.current.rows.map((row) => row.name)).toEqual(['Alpha', 'Beta']);
    act(() => result.current.drop([1]));
    expect(result.current.keys).toEqual([2]);
    expect(result.current.rows).toEqual([beta]);
  });

  it('clears the ticks when the scope changes (another working enterprise)', () => {
    const { result, rerender } = renderHook(({ scope }) => useListSelection<Row>('id', scope), {
      initialProps: { scope: 10 },
    });
    act(() => result.current.onChange([1, 2], [alpha, beta]));
    rerender({ scope: 10 });
    expect(result.current.keys).toEqual([1, 2]);
    rerender({ scope: 11 });
    expect(result.current.keys).toEqual([]);
    expect(result.current.rows).toEqual([]);
  });
});
