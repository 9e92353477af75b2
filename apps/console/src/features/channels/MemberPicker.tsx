import { CloseOutlined } from '@ant-design/icons';
import { ChannelLimits } from '@intercom/contract';
import { Alert, Button, Empty, Flex, Modal, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { departmentColumn } from '../organ';
import { wasShown } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { SelectionTable } from '../../shared/list/SelectionTable';
import { SearchBox } from '../../shared/ui/SearchBox';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { DepartmentSelect } from '../../shared/pickers/DepartmentSelect';
import type { PickedUser, PickerSource } from './api';
import { useDebounced, usePickerCandidates } from './usePickerCandidates';

export interface MemberPickerProps {
  open: boolean;
  title: string;
  /** Where candidates come from; the picker stays empty without one. */
  source: PickerSource | undefined;
  /** The enterprise whose departments filter the candidates. */
  enterpriseId: number | undefined;
  /** Users chosen when the picker opens (the members already picked in a form). */
  initial?: readonly PickedUser[];
  okText?: string;
  /** Gets the chosen users (OK spins until it settles); the caller closes the picker. */
  onOk: (users: PickedUser[]) => Promise<unknown> | void;
  onCancel: () => void;
}

/** Height of the two virtual lists. */
const LIST_HEIGHT = 320;
/** How near the end of the candidates (px) the next page is asked for. */
const LOAD_AHEAD_PX = 400;

/**
 * Picks users for a channel among up to 10,000 of an enterprise: search by name or phone, a
 * department filter, a virtual list of candidates loaded page by page as it scrolls, "select all"
 * of every match, and the chosen users in a second virtual list. The content is built anew each
 * time the dialog opens.
 */
export function MemberPicker(props: MemberPickerProps) {
  const mobile = useIsMobile();
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onCancel}
      footer={null}
      width={mobile ? '100%' : 980}
      destroyOnHidden
      centered={!mobile}
    >
      {props.source && <PickerBody {...props} source={props.source} />}
    </Modal>
  );
}

