import { z } from 'zod';
import { MessageKeys } from './messages.js';

/** Kinds of basemap the console draws (DESIGN.md section 8); `XYZ` is a DefaultMap that is a URL template. */
export const BASEMAP_KINDS = ['OFFLINE', 'OSM', 'AMAP', 'XYZ', 'PMTILES', 'NONE'] as const;
export type BasemapKind = (typeof BASEMAP_KINDS)[number];

/** Zoom levels the server cuts offline vector tiles for; the console overzooms beyond. */
export const OFFLINE_TILE_MAXZOOM = 10;
/** Source layers of an offline tile (`/basemap/{z}/{x}/{y}.pbf`). */
export const OFFLINE_TILE_LAYERS = {
  land: 'land',
  countries: 'countries',
  boundaries: 'boundaries',
  /** One point per country, where its name is drawn (the pole of inaccessibility of its largest part). */
  countryLabels: 'country_labels',
} as const;
/** The interface languages, in a zod-free module of their own (the login page reads them). */
export { INTERFACE_LANGUAGES } from './interfaceLanguages.js';
/** The font stack the server serves glyphs for (`/basemap/fonts/{fontstack}/{start}-{end}.pbf`). */
export const BASEMAP_FONT = 'Noto Sans Regular';

/** `GET /api/Map/Basemap`: what the console needs to build its MapLibre style. */
export const basemapSchema = z.object({
  kind: z.enum(BASEMAP_KINDS),
  /** Tile URL templates ({z}/{x}/{y}); relative URLs are on this server. Vector for OFFLINE, raster otherwise. */
  tiles: z.array(z.string()).optional(),
  tileSize: z.number().int().optional(),
  maxzoom: z.number().int().optional(),
  /** PMTILES: the archive, served with Range requests. */
  pmtilesUrl: z.string().optional(),
  /** What the map must show as attribution (may be empty for NONE). */
  attribution: z.string(),
  /** Glyph URL template for MapLibre (`{fontstack}`, `{range}`), on this server. */
  glyphs: z.string(),
  /** The tiles are in GCJ-02 (AMap): the console shifts every WGS-84 point with `wgs84ToGcj02`. */
  gcj02: z.boolean(),
});
export type Basemap = z.infer<typeof basemapSchema>;

/** A decimal number in a query string ("" or "1e3" or "NaN" are refused), within [min, max]. */
const coordinate = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^[-+]?\d{1,3}(\.\d{1,12})?$/, { error: MessageKeys.invalid })
    .transform(Number)
    .pipe(z.number().min(min, { error: MessageKeys.outOfRange }).max(max, { error: MessageKeys.outOfRange }));

/** `GET /api/Map/ReverseGeocode?U_ID=&lat=&lon=`: lat and lon come together or not at all. */
export const reverseGeocodeQuerySchema = z
  .object({
    U_ID: z.coerce.number().int().min(1).max(2_147_483_647),
    lat: coordinate(-90, 90).optional(),
    lon: coordinate(-180, 180).optional(),
  })
  .refine((q) => (q.lat === undefined) === (q.lon === undefined), {
    error: MessageKeys.required,
    path: ['lon'],
  });
export type ReverseGeocodeQuery = z.infer<typeof reverseGeocodeQuerySchema>;

/** Why `address` is null: no geocoder configured, the geocoder failed, or the user has no position. */
export const GEOCODE_REASONS = ['not_configured', 'failed', 'no_position'] as const;
export type GeocodeReason = (typeof GEOCODE_REASONS)[number];

export const reverseGeocodeSchema = z.object({
  address: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  reason: z.enum(GEOCODE_REASONS).optional(),
});
export type ReverseGeocode = z.infer<typeof reverseGeocodeSchema>;
