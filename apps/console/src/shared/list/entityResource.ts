import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiDownload, getList, type QueryValues } from '../api/apiClient';
import { saveFile } from '../api/saveFile';
import { listQuery, type ListParams } from './listParams';

export type ExportFormat = 'csv' | 'xlsx';

/** One entity of the generic machinery: `/api/{name}/QueryData`, `ExportData`, ... */
export interface EntityResource<T> {
  name: string;
  /** The field that identifies a row (the table's row key). */
  rowKey: keyof T & string;
  /** The server's default order, shown as the table's sort indicator while none is chosen. */
  defaultOrder?: { field: keyof T & string; desc: boolean };
  /** Where pages come from, when not `/api/{name}/QueryData` (same parameters and answer). */
  queryPath?: string;
  /** The query string of `queryPath`, when it takes other parameters than QueryData's. */
  toQuery?: (params: ListParams) => QueryValues;
}

export function entityResource<T>(resource: EntityResource<T>): EntityResource<T> {
  return resource;
}

/** One page of an entity; the previous page stays visible while the next one loads. */
export function useEntityPage<T>(resource: EntityResource<T>, params: ListParams) {
  return useQuery({
    queryKey: [resource.name, 'QueryData', params],
    queryFn: ({ signal }) =>
      getList<T>(resource.queryPath ?? `/api/${resource.name}/QueryData`, {
        query: resource.toQuery ? resource.toQuery(params) : listQuery(params),
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Exports may stream many rows: a longer timeout than the 10 s of ordinary calls. */
const EXPORT_TIMEOUT_MS = 120_000;

/** Downloads the filtered, ordered rows as CSV or XLSX and hands the file to the browser. */
export async function exportEntity<T>(resource: EntityResource<T>, params: ListParams, format: ExportFormat) {
  const stamp = new Date().toISOString().slice(0, 10);
  const file = await apiDownload(`/api/${resource.name}/ExportData`, `${resource.name}-${stamp}.${format}`, {
    // Times in the file read as this browser's wall clock.
    query: { ...listQuery(params, false), format, utcOffset: -new Date().getTimezoneOffset() },
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  saveFile(file.blob, file.fileName);
}
