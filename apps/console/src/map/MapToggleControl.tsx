import type { IControl } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useMapHandle } from './mapContext';

/** A map button that is on or off (a layer shown or hidden), under the zoom buttons. */
export function MapToggleControl({
  label,
  icon,
  on,
  onToggle,
  testId,
}: {
  /** The button's accessible name and tooltip. */
  label: string;
  /** SVG markup of a 20 px icon. */
  icon: string;
  on: boolean;
  onToggle: (on: boolean) => void;
  testId?: string;
}) {
  const { map } = useMapHandle();
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  const latest = useRef({ on, onToggle });
  useEffect(() => {
    latest.current = { on, onToggle };
  });

  useEffect(() => {
    const button = document.createElement('button');
    button.type = 'button';
    Object.assign(button.style, { display: 'flex', alignItems: 'center', justifyContent: 'center' });
    const click = () => latest.current.onToggle(!latest.current.on);
    button.addEventListener('click', click);
    buttonRef.current = button;
    const control: IControl = {
      onAdd: () => {
        const group = document.createElement('div');
        group.className = 'maplibregl-ctrl maplibregl-ctrl-group';
        group.append(button);
        return group;
      },
      onRemove: () => button.parentElement?.remove(),
    };
    map.addControl(control, 'top-right');
    return () => {
      button.removeEventListener('click', click);
      map.removeControl(control);
      buttonRef.current = null;
    };
  }, [map]);

  useEffect(() => {
    const button = buttonRef.current;
    if (!button) return;
    button.innerHTML = icon;
    button.title = label;
    button.setAttribute('aria-label', label);
    button.setAttribute('aria-pressed', String(on));
    if (testId) button.dataset.testid = testId;
    button.style.color = on ? '#1677ff' : '#8c8c8c';
  }, [map, icon, label, on, testId]);

  return null;
}