function PickerBody({
  source,
  enterpriseId,
  initial,
  okText,
  onOk,
  onCancel,
}: MemberPickerProps & { source: PickerSource }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const errorMessage = useErrorMessage();
  const [text, setText] = useState('');
  const [departmentId, setDepartmentId] = useState<number | undefined>();
  const search = useDebounced(text, 250);
  const filter = useMemo(() => ({ search, departmentId }), [search, departmentId]);
  const { query, rows, total, fetchAll } = usePickerCandidates(source, filter);
  const [chosen, setChosen] = useState<ReadonlyMap<number, PickedUser>>(
    () => new Map((initial ?? []).map((user) => [user.UserID, user])),
  );
  const [selectingAll, setSelectingAll] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const change = (users: readonly PickedUser[], add: boolean) =>
    setChosen((previous) => {
      const next = new Map(previous);
      for (const user of users) {
        if (add) next.set(user.UserID, user);
        else next.delete(user.UserID);
      }
      return next;
    });

  const selectAll = async () => {
    setSelectingAll(true);
    setFailure(null);
    try {
      change(await fetchAll(), true);
    } catch (error) {
      if (!wasShown(error)) setFailure(errorMessage(error));
    } finally {
      setSelectingAll(false);
    }
  };

  const submit = async () => {
    setSaving(true);
    try {
      await onOk([...chosen.values()]);
    } finally {
      setSaving(false);
    }
  };

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const list = event.currentTarget;
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - LOAD_AHEAD_PX) {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    }
  };

  const columns = useMemo<ColumnsType<PickedUser>>(
    () => [
      { key: 'UserName', dataIndex: 'UserName', title: t('users.name'), width: mobile ? 150 : 180, ellipsis: true },
      { key: 'MobilePhone', dataIndex: 'MobilePhone', title: t('users.phone'), width: mobile ? 120 : 140 },
      // A phone has room for the name and the phone only.
      departmentColumn(t, { hidden: mobile, ellipsis: true }),
    ],
    [t, mobile],
  );
  const chosenList = useMemo(() => [...chosen.values()].reverse(), [chosen]);
  const chosenColumns = useMemo<ColumnsType<PickedUser>>(
    () => [
      { key: 'UserName', dataIndex: 'UserName', title: t('users.name'), ellipsis: true },
      { key: 'MobilePhone', dataIndex: 'MobilePhone', title: t('users.phone'), width: 130 },
      {
        key: 'remove',
        width: 48,
        render: (_value, user) => (
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label={t('channels.picker_remove', { name: user.UserName })}
            title={t('channels.picker_remove', { name: user.UserName })}
            onClick={() => change([user], false)}
          />
        ),
      },
    ],
    [t],
  );
  const tooMany = chosen.size > ChannelLimits.membersMax;

  return (
    <Flex vertical gap={12} data-testid="member-picker">
      <Flex gap={8} wrap>
        <SearchBox value={text} onChange={setText} label={t('channels.picker_search')} style={{ flex: '1 1 220px' }} />
        <div style={{ flex: '1 1 200px' }}>
          <DepartmentSelect
            enterpriseId={enterpriseId}
            value={departmentId}
            onChange={setDepartmentId}
            allowClear
            placeholder={t('channels.picker_all_departments')}
          />
        </div>
      </Flex>
      <Flex gap={16} vertical={mobile}>
        <Flex vertical gap={8} style={{ flex: 3, minWidth: 0 }} data-testid="picker-candidates">
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Typography.Text type="secondary" aria-live="polite">
              {query.isPending ? t('common.loading') : t('channels.picker_matches', { count: total })}
            </Typography.Text>
            <Button size="small" onClick={() => void selectAll()} loading={selectingAll} disabled={total === 0}>
              {t('channels.picker_select_all', { count: Math.min(total, ChannelLimits.membersMax) })}
            </Button>
          </Flex>
          <SelectionTable<PickedUser>
            rowKey="UserID"
            columns={columns}
            rows={rows}
            selectedKeys={[...chosen.keys()]}
            onChange={change}
            rowLabel={(user) => `${user.UserName} ${user.MobilePhone}`}
            loading={query.isFetching && !query.isFetchingNextPage}
            emptyText={query.isError ? t('list.load_failed') : t('list.no_match')}
            scroll={{ y: mobile ? LIST_HEIGHT - 80 : LIST_HEIGHT, x: mobile ? 310 : 520 }}
            onScroll={onScroll}
          />
        </Flex>
        <Flex vertical gap={8} style={{ flex: 2, minWidth: 0 }} data-testid="picker-chosen">
          <Flex justify="space-between" align="center" gap={8}>
            <Typography.Text strong aria-live="polite" data-testid="picker-count">
              {t('channels.picker_chosen', { count: chosen.size })}
            </Typography.Text>
            <Button size="small" type="link" disabled={chosen.size === 0} onClick={() => setChosen(new Map())}>
              {t('channels.picker_clear')}
            </Button>
          </Flex>
          <Table<PickedUser>
            virtual
            size="small"
            rowKey="UserID"
            columns={chosenColumns}
            dataSource={chosenList}
            pagination={false}
            showHeader={false}
            scroll={{ y: mobile ? LIST_HEIGHT - 120 : LIST_HEIGHT + 39 }}
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('channels.picker_none')} />,
            }}
          />
        </Flex>
      </Flex>
      {query.isError && <Alert type="error" showIcon title={errorMessage(query.error)} />}
      {failure && <Alert type="error" showIcon title={failure} />}
      {tooMany && (
        <Alert type="warning" showIcon title={t('channels.picker_too_many', { max: ChannelLimits.membersMax })} />
      )}
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button
          type="primary"
          loading={saving}
          disabled={chosen.size === 0 || tooMany}
          onClick={() => void submit()}
          data-testid="picker-ok"
        >
          {okText ?? t('channels.picker_ok', { count: chosen.size })}
        </Button>
      </Flex>
    </Flex>
  );
}
