import { GeofenceKinds, type GeofenceRow } from '@intercom/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SelectFilter, TextFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import { createAction } from '../../shared/list/ListToolbar';
import { useListSelection } from '../../shared/list/useListSelection';
import { useRowDeletion } from '../../shared/list/useRowDeletion';
import type { Condition } from '../../shared/list/listParams';
import { geofenceResource, useDeleteGeofences } from './api';
import { GEOFENCE_LIST_PATH } from './paths';
import { useGeofenceColumns } from './useGeofenceColumns';

interface GeofenceFilterValues {
  Name?: string;
  Kind?: string;
}

const geofenceCondition = (values: GeofenceFilterValues): Condition => ({
  Name: values.Name?.trim() ? { like: values.Name.trim() } : undefined,
  Kind: values.Kind,
});

/** /main/geofence: the fences of the scope; create, edit (on the map), delete one or several. */
export default function GeofenceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const selection = useListSelection<GeofenceRow>('GF_ID');
  const deletion = useRowDeletion(useDeleteGeofences().mutateAsync, selection.drop, t('geofence.delete_content'));

  const actions = useMemo(
    () => ({
      edit: (fence: GeofenceRow) => void navigate(`${GEOFENCE_LIST_PATH}/edit?id=${fence.GF_ID}`),
      remove: (fence: GeofenceRow) => deletion.askOne(t('geofence.delete_title', { name: fence.Name }), fence.GF_ID),
    }),
    [navigate, deletion, t],
  );
  const columns = useGeofenceColumns(actions);
  const count = selection.keys.length;

  return (
    <ListShell<GeofenceRow, GeofenceFilterValues>
      title={t('geofence.title')}
      resource={geofenceResource}
      columns={columns}
      filters={
        <>
          <TextFilter name="Name" label={t('geofence.name')} placeholder={t('geofence.search_placeholder')} />
          <SelectFilter
            name="Kind"
            label={t('geofence.kind')}
            placeholder={t('geofence.all_kinds')}
            minWidth={140}
            options={[
              { value: GeofenceKinds.polygon, label: t('geofence.kind_polygon') },
              { value: GeofenceKinds.circle, label: t('geofence.kind_circle') },
            ]}
          />
        </>
      }
      toCondition={geofenceCondition}
      actions={[
        createAction(t('geofence.create'), () => void navigate(`${GEOFENCE_LIST_PATH}/edit`)),
        deletion.selectedAction(
          t('geofence.delete_selected'),
          t('geofence.delete_many_title', { count }),
          selection.keys.map(Number),
        ),
      ]}
      selection={selection}
      exportFormats={['csv', 'xlsx']}
      columnSettings={{ storageKey: 'geofences', locked: ['Name', 'actions'] }}
      testId="geofence-list"
    />
  );
}
