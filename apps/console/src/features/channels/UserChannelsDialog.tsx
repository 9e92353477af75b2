import { ChannelLimits, MessageKeys, roomChangeSchema, type ChannelBrief, type UserRow } from '@intercom/contract';
import { Alert, Button, Empty, Flex, Form, InputNumber, Modal, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { useNavigate } from 'react-router';
import { wasShown } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { contractErrors } from '../../shared/form/contractErrors';
import { SelectionTable } from '../../shared/list/SelectionTable';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { useToast } from '../../shared/ui/ToastContext';
import { SearchBox } from '../../shared/ui/SearchBox';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { useChangeUserChannels, useUserChannels } from './api';
import { channelTypeLabel } from './channelTypes';

const LIST_HEIGHT = 320;
const NO_CHANNELS: ChannelBrief[] = [];

function sameSet(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}

/**
 * URoomChange from the user list: the channels of the user's enterprise with the user's ones
 * ticked; saving makes the ticked ones the user's whole set of channels.
 */
export function UserChannelsDialog({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const confirm = useConfirm();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const query = useUserChannels(user?.UserID);
  const save = useChangeUserChannels();
  // null: as the server says (the user's current channels).
  const [picked, setPicked] = useState<ReadonlySet<number> | null>(null);
  const [text, setText] = useState('');
  const [priority, setPriority] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [shownUser, setShownUser] = useState(user);
  if (shownUser !== user) {
    setShownUser(user);
    setPicked(null);
    setText('');
    setPriority(null);
    setFailure(null);
  }

  const rows = query.data ?? NO_CHANNELS;
  const current = useMemo(() => new Set(rows.filter((row) => row.IsMember === 1).map((row) => row.CID)), [rows]);
  const ticked = picked ?? current;
  const shown = useMemo(() => {
    const needle = text.trim().toLocaleLowerCase();
    return needle ? rows.filter((row) => row.CName.toLocaleLowerCase().includes(needle)) : rows;
  }, [rows, text]);
  const unchanged = sameSet(ticked, current) && priority === null;
  const tooMany = ticked.size > ChannelLimits.roomsMax;

  const change = (channels: readonly ChannelBrief[], on: boolean) => {
    const next = new Set(ticked);
    for (const channel of channels) {
      if (on) next.add(channel.CID);
      else next.delete(channel.CID);
    }
    setPicked(next);
  };

  const columns = useMemo<ColumnsType<ChannelBrief>>(
    () =>
      mobile
        ? [
            // A phone has room for one column: the details go under the name.
            {
              key: 'CName',
              dataIndex: 'CName',
              title: t('channels.name'),
              render: (name: string, channel) => (
                <Flex vertical>
                  <Typography.Text ellipsis>{name}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('channels.user_channels_details', {
                      type: channelTypeLabel(t, channel.CTypeID),
                      count: channel.MemberCount,
                    })}
                  </Typography.Text>
                </Flex>
              ),
            },
          ]
        : [
            { key: 'CName', dataIndex: 'CName', title: t('channels.name'), ellipsis: true },
            {
              key: 'CTypeID',
              dataIndex: 'CTypeID',
              title: t('channels.type'),
              width: 130,
              render: (value: number) => <Tag>{channelTypeLabel(t, value)}</Tag>,
            },
            {
              key: 'MemberCount',
              dataIndex: 'MemberCount',
              title: t('channels.member_count'),
              width: 90,
              align: 'right',
            },
            {
              key: 'MemberPriority',
              dataIndex: 'MemberPriority',
              title: t('channels.member_priority'),
              width: 140,
              align: 'right',
              render: (value: number | null | undefined) =>
                value ?? <Typography.Text type="secondary">—</Typography.Text>,
            },
          ],
    [t, mobile],
  );

  const send = async () => {
    if (!user) return;
    setFailure(null);
    const body = { uid: user.UserID, cids: [...ticked], priority: priority ?? undefined };
    const invalid = contractErrors(roomChangeSchema, body)[0];
    if (invalid) {
      setFailure(t(invalid.key, { max: ChannelLimits.roomsMax }));
      return;
    }
    try {
      const answer = await save.mutateAsync(body);
      message.success(
        t('channels.user_channels_saved', { name: user.UserName, count: answer?.rooms.length ?? body.cids.length }),
      );
      onClose();
    } catch (error) {
      if (wasShown(error)) return;
      setFailure(errorMessage(error) || t(MessageKeys.failed));
    }
  };

  const submit = () => {
    if (!user) return;
    if (ticked.size === 0 && current.size > 0) {
      confirm({
        title: t('channels.user_leave_all_title', { name: user.UserName }),
        content: t('channels.user_leave_all_content', { count: current.size }),
        okText: t('channels.user_leave_all'),
        danger: true,
        onOk: send,
      });
      return;
    }
    void send();
  };

  const empty = query.isSuccess && rows.length === 0;

  return (
    <Modal
      open={user !== null}
      title={t('channels.user_channels_title', { name: user?.UserName ?? '' })}
      width={720}
      onCancel={onClose}
      destroyOnHidden
      footer={
        empty ? (
          <Button onClick={onClose}>{t('common.close')}</Button>
        ) : (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              disabled={!query.isSuccess || unchanged || tooMany}
              onClick={submit}
            >
              {t('common.save')}
            </Button>
          </Flex>
        )
      }
    >
      <div data-testid="user-channels-dialog">
        {query.isError && (
          <RetryAlert
            title={t('common.query_error', { message: errorMessage(query.error) })}
            onRetry={() => void query.refetch()}
          />
        )}
        {empty ? (
          <Empty description={t('channels.user_channels_none')}>
            <Button
              type="primary"
              onClick={() => {
                onClose();
                void navigate('/Channel/Channel');
              }}
            >
              {t('channels.user_channels_open_list')}
            </Button>
          </Empty>
        ) : (
          !query.isError && (
            <Flex vertical gap={12}>
              <SearchBox value={text} onChange={setText} label={t('channels.user_channels_search')} />
              <Typography.Text type="secondary" aria-live="polite" data-testid="user-channels-count">
                {query.isPending
                  ? t('common.loading')
                  : t('channels.user_channels_ticked', { count: ticked.size, total: rows.length })}
              </Typography.Text>
              <SelectionTable<ChannelBrief>
                rowKey="CID"
                columns={columns}
                rows={shown}
                selectedKeys={[...ticked]}
                onChange={change}
                rowLabel={(channel) => channel.CName}
                // Only the first load covers the table: a refetch in the background (after a save, on
                // focus) must not swallow the click on a box; the ticks follow the new rows.
                loading={query.isPending}
                emptyText={t('list.no_match')}
                scroll={{ y: LIST_HEIGHT, x: mobile ? 280 : 600 }}
              />
              <Form layout="vertical" component="div">
                <Form.Item
                  label={t('channels.user_channels_priority')}
                  htmlFor="user-channels-priority"
                  extra={t('channels.user_channels_priority_hint', { priority: user?.PriorityLevel ?? 0 })}
                  style={{ marginBottom: 0 }}
                >
                  <InputNumber
                    id="user-channels-priority"
                    min={ChannelLimits.priorityMin}
                    max={ChannelLimits.priorityMax}
                    precision={0}
                    value={priority}
                    onChange={(value) => setPriority(value)}
                    style={{ width: 200 }}
                  />
                </Form.Item>
              </Form>
              {tooMany && (
                <Alert
                  type="warning"
                  showIcon
                  title={t('channels.user_channels_too_many', { max: ChannelLimits.roomsMax })}
                />
              )}
              {failure && <Alert type="error" showIcon title={failure} />}
            </Flex>
          )
        )}
      </div>
    </Modal>
  );
}
