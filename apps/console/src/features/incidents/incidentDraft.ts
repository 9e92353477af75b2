import { useSyncExternalStore } from 'react';
import type { ViewportCover } from '../../map/coverPadding';
import type { FenceKind, FenceShape } from '../../map/ShapeDraw';

/** Where the open panel covers the screen: its side and its width (right) or height (bottom). */
export type PanelCover = ViewportCover;

/** The zone being drawn for a new incident, shared by the panel (its form) and the map (the handles). */
export interface IncidentDraft {
  /** The panel is open and covers this: the map keeps what it shows beside it. */
  cover?: PanelCover | undefined;
  /** Drawing on the map now. */
  drawing: boolean;
  kind: FenceKind;
  shape: FenceShape;
}

const EMPTY: IncidentDraft = { drawing: false, kind: 'circle', shape: {} };
let draft = EMPTY;
const listeners = new Set<() => void>();

export function setIncidentDraft(change: Partial<IncidentDraft>): void {
  draft = { ...draft, ...change };
  for (const listener of listeners) listener();
}

export function resetIncidentDraft(): void {
  setIncidentDraft(EMPTY);
}

export function useIncidentDraft(): IncidentDraft {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => draft,
  );
}
