import { ShapeDraw } from '../../map/ShapeDraw';
import { useOpenIncidents } from './api';
import { FrameBesidePanel } from './FrameBesidePanel';
import { setIncidentDraft, useIncidentDraft } from './incidentDraft';

const OPEN_COLOUR = '#fa541c';

/**
 * On the live map: the zones of the open incidents (read-only, orange) and, while the panel draws
 * one, the new zone with its handles, beside the panel. Renders inside the MapView.
 */
export function IncidentZoneLayer() {
  const draft = useIncidentDraft();
  const open = useOpenIncidents(true);
  return (
    <>
      <FrameBesidePanel cover={draft.cover} />
      {(open.data ?? []).map((row) => (
        <ShapeDraw
          key={row.IN_ID}
          kind={row.Kind === 'polygon' ? 'polygon' : 'circle'}
          value={{ Center: row.Center ?? undefined, Radius: row.Radius ?? undefined, Points: row.Points ?? undefined }}
          onChange={() => undefined}
          readOnly
          colour={OPEN_COLOUR}
        />
      ))}
      {draft.drawing && (
        <ShapeDraw kind={draft.kind} value={draft.shape} onChange={(shape) => setIncidentDraft({ shape })} />
      )}
    </>
  );
}
