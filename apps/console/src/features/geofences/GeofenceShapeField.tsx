import { ClearOutlined, UndoOutlined } from '@ant-design/icons';
import { GeofenceLimits } from '@intercom/contract';
import { Button, Flex, InputNumber, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MapFences } from '../../map/MapFences';
import { MapUsers } from '../../map/users/MapUsers';
import { MapView } from '../../map/MapView';
import { projectionOf } from '../../map/projectionOf';
import { ShapeDraw, type FenceKind, type FenceShape } from '../../map/ShapeDraw';
import { useBasemap } from '../../map/useBasemap';
import { useTouchScreen } from '../../map/useTouchScreen';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { LOADING_DELAY_MS } from '../../shared/ui/useShownAfter';
import { useMapGeofences } from './api';
import { FrameFenceScope } from './FrameFenceScope';
import { useFenceScopePositions } from './useFenceScopePositions';

export interface GeofenceShapeFieldProps {
  kind: FenceKind;
  /** The fence being edited: left out of the other fences drawn beside it. */
  editingId?: number;
  /** Whom the fence applies to: the map opens on where they are. */
  userIds?: readonly number[];
  departmentIds?: readonly number[];
  value?: FenceShape;
  onChange?: (value: FenceShape) => void;
  id?: string;
}

const NONE: readonly number[] = [];

/**
 * The form field of a fence's shape: a map to draw it on, showing the users and the other fences,
 * with its radius or points below.
 */
export function GeofenceShapeField({
  kind,
  editingId,
  userIds = NONE,
  departmentIds = NONE,
  value = {},
  onChange,
  id,
}: GeofenceShapeFieldProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const touch = useTouchScreen();
  const basemap = useBasemap();
  const project = useMemo(() => projectionOf(basemap.data), [basemap.data]);
  const fences = useMapGeofences(true);
  const others = useMemo(() => (fences.data ?? []).filter((f) => f.GF_ID !== editingId), [fences.data, editingId]);
  const change = (next: FenceShape) => onChange?.(next);
  const points = value.Points ?? [];
  const drawn = kind === 'circle' ? value.Center !== undefined : points.length > 0;
  const positions = useFenceScopePositions(userIds, departmentIds);

  return (
    <Flex vertical gap={8} id={id}>
      <div
        style={{ height: mobile ? 320 : 440, borderRadius: 8, overflow: 'hidden', border: '1px solid rgba(5,5,5,0.1)' }}
        data-testid="fence-map"
      >
        {basemap.data ? (
          <MapView basemap={basemap.data} project={project}>
            <MapFences fences={others} />
            <MapUsers frame={false} />
            <FrameFenceScope
              positions={positions}
              scope={`${userIds.join()}|${departmentIds.join()}`}
              fences={others}
              skip={drawn}
            />
            <ShapeDraw kind={kind} value={value} onChange={change} fit />
          </MapView>
        ) : (
          <Spin delay={LOADING_DELAY_MS} style={{ display: 'block', margin: '96px auto' }} />
        )}
      </div>
      <Typography.Text type="secondary" data-testid="fence-draw-hint">
        {kind === 'circle'
          ? drawn
            ? t('geofence.hint_circle_edit')
            : t(touch ? 'geofence.hint_circle_touch' : 'geofence.hint_circle')
          : points.length < GeofenceLimits.pointsMin
            ? t(touch ? 'geofence.hint_polygon_touch' : 'geofence.hint_polygon', {
                count: GeofenceLimits.pointsMin - points.length,
              })
            : t(touch ? 'geofence.hint_polygon_edit_touch' : 'geofence.hint_polygon_edit')}
      </Typography.Text>
      <Flex gap={8} align="center" wrap>
        {kind === 'circle' ? (
          <label style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
            {t('geofence.radius')}
            <InputNumber<number>
              suffix={t('geofence.meters')}
              min={GeofenceLimits.radiusMin}
              max={GeofenceLimits.radiusMax}
              precision={0}
              value={value.Radius ?? null}
              disabled={!value.Center}
              onChange={(radius) => change({ ...value, Radius: radius ?? undefined })}
              style={{ width: 160 }}
              data-testid="fence-radius"
            />
          </label>
        ) : (
          <>
            <Typography.Text data-testid="fence-point-count">
              {t('geofence.points_count', { count: points.length })}
            </Typography.Text>
            <Button
              icon={<UndoOutlined />}
              disabled={points.length === 0}
              onClick={() => change({ ...value, Points: points.slice(0, -1) })}
            >
              {t('geofence.undo_point')}
            </Button>
          </>
        )}
        <Button
          icon={<ClearOutlined />}
          disabled={!drawn}
          onClick={() =>
            change(kind === 'circle' ? { ...value, Center: undefined, Radius: undefined } : { ...value, Points: [] })
          }
        >
          {t('geofence.clear_shape')}
        </Button>
      </Flex>
    </Flex>
  );
}
