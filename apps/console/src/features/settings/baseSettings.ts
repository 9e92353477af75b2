import {
  BUILTIN_MAPS,
  Limits,
  SYS_CONFIG_DEFAULTS,
  sysConfigValueSchemas,
  type FieldError,
  type SysConfigCode,
} from '@intercom/contract';
import { tk } from '../../i18n/tk';
import type { SysConfig } from '../../shared/session/SessionContext';
import type { ConfigChange } from './api';

/** The entries of the base-settings form (the images have their own upload). */
export const BASE_CODES = [
  'DefaultMap',
  'GPSServer',
  'VideoEnable',
  'RecordEnable',
  'ChannelTypeID',
  'WebChatConfig',
  'TalkMaxSeconds',
  'DispatchPriority',
] as const satisfies readonly SysConfigCode[];
type BaseCode = (typeof BASE_CODES)[number];

export type MapChoice = (typeof BUILTIN_MAPS)[number] | 'CUSTOM';
export const MAP_CHOICES: readonly MapChoice[] = [...BUILTIN_MAPS, 'CUSTOM'];

export const MAP_LABELS: Record<MapChoice, string> = {
  OFFLINE: tk('settings.map_offline'),
  OSM: tk('settings.map_osm'),
  AMAP: tk('settings.map_amap'),
  PMTILES: tk('settings.map_pmtiles'),
  NONE: tk('settings.map_none'),
  CUSTOM: tk('settings.map_custom'),
};

export const CHANNEL_TYPE_LABELS: Record<(typeof Limits.audioTypes)[number], string> = {
  103: tk('settings.channel_type_103'),
  105: tk('settings.channel_type_105'),
  106: tk('settings.channel_type_106'),
  107: tk('settings.channel_type_107'),
};

export interface BaseSettingsValues {
  mapChoice: MapChoice;
  /** The XYZ template when mapChoice is CUSTOM. */
  mapUrl: string;
  GPSServer: string;
  VideoEnable: boolean;
  RecordEnable: boolean;
  ChannelTypeID: number[];
  WebChatConfig: string;
  /** Push-to-talk: whole seconds, 5-600 (empty while the person clears the field). */
  TalkMaxSeconds: number | null;
  /** Push-to-talk: dispatcher seats' floor priority, 0-7. */
  DispatchPriority: number | null;
}

/** Which message a refused entry shows under its field. */
const INVALID_KEYS: Record<BaseCode, string> = {
  DefaultMap: tk('settings.map_url_invalid'),
  GPSServer: tk('settings.gps_server_invalid'),
  VideoEnable: tk('validation.invalid'),
  RecordEnable: tk('validation.invalid'),
  ChannelTypeID: tk('settings.channel_types_required'),
  WebChatConfig: tk('settings.webchat_invalid'),
  TalkMaxSeconds: tk('settings.talk_max_seconds_invalid'),
  DispatchPriority: tk('settings.dispatch_priority_invalid'),
};

/** The form field a refused entry is shown under. */
export const FIELD_OF_CODE: Record<string, string> = { DefaultMap: 'mapUrl' };

function valueOf(config: SysConfig | undefined, code: BaseCode): string {
  return config?.[code] ?? SYS_CONFIG_DEFAULTS[code];
}

export function baseFormValues(config: SysConfig | undefined): BaseSettingsValues {
  const map = valueOf(config, 'DefaultMap');
  const builtin = (BUILTIN_MAPS as readonly string[]).includes(map);
  const types = valueOf(config, 'ChannelTypeID')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  return {
    mapChoice: builtin ? (map as MapChoice) : 'CUSTOM',
    mapUrl: builtin ? '' : map,
    GPSServer: valueOf(config, 'GPSServer'),
    VideoEnable: valueOf(config, 'VideoEnable') === 'TRUE',
    RecordEnable: valueOf(config, 'RecordEnable') === 'TRUE',
    ChannelTypeID: types,
    WebChatConfig: valueOf(config, 'WebChatConfig'),
    TalkMaxSeconds: Number(valueOf(config, 'TalkMaxSeconds')),
    DispatchPriority: Number(valueOf(config, 'DispatchPriority')),
  };
}

/** A number field as the setting's text; empty when cleared, so the contract's check refuses it. */
const numberText = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/** The stored text of every entry, as ModifyConfig takes it. */
export function baseConfigValues(values: BaseSettingsValues): Record<BaseCode, string> {
  const types = [...(values.ChannelTypeID ?? [])].sort((a, b) => a - b);
  return {
    DefaultMap: values.mapChoice === 'CUSTOM' ? (values.mapUrl ?? '').trim() : values.mapChoice,
    GPSServer: (values.GPSServer ?? '').trim(),
    VideoEnable: values.VideoEnable ? 'TRUE' : 'FALSE',
    RecordEnable: values.RecordEnable ? 'TRUE' : 'FALSE',
    ChannelTypeID: types.join(','),
    WebChatConfig: (values.WebChatConfig ?? '').trim(),
    TalkMaxSeconds: numberText(values.TalkMaxSeconds),
    DispatchPriority: numberText(values.DispatchPriority),
  };
}

/** The contract's validator of each entry, each failure under the field that holds it. */
export function validateBaseSettings(values: BaseSettingsValues): FieldError[] {
  const config = baseConfigValues(values);
  return BASE_CODES.filter((code) => !sysConfigValueSchemas[code].safeParse(config[code]).success).map((code) => ({
    field: FIELD_OF_CODE[code] ?? code,
    key: INVALID_KEYS[code],
  }));
}

/** Only the entries that differ from what is in force are sent. */
export function baseConfigChanges(values: BaseSettingsValues, config: SysConfig | undefined): ConfigChange[] {
  const next = baseConfigValues(values);
  // Compared in the same normal form: "106,103" in force and 103 + 106 ticked are no change.
  const now = baseConfigValues(baseFormValues(config));
  return BASE_CODES.filter((code) => next[code] !== now[code]).map((code) => ({ code, value: next[code] }));
}
