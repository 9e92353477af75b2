import 'maplibre-gl/dist/maplibre-gl.css';
import { Alert } from 'antd';
import {
  GPUInitializationError,
  Map as MapLibreMap,
  NavigationControl,
  ScaleControl,
  type StyleSpecification,
} from 'maplibre-gl';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Basemap } from '@intercom/contract';
import { languageOfTag } from '../i18n/languages';
import { cameraInHash, flatCameraHash } from './cameraHash';
import { basemapStyle, COUNTRY_NAMES_LAYER, countryNameField, preloadFirstGlyphRange } from './basemapStyle';
import { MapContext, type MapHandle } from './mapContext';
import { pmtilesStyle } from './pmtilesStyle';
import { startMapLibreWorkers } from './startMapLibreWorkers';

export interface MapViewProps {
  basemap: Basemap;
  /** WGS-84 to the basemap's datum. */
  project: MapHandle['project'];
  /** 3D: a globe with a pitched and turned camera. */
  globe?: boolean;
  /**
   * The camera lives in the URL's hash as MapLibre's `hash` option writes it
   * (`#zoom/lat/lon/bearing/pitch`), and a URL with one opens there: a view can be shared or
   * bookmarked. The router addresses pages by path only, so the hash is the map's.
   */
  hash?: boolean;
  /** Layer components; they mount once the style has loaded. */
  children?: ReactNode;
}

// MapLibre's workers start with this module, which the map routes preload beside the settings, not
// when the first map is made: the users' snapshot waits for them.
startMapLibreWorkers();

/** CJK names draw with the browser's own fonts, so no glyph ranges of ideographs are fetched. */
const LOCAL_IDEOGRAPHS = '"Noto Sans CJK SC", "Noto Sans CJK JP", "Microsoft YaHei", "PingFang SC", sans-serif';

const MAX_PITCH = 75;
/** The 3D map opens looking down at 60 degrees and turned, so that it reads as 3D at once. */
export const GLOBE_PITCH = 60;
export const GLOBE_BEARING = -25;

function newMap(container: HTMLElement, style: StyleSpecification, globe: boolean, hash: boolean): MapLibreMap {
  const map = new MapLibreMap({
    container,
    style,
    center: [0, 20],
    zoom: globe ? 1.5 : 1,
    pitch: globe ? GLOBE_PITCH : 0,
    bearing: globe ? GLOBE_BEARING : 0,
    hash,
    // The 2D map cannot be tilted, by the mouse, a touch or Shift with the arrows.
    maxPitch: globe ? MAX_PITCH : 0,
    localIdeographFontFamily: LOCAL_IDEOGRAPHS,
    attributionControl: { compact: true },
    dragRotate: globe,
    touchPitch: globe,
    // Labels appear at once: the users' tiles reload several times a second, and a 300 ms fade
    // on each reload kept cluster counts half-transparent and the map repainting without pause.
    fadeDuration: 0,
  });
  // Nor turned by Shift with the arrows (the compass turns it back north).
  if (!globe) map.keyboard.disableRotation();
  return map;
}

/** The URL's camera without bearing and pitch, so that the 2D map opens it (flat) instead of ignoring it. */
function flattenCameraInUrl(): void {
  const flat = flatCameraHash(window.location.hash);
  if (flat !== window.location.hash) window.history.replaceState(window.history.state, '', flat);
}

/**
 * The one owner of a MapLibre map (traccar-web MapView): created once per basemap, handed to the
 * layer components through MapContext, removed on unmount. The element keeps the map instance as
 * `maplibre` so browser tests and the benchmark can ask it what it draws.
 */
export function MapView({ basemap, project, globe = false, hash = false, children }: MapViewProps) {
  const { t, i18n } = useTranslation();
  const language = languageOfTag(i18n.language) ?? 'en';
  const container = useRef<HTMLDivElement>(null);
  const [handle, setHandle] = useState<MapHandle | null>(null);
  // MapLibre needs WebGL 2; without it the page says so instead of failing. Found by creating the
  // map, not by a test context first: each WebGL context costs 0.1 s of the page's start in software.
  const [webgl, setWebgl] = useState(true);

  useEffect(() => {
    const element = container.current;
    if (!element || !webgl) return;
    let map: MapLibreMap | undefined;
    let gone = false;
    const create = (style: StyleSpecification) => {
      if (gone) return;
      preloadFirstGlyphRange(style);
      // Read before the map is made: from then on MapLibre writes its own camera into the hash.
      if (hash && !globe) flattenCameraInUrl();
      const cameraFromUrl = hash && cameraInHash(window.location.hash, globe ? MAX_PITCH : 0);
      try {
        map = newMap(element, style, globe, hash);
      } catch (error) {
        if (!(error instanceof GPUInitializationError)) throw error;
        // What MapLibre added to the container before it failed.
        element.replaceChildren();
        setWebgl(false);
        return;
      }
      const created = map;
      (element as HTMLDivElement & { maplibre?: MapLibreMap }).maplibre = created;
      // The 2D map stays flat even when its URL came from the 3D one.
      if (!globe && (created.getPitch() !== 0 || created.getBearing() !== 0)) created.jumpTo({ pitch: 0, bearing: 0 });
      created.addControl(new NavigationControl({ visualizePitch: globe, showCompass: true }), 'top-right');
      created.addControl(new ScaleControl({}), 'bottom-right');
      // The layers need the style only, not every tile: a basemap tile that fails must not hide the users.
      created.once('style.load', () => {
        if (globe) created.setProjection({ type: 'globe' });
        setHandle({ map: created, project, gcj02: basemap.gcj02 === true, cameraFromUrl });
      });
    };
    const origin = window.location.origin;
    // A PMTiles style depends on the archive's header (raster or vector, which layers): read it first.
    if (basemap.kind === 'PMTILES') void pmtilesStyle(basemap, origin, language).then(create);
    else create(basemapStyle(basemap, origin, language));
    return () => {
      gone = true;
      setHandle(null);
      map?.remove();
    };
    // The map is made once per basemap; `project` follows the basemap, a new language the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [basemap, globe, hash, webgl]);

  // The country names follow the console's language without a new map.
  useEffect(() => {
    const map = handle?.map;
    if (map?.getLayer(COUNTRY_NAMES_LAYER))
      map.setLayoutProperty(COUNTRY_NAMES_LAYER, 'text-field', countryNameField(language));
  }, [handle, language]);

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%' }}>
      <div
        ref={container}
        style={{ position: 'absolute', inset: 0 }}
        data-testid="map-canvas"
        data-loaded={handle ? 'true' : 'false'}
        role="region"
        aria-label={t('map.region')}
      />
      {!webgl && <Alert type="error" showIcon title={t('map.no_webgl')} style={{ position: 'absolute', inset: 16 }} />}
      {handle && <MapContext.Provider value={handle}>{children}</MapContext.Provider>}
    </div>
  );
}
