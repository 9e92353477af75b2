import { GeofenceKinds, geofenceSaveSchema, type GeofenceRow, type GeofenceSave } from '@intercom/contract';
import { contractErrors } from '../../shared/form/contractErrors';
import type { FenceKind, FenceShape } from '../../map/ShapeDraw';

/** The edit form's values: the shape as drawn (both kinds kept while switching between them). */
export interface GeofenceValues {
  Name: string;
  Kind: FenceKind;
  shape: FenceShape;
  Enter: boolean;
  Exit: boolean;
  DwellMinutes: number | null;
  UserIds: number[];
  DepartmentIds: number[];
}

export const NEW_GEOFENCE: Partial<GeofenceValues> = {
  Kind: GeofenceKinds.polygon,
  shape: {},
  Enter: true,
  Exit: true,
  DwellMinutes: 0,
  UserIds: [],
  DepartmentIds: [],
};

export function toFormValues(row: GeofenceRow): Partial<GeofenceValues> {
  return {
    Name: row.Name,
    Kind: row.Kind === GeofenceKinds.circle ? 'circle' : 'polygon',
    shape: { Center: row.Center ?? undefined, Radius: row.Radius ?? undefined, Points: row.Points ?? undefined },
    Enter: row.Enter,
    Exit: row.Exit,
    DwellMinutes: row.DwellMinutes,
    UserIds: row.UserIds,
    DepartmentIds: row.DepartmentIds,
  };
}

/** The Save body: only the drawn kind's shape; an edit names its fence, a new fence its enterprise. */
export function toSaveBody(values: GeofenceValues, target: { id?: number; enterpriseId?: number }): GeofenceSave {
  const shape = values.shape ?? {};
  return {
    ...(target.id ? { GF_ID: target.id } : target.enterpriseId ? { E_ID: target.enterpriseId } : {}),
    Name: (values.Name ?? '').trim(),
    Kind: values.Kind,
    ...(values.Kind === GeofenceKinds.circle
      ? { Center: shape.Center, Radius: shape.Radius }
      : { Points: shape.Points ?? [] }),
    Enter: Boolean(values.Enter),
    Exit: Boolean(values.Exit),
    DwellMinutes: values.DwellMinutes ?? 0,
    UserIds: values.UserIds ?? [],
    DepartmentIds: values.DepartmentIds ?? [],
  };
}

/** Server (and contract) field -> the form field that shows its error: the shape's parts go to the map. */
export const SHAPE_FIELD_NAMES: Record<string, string> = {
  Center: 'shape',
  'Center.0': 'shape',
  'Center.1': 'shape',
  Radius: 'shape',
  Points: 'shape',
};

/** The contract's checks of the Save body, as the form shows them. */
export function validateGeofence(values: GeofenceValues, target: { id?: number; enterpriseId?: number }) {
  return contractErrors(geofenceSaveSchema, toSaveBody(values, target)).map((error) => ({
    ...error,
    // A point's own error (Points.3.0) is shown at the map too.
    field: error.field.startsWith('Points.') ? 'Points' : error.field,
  }));
}
