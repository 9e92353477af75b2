import type { UserImportProgress, UserImportReport } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDownload, apiRequest } from '../../../shared/api/apiClient';
import { invalidateResources } from '../../../shared/api/invalidate';
import { saveFile } from '../../../shared/api/saveFile';
import { pickLanguage } from '../../../i18n/languages';

/** A 15,000-row file with new passwords to hash takes minutes on the server, not the usual 10 s. */
const IMPORT_TIMEOUT_MS = 30 * 60_000;
/** How often the wizard asks how far a running import is. */
export const IMPORT_PROGRESS_POLL_MS = 500;

export interface ImportOptions {
  dryRun: boolean;
  skipInvalid: boolean;
  createDepartments: boolean;
}

/** The language the server names columns and errors in: the console's own. */
export function importLanguage(language: string): string {
  return pickLanguage(language, []);
}

/** `GET /api/UserInfo/ImportTemplate`: the template in the console's language, saved by the browser. */
export async function downloadTemplate(format: 'csv' | 'xlsx', language: string): Promise<void> {
  const lang = importLanguage(language);
  const file = await apiDownload('/api/UserInfo/ImportTemplate', `users-import-${lang}.${format}`, {
    query: { format, lang },
  });
  saveFile(file.blob, file.fileName);
}

/** Random hex from the CSPRNG (getRandomValues, not randomUUID: the console may be served over plain HTTP on a LAN). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** A new id for an import, so its progress can be asked for while it runs. */
export function newImportId(): string {
  return `imp-${randomHex(12)}`;
}

/**
 * `GET /api/UserInfo/ImportProgress` every IMPORT_PROGRESS_POLL_MS while the import `importId`
 * runs (null: none runs).
 */
export function useImportProgress(importId: string | null) {
  return useQuery({
    enabled: importId !== null,
    queryKey: ['UserInfo', 'ImportProgress', importId],
    queryFn: async ({ signal }) =>
      (
        await apiRequest<never, UserImportProgress>('GET', '/api/UserInfo/ImportProgress', {
          query: { importId },
          signal,
          connectionToast: false,
        })
      ).BaseData as UserImportProgress,
    refetchInterval: IMPORT_PROGRESS_POLL_MS,
    gcTime: 0,
  });
}

/**
 * The file as the multipart body the server reads (field `file`), built around the File without
 * copying it. The boundary is random per request, so no file's content can end the part early.
 */
function multipartBody(file: File, boundary: string): Blob {
  const name = file.name.replace(/["\r\n]/g, '_');
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${file.type || 'application/octet-stream'}\r\n\r\n`;
  return new Blob([head, file, `\r\n--${boundary}--\r\n`]);
}

/**
 * `POST /api/UserInfo/Import` (dry run or for real). A real import changes the user list, the
 * department tree, devices (SIMs) and the licences left.
 */
export function useImportUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { file: File; options: ImportOptions; language: string; importId: string }) => {
      const boundary = `----intercomUserImport${randomHex(12)}`;
      const answer = await apiRequest<never, UserImportReport>('POST', '/api/UserInfo/Import', {
        query: { ...input.options, lang: importLanguage(input.language), importId: input.importId },
        raw: { body: multipartBody(input.file, boundary), contentType: `multipart/form-data; boundary=${boundary}` },
        timeoutMs: IMPORT_TIMEOUT_MS,
      });
      return answer.BaseData as UserImportReport;
    },
    onSuccess: (report) => {
      if (report.written) void invalidateResources(queryClient, 'UserInfo', 'Organ', 'Device', 'Enterprise');
    },
  });
}

/** CSV text as a UTF-8 file with a BOM (so Excel reads Chinese and Japanese right), named `<name>-<time>.csv`. */
function saveCsv(csv: string, name: string): void {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  saveFile(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }), `${name}-${stamp}.csv`);
}

/** The generated passwords (CSV text from the server) as a file; the server will not send them again. */
export function savePasswords(csv: string): void {
  saveCsv(csv, 'user-passwords');
}

/** The final report (formula-safe CSV built by importReportCsv) as a file. */
export function saveImportReport(csv: string): void {
  saveCsv(csv, 'user-import-report');
}
