import type { IControl } from 'maplibre-gl';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMapHandle } from './mapContext';

/** Degrees a button (or Shift with an arrow key, MapLibre's steps) turns and tilts the camera. */
export const TURN_STEP = 15;
export const TILT_STEP = 10;

const svg = (body: string) =>
  `<svg viewBox="0 0 20 20" width="20" height="20" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;
const TURN = '<path d="M5.5 6.5a6 6 0 1 1-1.3 5.5"/><path d="M5 2.5v4.5h4.5"/>';

interface Button {
  key: 'turn_left' | 'turn_right' | 'tilt_more' | 'tilt_less';
  icon: string;
  bearing: number;
  pitch: number;
}

const BUTTONS: Button[] = [
  { key: 'turn_left', icon: svg(TURN), bearing: -TURN_STEP, pitch: 0 },
  { key: 'turn_right', icon: svg(`<g transform="matrix(-1 0 0 1 20 0)">${TURN}</g>`), bearing: TURN_STEP, pitch: 0 },
  // A ground plane seen flatter (more tilt) or more from above (less).
  {
    key: 'tilt_more',
    icon: svg('<path d="M2 15.5h16l-4.5-6h-7z"/><path d="M10 7V2.5M8 4.5l2-2 2 2"/>'),
    bearing: 0,
    pitch: TILT_STEP,
  },
  {
    key: 'tilt_less',
    icon: svg('<path d="M4 9h12v7H4z"/><path d="M10 7V2.5M8 5l2 2 2-2"/>'),
    bearing: 0,
    pitch: -TILT_STEP,
  },
];

/**
 * Buttons that turn and tilt the 3D map's camera, in MapLibre's control column under the zoom
 * buttons and the compass. Their names say which keys do the same (Shift with the arrows, once the
 * map has the focus). Renders nothing itself.
 */
export function MapTiltRotate() {
  const { t } = useTranslation();
  const { map } = useMapHandle();

  // Made again in another language (four buttons: cheaper than keeping them to rename).
  useEffect(() => {
    const group = document.createElement('div');
    group.className = 'maplibregl-ctrl maplibregl-ctrl-group';
    group.dataset.testid = 'map-tilt-rotate';
    for (const { key, icon, bearing, pitch } of BUTTONS) {
      const button = document.createElement('button');
      button.type = 'button';
      Object.assign(button.style, { display: 'flex', alignItems: 'center', justifyContent: 'center' });
      button.innerHTML = icon;
      button.title = t(`map.${key}`);
      button.setAttribute('aria-label', button.title);
      button.addEventListener('click', () =>
        map.easeTo({ bearing: map.getBearing() + bearing, pitch: map.getPitch() + pitch, duration: 300 }),
      );
      group.append(button);
    }
    const control: IControl = { onAdd: () => group, onRemove: () => group.remove() };
    map.addControl(control, 'top-right');
    return () => {
      map.removeControl(control);
    };
  }, [map, t]);

  return null;
}
