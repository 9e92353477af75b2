import { z } from 'zod';

/**
 * Type configs of the map (SPEC.md section 3): marked points, lines and users, each `{ID, Name,
 * Option}` with Option a JSON text. Icons are names the console maps to its bundled images, or a
 * URL (`/api/Media/Image/...`, `http(s)://...`). Sizes and anchors are pixels `[x, y]`, as Leaflet's
 * icon options and MapLibre's icon offsets use them.
 */
export const GIS_KINDS = ['point', 'line', 'user'] as const;
export type GisKind = (typeof GIS_KINDS)[number];

export const gisTypeRowSchema = z.object({ ID: z.number().int(), Name: z.string(), Option: z.string() });
export type GisTypeRow = z.infer<typeof gisTypeRowSchema>;

const pair = z.tuple([z.number(), z.number()]);

/** One icon with its geometry: anchor, size, popup anchor, shadow and its anchor and size. */
export const iconOptionSchema = z.object({
  icon: z.string().max(256),
  iconSize: pair,
  iconAnchor: pair,
  popupAnchor: pair,
  shadow: z.string().max(256).optional(),
  shadowSize: pair.optional(),
  shadowAnchor: pair.optional(),
});
export type IconOption = z.infer<typeof iconOptionSchema>;

/** Option of a point type: its icon and a colour for its label. */
export const pointOptionSchema = iconOptionSchema.extend({ color: z.string().max(32) });
/** Option of a line type: colour, width in pixels and dash pattern (empty: solid). */
export const lineOptionSchema = z.object({
  color: z.string().max(32),
  width: z.number().min(0.5).max(32),
  dash: z.array(z.number().min(0)).max(8),
});

/** States a user is drawn in, in the order the map checks them: SOS wins over talking, and so on. */
export const USER_STATES = ['sos', 'talking', 'online', 'offline', 'locked'] as const;
export type UserState = (typeof USER_STATES)[number];

/** Option of a user type: one icon per state. */
export const userTypeOptionSchema = z.object({ states: z.record(z.enum(USER_STATES), iconOptionSchema) });
export type UserTypeOption = z.infer<typeof userTypeOptionSchema>;

const marker = (icon: string): IconOption => ({
  icon,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadow: 'marker-shadow',
  shadowSize: [41, 41],
  shadowAnchor: [12, 41],
});

/** State icons of the built-in user type (ID 0) and of any user type whose Option lacks a state. */
export const DEFAULT_USER_TYPE_OPTION: UserTypeOption = {
  states: {
    sos: marker('user-sos'),
    talking: marker('user-talking'),
    online: marker('user-online'),
    offline: marker('user-offline'),
    locked: marker('user-locked'),
  },
};

/** What an enterprise gets the first time it asks for its point and line types and has none. */
export const DEFAULT_GIS_TYPES: Record<'point' | 'line', { Name: string; Option: string }[]> = {
  point: [
    { Name: 'Base', Option: JSON.stringify({ ...marker('point-base'), color: '#1677ff' }) },
    { Name: 'Checkpoint', Option: JSON.stringify({ ...marker('point-checkpoint'), color: '#52c41a' }) },
    { Name: 'Danger', Option: JSON.stringify({ ...marker('point-danger'), color: '#f5222d' }) },
  ],
  line: [
    { Name: 'Patrol route', Option: JSON.stringify({ color: '#1677ff', width: 3, dash: [] }) },
    { Name: 'Boundary', Option: JSON.stringify({ color: '#f5222d', width: 2, dash: [4, 2] }) },
  ],
};

/** The log action of storing an enterprise's default point or line types on first use. */
export const GisLogActions = { seed: 'gis_types_seed' } as const;

/** `GET /api/GISUser/GetMyType`: user types with their state icons resolved (defaults filled in). */
export const userTypeWithStatesSchema = gisTypeRowSchema.extend({ States: userTypeOptionSchema.shape.states });
export type UserTypeWithStates = z.infer<typeof userTypeWithStatesSchema>;
