/** Refusal reasons with a text of their own (`talk:denied.<reason>`); any other code reads `failed`. */
const DENIED = [
  'busy',
  'no_mic',
  'no_channel',
  'not_member',
  'not_joined',
  'not_found',
  'timeout',
  'closed',
  'not_connected',
  'failed',
] as const;

export type DeniedReason = (typeof DENIED)[number];

export function deniedReason(code: string): DeniedReason {
  return (DENIED as readonly string[]).includes(code) ? (code as DeniedReason) : 'failed';
}
