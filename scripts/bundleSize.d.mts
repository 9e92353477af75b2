/** One entry of apps/console/dist/.vite/manifest.json. */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export type Language = 'en' | 'zh' | 'es' | 'ja';

export interface SizedChunk {
  file: string;
  /** The manifest key: the chunk's source module, or `_<name>` for a shared chunk. */
  source: string;
  gzip: number;
}
export interface LoginMeasure {
  files: number;
  gzipKB: number;
  /** Biggest first. */
  chunks: SizedChunk[];
}
export interface BundleMeasure {
  /** The heaviest language's login route: the figure the budget applies to. */
  login: LoginMeasure & { language: Language };
  languages: Record<Language, LoginMeasure>;
  whole: { files: number; gzipKB: number };
}

export const CONSOLE_DIST: string;
export const LOGIN_GOAL_KB: number;
export const LOGIN_BUDGET_KB: number;
export const LANGUAGE_MODULES: Record<Language, RegExp[]>;
export const LOGIN_LAZY: RegExp[];
export function gzipBytes(file: string): number;
export function readManifest(dist?: string): Manifest;
export function loginRouteChunks(manifest: Manifest, language?: Language): string[];
export function measureBundle(dist?: string): BundleMeasure;
export function biggestChunks(login: LoginMeasure, count?: number): string;
export function budgetFailure(measure: BundleMeasure, budgetKB?: number): string | null;
