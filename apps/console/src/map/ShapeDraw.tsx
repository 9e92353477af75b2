import type {
  GeoJSONSource,
  LngLat,
  MapLayerMouseEvent,
  MapLayerTouchEvent,
  MapMouseEvent,
  MapTouchEvent,
} from 'maplibre-gl';
import { LngLatBounds } from 'maplibre-gl';
import { useEffect, useId, useRef } from 'react';
import { useMapHandle } from './mapContext';
import {
  countDrawing,
  emptyCollection,
  SHAPE_DRAW_PREFIX,
  shapeArea,
  shapeHandles,
  type HandleKind,
} from './shapeDrawFeatures';
import {
  clampRadius,
  distanceMeters,
  firstRadiusInRoom,
  insertVertex,
  moveVertex,
  removeVertex,
  shapeOutline,
  unproject,
  type FenceKind,
  type FenceShape,
  type LatLonPair,
} from './shapeGeometry';

export type { FenceKind, FenceShape, LatLonPair } from './shapeGeometry';

export interface ShapeDrawProps {
  kind: FenceKind;
  /** Circle: `{ Center, Radius }`; polygon: `{ Points }` (`[lat, lon]`, WGS-84). */
  value: FenceShape;
  onChange: (value: FenceShape) => void;
  /** Shown only: no handles, no clicks. */
  readOnly?: boolean;
  /** Moves the camera to the shape it is given when it first shows (not to one drawn later). */
  fit?: boolean;
  /** Outline and fill colour. */
  colour?: string;
}

interface Drag {
  kind: HandleKind;
  index: number;
  shape: FenceShape;
}

/** A crosshair while a click adds to the shape. */
const idleCursor = ({ kind, value, readOnly }: { kind: FenceKind; value: FenceShape; readOnly: boolean }) =>
  readOnly ? '' : kind === 'polygon' || !value.Center ? 'crosshair' : '';

/** A press on a handle starts a drag; a click this soon after a drag's end is the drag's own. */
const CLICK_AFTER_DRAG_MS = 250;
/** A circle's first radius leaves its handle this far inside the visible map. */
const HANDLE_MARGIN_PX = 24;

/**
 * Draws and edits one circle or polygon on the enclosing MapView with handles. Circle: a click
 * places the centre; drag the centre to move it, the handle on its east edge to change the radius.
 * Polygon: each click adds a vertex; drag a vertex to move it, drag the small handle in the middle
 * of an edge to add one there, double-click (or right-click) a vertex to remove it. Renders nothing;
 * the form around it owns the value.
 */
