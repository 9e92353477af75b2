import type { Page } from 'playwright-core';

/** The camera of the page's MapLibre map, as MapLibre reports it. */
export interface MapCamera {
  zoom: number;
  lon: number;
  lat: number;
  bearing: number;
  pitch: number;
  projection: string;
}

export function mapCamera(page: Page): Promise<MapCamera> {
  return page.evaluate(() => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: {
        getZoom(): number;
        getCenter(): { lng: number; lat: number };
        getBearing(): number;
        getPitch(): number;
        getProjection(): { type?: string } | undefined;
      };
    };
    const map = element.maplibre;
    const center = map.getCenter();
    return {
      zoom: map.getZoom(),
      lon: center.lng,
      lat: center.lat,
      bearing: map.getBearing(),
      pitch: map.getPitch(),
      projection: map.getProjection()?.type ?? 'mercator',
    };
  });
}

/**
 * The camera the address bar's hash holds, as MapLibre's `hash` option writes it
 * (`#zoom/lat/lon[/bearing[/pitch]]`), or undefined when the hash holds none.
 */
export function cameraInUrl(url: string): Omit<MapCamera, 'projection'> | undefined {
  const parts = new URL(url).hash.replace(/^#/, '').split('/').map(Number);
  if (parts.length < 3 || parts.some(Number.isNaN)) return undefined;
  const [zoom, lat, lon, bearing = 0, pitch = 0] = parts as [number, number, number, number?, number?];
  return { zoom, lat, lon, bearing, pitch };
}

/** Counts the frames the page's map draws from now on; the returned function reads the count. */
export async function countMapFrames(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: { on(event: string, listener: () => void): void };
    };
    const counter = { frames: 0 };
    element.maplibre.on('render', () => counter.frames++);
    (window as unknown as { mapFrames: typeof counter }).mapFrames = counter;
  });
  return () => page.evaluate(() => (window as unknown as { mapFrames: { frames: number } }).mapFrames.frames);
}

/** The state of the column the 3D map draws for the user (undefined: none drawn). */
export function columnOf(page: Page, userId: number): Promise<string | undefined> {
  return page.evaluate((id) => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: {
        getLayer(id: string): unknown;
        queryRenderedFeatures(options: {
          layers: string[];
        }): { properties: { id: number; cluster: boolean; state: string } }[];
      };
    };
    const map = element.maplibre;
    if (!map.getLayer('user-columns')) return undefined;
    const column = map
      .queryRenderedFeatures({ layers: ['user-columns'] })
      .find((feature) => !feature.properties.cluster && feature.properties.id === id);
    return column?.properties.state;
  }, userId);
}

/**
 * The middle of the footprint of the column the 3D map draws for the user ([lon, lat]; undefined:
 * none drawn). A column across a tile's edge comes in pieces: the middle of all of them.
 */
export function columnPlace(page: Page, userId: number): Promise<[number, number] | undefined> {
  return page.evaluate((id) => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: {
        getLayer(id: string): unknown;
        queryRenderedFeatures(options: { layers: string[] }): {
          properties: { id: number; cluster: boolean };
          geometry: { type: string; coordinates: number[][][] };
        }[];
      };
    };
    const map = element.maplibre;
    if (!map.getLayer('user-columns')) return undefined;
    const points = map
      .queryRenderedFeatures({ layers: ['user-columns'] })
      .filter((feature) => !feature.properties.cluster && feature.properties.id === id)
      .flatMap((feature) => (feature.geometry.type === 'Polygon' ? (feature.geometry.coordinates[0] ?? []) : []));
    if (points.length === 0) return undefined;
    const lons = points.map((point) => point[0]!);
    const lats = points.map((point) => point[1]!);
    return [(Math.min(...lons) + Math.max(...lons)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2];
  }, userId);
}
