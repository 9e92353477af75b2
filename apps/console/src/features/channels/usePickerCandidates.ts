import { ChannelLimits, Limits } from '@intercom/contract';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { pickerPage, type PickedUser, type PickerFilter, type PickerSource } from './api';

/** Candidates per request while scrolling: the first page alone fills the list several times over. */
const CANDIDATE_PAGE = 100;
/** Requests at once when every match is fetched for "select all". */
const PARALLEL_PAGES = 4;

/** The value after it has stood still for `ms` (a search box asks once the typing pauses). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function resourceOf(source: PickerSource): string {
  return source.kind === 'channel' ? 'ChannelMember' : 'UserInfo';
}

/**
 * The picker's candidates, page by page as the list scrolls. Opening the picker asks for one page
 * of 100 however many users the enterprise has; the server searches and filters, so the browser
 * never holds 10,000 rows it was not asked for.
 */
export function usePickerCandidates(source: PickerSource, filter: PickerFilter) {
  const query = useInfiniteQuery({
    queryKey: [resourceOf(source), 'Picker', { source, filter }],
    queryFn: ({ pageParam, signal }) => pickerPage(source, filter, pageParam, CANDIDATE_PAGE, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) =>
      pages.reduce((sum, page) => sum + page.rows.length, 0) < last.total && last.rows.length > 0
        ? pages.length
        : undefined,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.rows) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;

  /** Every match of the filter (at most what one channel call takes), for "select all". */
  const fetchAll = useCallback(async (): Promise<PickedUser[]> => {
    const size = Limits.maxPageSize;
    const first = await pickerPage(source, filter, 0, size);
    const count = Math.min(first.total, ChannelLimits.membersMax);
    const pages = Math.ceil(count / size);
    const all = [first.rows];
    for (let start = 1; start < pages; start += PARALLEL_PAGES) {
      const batch = Array.from({ length: Math.min(PARALLEL_PAGES, pages - start) }, (_, i) =>
        pickerPage(source, filter, start + i, size).then((page) => page.rows),
      );
      all.push(...(await Promise.all(batch)));
    }
    return all.flat().slice(0, count);
  }, [source, filter]);

  return { query, rows, total, fetchAll };
}
