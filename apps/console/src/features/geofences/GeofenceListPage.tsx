import { GeofenceKinds, type GeofenceRow } from '@intercom/contract';
import { Form, Input, Select } from 'antd';
import { useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRunAction } from '../../shared/api/useRunAction';
import { CreateDeleteToolbar } from '../../shared/list/CreateDeleteToolbar';
import { ListShell } from '../../shared/list/ListShell';
import type { Condition } from '../../shared/list/listParams';
import { useConfirm } from '../../shared/ui/ConfirmContext';
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
  const confirm = useConfirm();
  const run = useRunAction();
  const remove = useDeleteGeofences();
  const [selected, setSelected] = useState<Key[]>([]);

  const removeIds = (ids: number[], title: string) =>
    confirm({
      title,
      content: t('geofence.delete_content'),
      okText: t('common.delete'),
      danger: true,
      onOk: async () => {
        if (await run(() => remove.mutateAsync(ids)))
          setSelected((keys) => keys.filter((key) => !ids.includes(Number(key))));
      },
    });

  const actions = useMemo(
    () => ({
      edit: (fence: GeofenceRow) => void navigate(`${GEOFENCE_LIST_PATH}/edit?id=${fence.GF_ID}`),
      remove: (fence: GeofenceRow) => removeIds([fence.GF_ID], t('geofence.delete_title', { name: fence.Name })),
    }),
    // removeIds closes over the same hooks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [navigate, confirm, run, remove, t],
  );
  const columns = useGeofenceColumns(actions);

  return (
    <ListShell<GeofenceRow, GeofenceFilterValues>
      title={t('geofence.title')}
      resource={geofenceResource}
      columns={columns}
      filters={
        <>
          <Form.Item name="Name" label={t('geofence.name')}>
            <Input allowClear maxLength={64} placeholder={t('geofence.search_placeholder')} />
          </Form.Item>
          <Form.Item name="Kind" label={t('geofence.kind')}>
            <Select
              allowClear
              placeholder={t('geofence.all_kinds')}
              style={{ minWidth: 140 }}
              options={[
                { value: GeofenceKinds.polygon, label: t('geofence.kind_polygon') },
                { value: GeofenceKinds.circle, label: t('geofence.kind_circle') },
              ]}
            />
          </Form.Item>
        </>
      }
      toCondition={geofenceCondition}
      toolbar={
        <CreateDeleteToolbar
          createLabel={t('geofence.create')}
          onCreate={() => void navigate(`${GEOFENCE_LIST_PATH}/edit`)}
          deleteLabel={t('geofence.delete_selected')}
          selectedCount={selected.length}
          onDeleteSelected={() =>
            removeIds(selected.map(Number), t('geofence.delete_many_title', { count: selected.length }))
          }
        />
      }
      selection={{ keys: selected, onChange: (keys) => setSelected(keys) }}
      exportFormats={['csv', 'xlsx']}
      columnSettings={{ storageKey: 'geofences', locked: ['Name', 'actions'] }}
      testId="geofence-list"
    />
  );
}
