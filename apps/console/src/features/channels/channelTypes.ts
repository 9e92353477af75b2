import { Limits, SYS_CONFIG_DEFAULTS } from '@intercom/contract';
import type { TFunction } from 'i18next';
import { tk } from '../../i18n/tk';

/** Audio quality types of a channel (SPEC.md section 3). */
export const CHANNEL_TYPE_LABELS: Record<number, string> = {
  103: tk('channels.type_103'),
  105: tk('channels.type_105'),
  106: tk('channels.type_106'),
  107: tk('channels.type_107'),
};

/** The label key of a type; an unknown type shows its number. */
export function channelTypeLabel(t: TFunction, typeId: number): string {
  const key = CHANNEL_TYPE_LABELS[typeId];
  return key ? t(key) : t('channels.type_other', { id: typeId });
}

/** The enterprise's ChannelTypeID setting as numbers, the way the server reads it (default 106). */
export function allowedChannelTypes(setting: string | undefined): number[] {
  const known: readonly number[] = Limits.audioTypes;
  const parse = (text: string) =>
    text
      .split(',')
      .map((part) => Number(part.trim()))
      .filter((id) => known.includes(id));
  const types = parse(setting ?? '');
  return types.length > 0 ? types : parse(SYS_CONFIG_DEFAULTS.ChannelTypeID);
}
