import { Limits } from '@intercom/contract';
import { getList, type QueryValues } from './apiClient';

/**
 * Every row of a list path, read a page of the largest size at a time: at most `maxPages` pages,
 * so a list far longer than expected cannot keep the browser fetching.
 */
export async function getAllPages<T>(
  path: string,
  { query = {}, signal, maxPages }: { query?: QueryValues; signal: AbortSignal; maxPages: number },
): Promise<T[]> {
  const rows: T[] = [];
  for (let pageIndex = 0; pageIndex < maxPages; pageIndex += 1) {
    const page = await getList<T>(path, { query: { ...query, pageIndex, pageSize: Limits.maxPageSize }, signal });
    rows.push(...page.rows);
    if (page.rows.length < Limits.maxPageSize || rows.length >= page.total) break;
  }
  return rows;
}
