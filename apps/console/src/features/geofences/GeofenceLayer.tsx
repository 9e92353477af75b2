import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MapFences } from '../../map/MapFences';
import { MapToggleControl } from '../../map/MapToggleControl';
import { readPreference, writePreference } from '../../shared/storage/localPreference';
import { useMapGeofences } from './api';

/** Stored choice: the fence layer is shown unless the dispatcher hid it. */
const PREFERENCE = 'map.fences';

/** A pentagon outline, the fence layer's button. */
export const FENCE_ICON =
  '<svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true"><path d="M10 2 18 8 15 18H5L2 8Z" fill="currentColor" fill-opacity="0.2" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>';

/**
 * The fences of the scope on a map (live map, replay) with a map button that hides them; the
 * choice is kept. Nothing is fetched while they are hidden. Put it before the users' layers.
 */
export function GeofenceLayer() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(() => readPreference(PREFERENCE) !== 'off');
  const fences = useMapGeofences(shown);
  const toggle = (on: boolean) => {
    setShown(on);
    writePreference(PREFERENCE, on ? 'on' : 'off');
  };
  return (
    <>
      <MapFences fences={fences.data ?? []} visible={shown} />
      <MapToggleControl
        label={shown ? t('geofence.layer_hide') : t('geofence.layer_show')}
        icon={FENCE_ICON}
        on={shown}
        onToggle={toggle}
        testId="fence-layer-toggle"
      />
    </>
  );
}