export function ShapeDraw({
  kind,
  value,
  onChange,
  readOnly = false,
  fit = false,
  colour = '#1677ff',
}: ShapeDrawProps) {
  const { map, project } = useMapHandle();
  const id = `${SHAPE_DRAW_PREFIX}${useId().replace(/:/g, '')}`;
  const areaSource = `${id}-area`;
  const handleSource = `${id}-handles`;
  const layers = { fill: `${id}-fill`, line: `${id}-line`, handles: `${id}-handles` };
  const latest = useRef({ kind, value, onChange, readOnly });
  useEffect(() => {
    latest.current = { kind, value, onChange, readOnly };
  });

  // Sources and layers, and the mouse and touch handling, once per map.
  useEffect(() => {
    map.addSource(areaSource, { type: 'geojson', data: emptyCollection() });
    map.addSource(handleSource, { type: 'geojson', data: emptyCollection() });
    map.addLayer({
      id: layers.fill,
      type: 'fill',
      source: areaSource,
      filter: ['==', ['geometry-type'], 'Polygon'],
      paint: { 'fill-color': colour, 'fill-opacity': 0.18 },
    });
    map.addLayer({
      id: layers.line,
      type: 'line',
      source: areaSource,
      layout: { 'line-join': 'round' },
      paint: {
        'line-color': colour,
        'line-width': ['case', ['has', 'spoke'], 1.5, 2.5],
        'line-dasharray': ['case', ['has', 'spoke'], ['literal', [2, 2]], ['literal', [1, 0]]],
      },
    });
    map.addLayer({
      id: layers.handles,
      type: 'circle',
      source: handleSource,
      paint: {
        'circle-radius': ['match', ['get', 'kind'], 'midpoint', 5, 'centre', 8, 7],
        'circle-color': ['match', ['get', 'kind'], 'midpoint', colour, '#ffffff'],
        'circle-opacity': ['match', ['get', 'kind'], 'midpoint', 0.55, 1],
        'circle-stroke-color': colour,
        'circle-stroke-width': ['match', ['get', 'kind'], 'midpoint', 1, 3],
      },
    });

    let drag: Drag | undefined;
    let droppedAt = 0;
    const canvas = map.getCanvas();
    const toLatLon = (at: LngLat): LatLonPair => unproject(project, at.lng, at.lat);
    const changed = (shape: FenceShape) => latest.current.onChange(shape);

    const dragTo = (at: LngLat) => {
      if (!drag) return;
      const point = toLatLon(at);
      const shape = drag.shape;
      if (drag.kind === 'centre') drag.shape = { ...shape, Center: point };
      else if (drag.kind === 'radius' && shape.Center)
        drag.shape = { ...shape, Radius: clampRadius(distanceMeters(shape.Center, point)) };
      else if (drag.kind === 'vertex')
        drag.shape = { ...shape, Points: moveVertex(shape.Points ?? [], drag.index, point) };
      changed(drag.shape);
    };
    const onMove = (event: MapMouseEvent | MapTouchEvent) => dragTo(event.lngLat);
    const onUp = () => {
      if (!drag) return;
      drag = undefined;
      droppedAt = Date.now();
      canvas.style.cursor = idleCursor(latest.current);
      map.off('mousemove', onMove);
      map.off('touchmove', onMove);
    };
    const onDown = (event: MapLayerMouseEvent | MapLayerTouchEvent) => {
      const { readOnly: off, value: shape } = latest.current;
      const feature = event.features?.[0];
      if (off || !feature || ('button' in event.originalEvent && event.originalEvent.button !== 0)) return;
      // The map does not pan while a handle moves.
      event.preventDefault();
      const kindOf = feature.properties.kind as HandleKind;
      const index = Number(feature.properties.index);
      drag = { kind: kindOf, index, shape };
      if (kindOf === 'midpoint') {
        drag = {
          kind: 'vertex',
          index: index + 1,
          shape: { ...shape, Points: insertVertex(shape.Points ?? [], index + 1, toLatLon(event.lngLat)) },
        };
        changed(drag.shape);
      }
      canvas.style.cursor = 'grabbing';
      map.on('mousemove', onMove);
      map.on('touchmove', onMove);
      map.once('mouseup', onUp);
      map.once('touchend', onUp);
    };
    const onRemove = (event: MapLayerMouseEvent) => {
      const { readOnly: off, value: shape } = latest.current;
      const feature = event.features?.[0];
      if (off || feature?.properties.kind !== 'vertex') return;
      event.preventDefault();
      changed({ ...shape, Points: removeVertex(shape.Points ?? [], Number(feature.properties.index)) });
    };
    // A fifth of the width the map shows, not counting what covers it (its padding: a drawer), and
    // short enough that the radius handle east of the centre lands in that width too.
    const radiusInView = (event: MapMouseEvent) => {
      const pad = map.getPadding();
      const [left, right] = [pad.left ?? 0, canvas.clientWidth - (pad.right ?? 0)];
      const at = (x: number) => toLatLon(map.unproject([x, event.point.y]));
      const centre = toLatLon(event.lngLat);
      // Two legs through the centre: at a world's zoom the edges' shortest way round is the other way.
      const width = Math.min(distanceMeters(at(left), centre) + distanceMeters(centre, at(right)), 2_000_000);
      const edge = right - HANDLE_MARGIN_PX;
      return firstRadiusInRoom(width, event.point.x < edge ? distanceMeters(centre, at(edge)) : undefined);
    };
    const onClick = (event: MapMouseEvent) => {
      const { readOnly: off, kind: drawing, value: shape } = latest.current;
      if (off || Date.now() - droppedAt < CLICK_AFTER_DRAG_MS) return;
      if (
        map.getLayer(layers.handles) &&
        map.queryRenderedFeatures(event.point, { layers: [layers.handles] }).length > 0
      )
        return;
      const point = toLatLon(event.lngLat);
      if (drawing === 'polygon') changed({ ...shape, Points: insertVertex(shape.Points ?? [], Infinity, point) });
      else if (!shape.Center) changed({ ...shape, Center: point, Radius: shape.Radius ?? radiusInView(event) });
    };
    const grab = () => {
      if (!drag && !latest.current.readOnly) canvas.style.cursor = 'move';
    };
    const plain = () => {
      if (!drag) canvas.style.cursor = idleCursor(latest.current);
    };

    // A double click on a vertex removes it, not zooms in.
    const zoomOnDoubleClick = map.doubleClickZoom.isEnabled();
    map.doubleClickZoom.disable();
    const subscriptions = [
      map.on('mousedown', layers.handles, onDown),
      map.on('touchstart', layers.handles, onDown),
      map.on('dblclick', layers.handles, onRemove),
      map.on('contextmenu', layers.handles, onRemove),
      map.on('mouseenter', layers.handles, grab),
      map.on('mouseleave', layers.handles, plain),
      map.on('click', onClick),
    ];
    return () => {
      onUp();
      for (const subscription of subscriptions) subscription.unsubscribe();
      map.off('mouseup', onUp);
      map.off('touchend', onUp);
      if (zoomOnDoubleClick) map.doubleClickZoom.enable();
      for (const layer of [layers.handles, layers.line, layers.fill]) if (map.getLayer(layer)) map.removeLayer(layer);
      for (const source of [handleSource, areaSource]) if (map.getSource(source)) map.removeSource(source);
    };
    // The ids follow `id`, which is stable; a new colour is painted by the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, project, id]);

  useEffect(() => {
    for (const layer of [layers.fill, layers.line]) {
      if (!map.getLayer(layer)) continue;
      map.setPaintProperty(layer, layer === layers.fill ? 'fill-color' : 'line-color', colour);
    }
    if (map.getLayer(layers.handles)) map.setPaintProperty(layers.handles, 'circle-stroke-color', colour);
  }, [map, colour, layers.fill, layers.line, layers.handles]);

  // The drawing follows the value.
  useEffect(() => {
    void map.getSource<GeoJSONSource>(areaSource)?.setData(shapeArea(kind, value, project));
    void map
      .getSource<GeoJSONSource>(handleSource)
      ?.setData(readOnly ? emptyCollection() : shapeHandles(kind, value, project));
    map.getCanvas().style.cursor = idleCursor({ kind, value, readOnly });
  }, [map, project, kind, value, readOnly, areaSource, handleSource]);

  // The camera goes to the shape it was given when it first shows; not to a shape being drawn.
  const fitted = useRef(false);
  useEffect(() => {
    if (fitted.current) return;
    fitted.current = true;
    const outline = fit ? shapeOutline(kind, value) : [];
    if (outline.length === 0) return;
    const bounds = new LngLatBounds();
    for (const [lat, lon] of outline) bounds.extend(project(lon, lat));
    map.fitBounds(bounds, { padding: 48, maxZoom: 17, duration: 0 });
  }, [map, project, fit, kind, value]);

  // A click is the drawing's while it can be edited (see countDrawing).
  useEffect(() => {
    if (readOnly) return;
    countDrawing(map, 1);
    return () => countDrawing(map, -1);
  }, [map, readOnly]);

  // A crosshair over the canvas of a polygon being drawn is put back when the tool leaves.
  useEffect(() => () => void (map.getCanvas().style.cursor = ''), [map]);

  return null;
}
