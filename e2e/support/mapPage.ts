import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Credentials } from './accounts.js';
import { signInByApi } from './apiLogin.js';
import { hamburger, open } from './console.js';
import { text, type Language } from './texts.js';

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

/**
 * How long a map may take to load its style. MapLibre's first program link waits for SwiftShader, the
 * CPU that draws the page for the GPU process; on a 2.1 GHz machine running the test suite that took
 * longer than the 10 s any other wait gets (stop 44's CI). docs/benchmarks.md, goal 6, has the figures.
 */
export const MAP_LOAD_TIMEOUT_MS = 60_000;

/** Waits until the MapLibre map of the page has loaded its style. */
export async function waitForMap(page: Page): Promise<void> {
  await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor({ timeout: MAP_LOAD_TIMEOUT_MS });
}

/**
 * Signs in and opens a page with a map at `path`, then waits for its map and its layout. The layout
 * shows in the same commit as the map's page (its code is preloaded beside the settings), and the
 * map is made right after: on a loaded CI the main thread spent that commit, MapLibre's start and
 * its first program link in one stretch, and the layout's menu button was seen after 10 s (twice
 * in 84861f9's CI). So the whole opening gets the map's timeout, not the 10 s of a plain page.
 */
export async function openMapSignedIn(page: Page, credentials: Credentials, path: string, language: Language = 'en') {
  await signInByApi(page, credentials);
  await open(page, path);
  await waitForMap(page);
  await hamburger(page, language).waitFor();
}

/** What the map's users tiles hold for one user (undefined: not on the map). */
export function mapUser(page: Page, userId: number): Promise<MapUserFeature | undefined> {
  return page.evaluate(async (id) => {
    interface Probe {
      user(userId: number): Promise<{ lon: number; lat: number; name: string; state: string } | undefined>;
    }
    const element = document.querySelector<HTMLElement & { mapUsers?: Probe }>('[data-testid="map-canvas"]');
    const user = await element?.mapUsers?.user(id);
    return user
      ? { id, coordinates: [user.lon, user.lat] as [number, number], state: user.state, name: user.name }
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

/** Ids of the users whose name is drawn now, in the users' labels and in the selected user's label. */
export async function labelledUsers(page: Page): Promise<{ users: number[]; selected: number[] }> {
  return page.evaluate(() => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: { queryRenderedFeatures(options: { layers: string[] }): { id?: number | string }[] };
    };
    const ids = (layer: string) =>
      element.maplibre.queryRenderedFeatures({ layers: [layer] }).map((feature) => Number(feature.id));
    return { users: ids('users-labels'), selected: ids('selected-user-label') };
  });
}

/**
 * Moves the camera to `center` at `zoom` at once, waits until the map is idle, and clicks the
 * canvas as a dispatcher clicks a circle: where `center` is drawn, or with `cluster`, on the
 * cluster of users drawn nearest to it. Throws when there is no cluster to click.
 */
export async function clickOnMap(page: Page, center: [number, number], zoom: number, cluster = false): Promise<void> {
  await page.evaluate(
    ({ center, zoom }) => {
      const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
        maplibre: { jumpTo(options: { center: [number, number]; zoom: number }): void };
      };
      element.maplibre.jumpTo({ center, zoom });
    },
    { center, zoom },
  );
  await waitForMapIdle(page);
  const point = await page.evaluate(
    ({ center, cluster }) => {
      interface Rendered {
        geometry: { type: string; coordinates: [number, number] };
        properties: Record<string, unknown>;
      }
      const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
        maplibre: {
          project(lngLat: [number, number]): { x: number; y: number };
          queryRenderedFeatures(options: { layers: string[] }): Rendered[];
        };
      };
      const map = element.maplibre;
      const at = map.project(center);
      if (!cluster) return at;
      const drawn = map
        .queryRenderedFeatures({ layers: ['users-circles'] })
        .filter((feature) => feature.properties.point_count !== undefined)
        .map((feature) => map.project(feature.geometry.coordinates));
      drawn.sort((a, b) => Math.hypot(a.x - at.x, a.y - at.y) - Math.hypot(b.x - at.x, b.y - at.y));
      return drawn[0];
    },
    { center, cluster },
  );
  if (!point) throw new Error(`no cluster drawn near ${center.join(', ')} at zoom ${zoom}`);
  await page.locator('[data-testid="map-canvas"] canvas').click({ position: { x: point.x, y: point.y } });
}

/** The zoom of the page's map. */
export function mapZoom(page: Page): Promise<number> {
  return page.evaluate(() => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: { getZoom(): number };
    };
    return element.maplibre.getZoom();
  });
}

/** Where the selected user is drawn, in page pixels (after the camera stopped), or undefined when none is. */
export async function selectedUserOnPage(page: Page): Promise<{ x: number; y: number } | undefined> {
  await waitForMapIdle(page);
  return page.evaluate(() => {
    interface Rendered {
      geometry: { coordinates: [number, number] };
    }
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: {
        project(lngLat: [number, number]): { x: number; y: number };
        queryRenderedFeatures(options: { layers: string[] }): Rendered[];
        getLayer(id: string): unknown;
      };
    };
    const map = element.maplibre;
    const layers = ['selected-user-point', 'selected-user-label'].filter((id) => map.getLayer(id));
    const drawn = map.queryRenderedFeatures({ layers })[0];
    if (!drawn) return undefined;
    const at = map.project(drawn.geometry.coordinates);
    const box = element.getBoundingClientRect();
    return { x: box.left + at.x, y: box.top + at.y };
  });
}

/** Polls until the selected user is drawn on the map where the card does not cover it. */
export async function expectSelectedUserBesideCard(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const at = await selectedUserOnPage(page);
        const card = await page.getByTestId('map-user-card').boundingBox();
        if (!at || !card) return `drawn at ${JSON.stringify(at)}, card ${JSON.stringify(card)}`;
        const inside = at.x >= card.x && at.x <= card.x + card.width && at.y >= card.y && at.y <= card.y + card.height;
        return inside ? `under the card: ${JSON.stringify({ at, card })}` : 'beside the card';
      },
      { message: 'the selected user is drawn beside its card' },
    )
    .toBe('beside the card');
}

/** Finds a user with the map's search (by phone) and picks it; returns its card once it shows the user. */
export async function pickUserOnMap(page: Page, phone: string, name: string, language: Language = 'en') {
  await page.getByRole('combobox', { name: text(language, 'map.search') }).fill(phone);
  await page.getByTestId('map-search-result').filter({ hasText: name }).click();
  const card = page.getByTestId('map-user-card');
  await expect.poll(() => card.innerText()).toContain(name);
  return card;
}
