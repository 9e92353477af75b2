import { z } from 'zod';
import { Limits } from './limits.js';

/**
 * Basemaps of DESIGN.md section 8; any other value must be an XYZ URL template. PMTILES draws the
 * archive the operator names in BASEMAP_PMTILES (the offline outlines when there is none).
 */
export const BUILTIN_MAPS = ['OFFLINE', 'OSM', 'AMAP', 'PMTILES', 'NONE'] as const;

const booleanText = z.enum(['TRUE', 'FALSE']);
const xyzUrl = z
  .string()
  .max(512)
  .regex(/^https?:\/\/[^\s]+$/)
  .refine((v) => v.includes('{z}') && v.includes('{x}') && v.includes('{y}'));

/** Validators of the system config entries (SPEC.md section 3), keyed by their Code. */
export const sysConfigValueSchemas = {
  VideoEnable: booleanText,
  RecordEnable: booleanText,
  ChannelTypeID: z
    .string()
    .max(64)
    .refine((v) => {
      const parts = v.split(',').map((p) => p.trim());
      const allowed: readonly string[] = Limits.audioTypes.map(String);
      return parts.length > 0 && parts.every((p) => allowed.includes(p)) && new Set(parts).size === parts.length;
    }),
  WebChatConfig: z
    .string()
    .max(4096)
    .refine((v) => {
      if (v === '') return true;
      try {
        const parsed: unknown = JSON.parse(v);
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
      } catch {
        return false;
      }
    }),
  DefaultMap: z.union([z.enum(BUILTIN_MAPS), xyzUrl]),
  SubjectBg: z
    .string()
    .max(128)
    .regex(/^$|^[a-z0-9_-]+\.(png|jpg|webp)$/),
  SubjectLogo: z
    .string()
    .max(128)
    .regex(/^$|^[a-z0-9_-]+\.(png|jpg|webp)$/),
  GPSServer: z
    .string()
    .max(256)
    .regex(/^$|^[A-Za-z0-9.:/_-]+$/),
  /** Push-to-talk: seconds one talker may hold a floor before it is revoked (`timeout`), 5-600. */
  TalkMaxSeconds: z
    .string()
    .regex(/^\d{1,3}$/)
    .refine((v) => Number(v) >= 5 && Number(v) <= 600),
  /** Push-to-talk: the floor priority of the enterprise's dispatcher seats, 0-7 (larger is higher). */
  DispatchPriority: z.string().regex(/^[0-7]$/),
} as const;

export type SysConfigCode = keyof typeof sysConfigValueSchemas;
export const SYS_CONFIG_CODES = Object.keys(sysConfigValueSchemas) as SysConfigCode[];

/** Defaults an enterprise gets before anyone changes a setting. */
export const SYS_CONFIG_DEFAULTS: Record<SysConfigCode, string> = {
  VideoEnable: 'FALSE',
  RecordEnable: 'FALSE',
  ChannelTypeID: '106',
  WebChatConfig: '',
  DefaultMap: 'OFFLINE',
  SubjectBg: '',
  SubjectLogo: '',
  GPSServer: '',
  TalkMaxSeconds: '60',
  DispatchPriority: '7',
};

export const sysConfigEntrySchema = z.object({ Code: z.string(), Value: z.string() });
export type SysConfigEntry = z.infer<typeof sysConfigEntrySchema>;

/** `POST /api/Account/ModifyConfig` (form or JSON body, or query). */
export const modifyConfigSchema = z.object({
  scCode: z.string().min(1).max(64),
  scValue: z.string().max(4096),
});

/** True when the map route is hidden (SPEC.md section 2: the setting contains NONE). */
export function mapHidden(defaultMap: string | undefined): boolean {
  return (defaultMap ?? '').toUpperCase().includes('NONE');
}
