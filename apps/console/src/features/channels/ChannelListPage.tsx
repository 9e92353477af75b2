import { EditOutlined } from '@ant-design/icons';
import type { ChannelRow } from '@intercom/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/session/SessionContext';
import { useRunAction } from '../../shared/api/useRunAction';
import { SelectFilter, TextFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import { createAction } from '../../shared/list/ListToolbar';
import { useListSelection } from '../../shared/list/useListSelection';
import type { Condition } from '../../shared/list/listParams';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { useWorkingEnterprise } from '../enterprises';
import { channelResource, useDeleteChannel, useSwitchRecord } from './api';
import { BatchChannelDialog } from './BatchChannelDialog';
import { ChannelDrawer, type ChannelTarget } from './ChannelDrawer';
import { CHANNEL_TYPE_LABELS } from './channelTypes';
import { useChannelColumns } from './useChannelColumns';

interface ChannelFilterValues {
  Search?: string;
  CTypeID?: number;
}

const channelCondition = (values: ChannelFilterValues): Condition => ({
  Search: values.Search?.trim() || undefined,
  CTypeID: values.CTypeID,
});

/** /Channel/Channel: the talk channels of the working enterprise; create, edit, delete, recording. */
export default function ChannelListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const run = useRunAction();
  const { info } = useSession();
  // The working enterprise (top bar); until it is known, the own one, which it nearly always is.
  const enterpriseId = useWorkingEnterprise().data?.working.E_ID ?? info.E_ID;
  const remove = useDeleteChannel();
  const switchRecord = useSwitchRecord();
  const [editing, setEditing] = useState<ChannelTarget | null>(null);
  const [switching, setSwitching] = useState<ReadonlySet<number>>(new Set());
  const [changing, setChanging] = useState(false);
  // Another working enterprise (top bar): the ticked channels belong to the old one.
  const selection = useListSelection<ChannelRow>('CID', enterpriseId);
  const { drop } = selection;

  const actions = useMemo(
    () => ({
      edit: (channel: ChannelRow) => setEditing({ mode: 'edit', id: channel.CID }),
      members: (channel: ChannelRow) => navigate(`/Channel/cmember?cid=${channel.CID}`),
      remove: (channel: ChannelRow) =>
        confirm({
          title: t('channels.delete_title', { name: channel.CName }),
          content: t('channels.delete_content', { count: channel.MemberCount }),
          okText: t('common.delete'),
          danger: true,
          onOk: async () => {
            // A deleted channel must not stay ticked: a batch change naming it would fail as a whole.
            if (await run(() => remove.mutateAsync(channel.CID))) {
              drop([channel.CID]);
            }
          },
        }),
      record: async (channel: ChannelRow, record: boolean) => {
        setSwitching((previous) => new Set(previous).add(channel.CID));
        await run(
          () => switchRecord.mutateAsync({ cid: channel.CID, record }),
          record ? t('channels.record_on', { name: channel.CName }) : t('channels.record_off', { name: channel.CName }),
        );
        setSwitching((previous) => {
          const next = new Set(previous);
          next.delete(channel.CID);
          return next;
        });
      },
    }),
    [confirm, navigate, remove, run, switchRecord, t, drop],
  );
  const columns = useChannelColumns(actions, switching);

  return (
    <>
      <ListShell<ChannelRow, ChannelFilterValues>
        title={t('route.channels')}
        resource={channelResource}
        columns={columns}
        filters={
          <>
            <TextFilter name="Search" label={t('channels.search')} placeholder={t('channels.search_placeholder')} />
            <SelectFilter
              name="CTypeID"
              label={t('channels.type')}
              placeholder={t('channels.all_types')}
              minWidth={160}
              options={Object.entries(CHANNEL_TYPE_LABELS).map(([id, label]) => ({
                value: Number(id),
                label: t(label),
              }))}
            />
          </>
        }
        toCondition={channelCondition}
        // Channels never span enterprises: the list is the working enterprise's, as its settings are.
        fixedCondition={{ E_ID: enterpriseId }}
        actions={[
          createAction(t('channels.create'), () => setEditing({ mode: 'create', eid: enterpriseId })),
          {
            key: 'batch',
            label: t('channels.batch_change'),
            icon: <EditOutlined />,
            selected: selection.keys.length,
            onClick: () => setChanging(true),
          },
        ]}
        selection={selection}
        exportFormats={['csv', 'xlsx']}
        columnSettings={{ storageKey: 'channels', defaultHidden: ['Note', 'CreatedAt'], locked: ['CName', 'actions'] }}
        testId="channel-list"
      />
      <ChannelDrawer target={editing} onClose={() => setEditing(null)} />
      <BatchChannelDialog
        open={changing}
        channelIds={selection.keys.map(Number)}
        onClose={(changed) => {
          setChanging(false);
          if (changed) selection.clear();
        }}
      />
    </>
  );
}
