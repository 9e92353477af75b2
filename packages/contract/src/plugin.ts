import { z } from 'zod';

/**
 * `GET /api/Plugin/Info`: the talk-agent package offered on the plugin page. Until the talk issue
 * ships it, `available` is false, `version` and `url` are null and `message` is `plugin.not_shipped`.
 */
export const pluginInfoSchema = z.object({
  name: z.string(),
  available: z.boolean(),
  version: z.string().nullable(),
  url: z.string().nullable(),
  size: z.number().int().nullable(),
  /** An i18n key saying what the page should tell the user. */
  message: z.string(),
  monitorPort: z.number().int(),
  talkPort: z.number().int(),
});
export type PluginInfo = z.infer<typeof pluginInfoSchema>;
