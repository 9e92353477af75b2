import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** A user feature as the users source holds it. */
export interface MapUserFeature {
  id: number;
  coordinates: [number, number];
  state: string;
  name: string;
}

/** The renderer WebGL reports in this page (SwiftShader here: a silent fallback must fail the test). */
export function webglRenderer(page: Page): Promise<string> {
  return page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'none';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  });
}

/** Waits until the MapLibre map of the page has loaded its style. */
export async function waitForMap(page: Page): Promise<void> {
  await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor();
}

/** What the map's users source holds for one user (undefined: not on the map). */
export function mapUser(page: Page, userId: number): Promise<MapUserFeature | undefined> {
  return page.evaluate(async (id) => {
    interface Source {
      getData(): Promise<{
        features: { id: number; geometry: { coordinates: [number, number] }; properties: Record<string, string> }[];
      }>;
    }
    const element = document.querySelector('[data-testid="map-canvas"]') as
      (HTMLElement & { maplibre?: { getSource(id: string): Source | undefined } }) | null;
    const source = element?.maplibre?.getSource('users');
    if (!source) return undefined;
    const feature = (await source.getData()).features.find((candidate) => candidate.id === id);
    return feature
      ? {
          id,
          coordinates: feature.geometry.coordinates,
          state: feature.properties.state!,
          name: feature.properties.name!,
        }
      : undefined;
  }, userId);
}

/** Polls until the user is on the map and `check` holds for it. */
export async function expectMapUser(
  page: Page,
  userId: number,
  check: (feature: MapUserFeature) => boolean,
  what: string,
) {
  await expect
    .poll(
      async () => {
        const feature = await mapUser(page, userId);
        return feature !== undefined && check(feature);
      },
      { message: what },
    )
    .toBe(true);
}

/** Waits until the camera has stopped and every tile is drawn (before a screenshot). */
export async function waitForMapIdle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
          maplibre: { isMoving(): boolean; loaded(): boolean; once(event: string, listener: () => void): void };
        };
        const map = element.maplibre;
        if (!map.isMoving() && map.loaded()) resolve();
        else map.once('idle', () => resolve());
      }),
  );
}
