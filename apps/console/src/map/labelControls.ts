import type { TFunction } from 'i18next';

/**
 * Names MapLibre's buttons and canvas in the console's language (MapLibre's own texts are English
 * and set once): tooltip and accessible name alike. The 3D map's canvas also says which keys tilt
 * and turn it once it has the focus.
 */
export function labelControls(container: HTMLElement, globe: boolean, t: TFunction): void {
  const label = (selector: string, text: string) => {
    for (const element of container.querySelectorAll<HTMLElement>(selector)) {
      element.title = text;
      element.setAttribute('aria-label', text);
    }
  };
  label('.maplibregl-ctrl-zoom-in', t('map.zoom_in'));
  label('.maplibregl-ctrl-zoom-out', t('map.zoom_out'));
  label('.maplibregl-ctrl-compass', t(globe ? 'map.compass_3d' : 'map.compass'));
  const canvas = container.querySelector<HTMLElement>('canvas.maplibregl-canvas');
  canvas?.setAttribute('aria-label', globe ? t('map.canvas_3d') : t('map.canvas'));
}
