import { CustomerServiceOutlined, EllipsisOutlined, UserOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { ChannelTreeNode } from '@intercom/contract';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { Empty, Flex, Input, Tree, Typography } from 'antd';
import type { DataNode, EventDataNode } from 'antd/es/tree';
import { useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { CallButton } from '../../talk';
import { channelTreeMembersQuery, TREE_PAGE, useChannelTreeRoots } from './api';
import { LoadingSkeleton } from '../../shared/ui/LoadingSkeleton';

/** Images of the tree's `icon` names (docs/api.md "Channel tree"). */
const ICONS: Record<string, ReactNode> = {
  'channel-video': <VideoCameraOutlined />,
  'channel-group': <CustomerServiceOutlined />,
  user: <UserOutlined />,
};

interface LoadedMembers {
  nodes: ChannelTreeNode[];
  total: number;
}

export interface ChannelTreeProps {
  /** The channel shown as picked. */
  selectedCid?: number;
  onSelectChannel?: (node: ChannelTreeNode) => void;
  onSelectMember?: (node: ChannelTreeNode) => void;
  /** Height of the (virtual) tree in px. */
  height?: number;
}

const CHANNEL_TITLE_STYLE = {
  display: 'inline-flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: 4,
  width: 'calc(100% - 28px)',
} as const;

const moreKey = (cid: number) => `C${cid}-more`;

/**
 * The channel tree of the working enterprise (`GET /api/THChannel/QueryGroup`): one node per
 * channel (video or talk), and below each its members, highest priority first, loaded when the
 * channel opens, 500 at a time ("more" loads the next ones). A search box filters the channels by
 * name. Used as the channel switcher of the members page and by the live map.
 */
export function ChannelTree({ selectedCid, onSelectChannel, onSelectMember, height = 480 }: ChannelTreeProps) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const roots = useChannelTreeRoots();
  // Channels opened so far and how many pages of members each shows; the pages are queries, so a
  // change of members (invalidated) refreshes what is open.
  const [opened, setOpened] = useState<ReadonlyMap<number, number>>(new Map());
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [filter, setFilter] = useState('');
  const requests = [...opened].flatMap(([cid, pages]) =>
    Array.from({ length: pages }, (_, page) => ({ cid, query: channelTreeMembersQuery(cid, page * TREE_PAGE) })),
  );
  const pages = useQueries({ queries: requests.map((request) => request.query) });
  const members = new Map<number, LoadedMembers>();
  requests.forEach((request, index) => {
    const data = pages[index]?.data;
    if (!data) return;
    const loaded = members.get(request.cid) ?? { nodes: [], total: data.total };
    members.set(request.cid, { nodes: [...loaded.nodes, ...data.rows], total: data.total });
  });

  const openMore = async (cid: number) => {
    const shown = opened.get(cid) ?? 0;
    await queryClient.fetchQuery(channelTreeMembersQuery(cid, shown * TREE_PAGE));
    setOpened((previous) => new Map(previous).set(cid, shown + 1));
  };

  const byId = new Map<string, ChannelTreeNode>();
  for (const node of roots.data?.rows ?? []) byId.set(node.id, node);
  for (const loaded of members.values()) for (const node of loaded.nodes) byId.set(node.id, node);

  const text = filter.trim().toLowerCase();
  const treeData: DataNode[] = (roots.data?.rows ?? [])
    .filter((channel) => !text || channel.name.toLowerCase().includes(text))
    .map((channel) => {
      const loaded = members.get(channel.cid);
      const children: DataNode[] | undefined = loaded?.nodes.map((member) => ({
        key: member.id,
        isLeaf: true,
        icon: ICONS[member.icon] ?? <UserOutlined />,
        title: t('channels.tree_member', { name: member.name, priority: member.priority }),
      }));
      if (loaded && children && loaded.nodes.length < loaded.total) {
        children.push({
          key: moreKey(channel.cid),
          isLeaf: true,
          icon: <EllipsisOutlined />,
          title: (
            <Typography.Link>{t('channels.tree_more', { count: loaded.total - loaded.nodes.length })}</Typography.Link>
          ),
        });
      }
      return {
        key: channel.id,
        icon: ICONS[channel.icon] ?? <CustomerServiceOutlined />,
        title: (
          // Inline, so the talk buttons sit at the end of the node's own line, after its icon.
          <span style={CHANNEL_TITLE_STYLE}>
            <span>{t('channels.tree_channel', { name: channel.name, count: channel.count })}</span>
            <span style={{ whiteSpace: 'nowrap' }}>
              <CallButton kind="group" cid={channel.cid} name={channel.name} />
              <CallButton kind="listen" cid={channel.cid} name={channel.name} />
            </span>
          </span>
        ),
        isLeaf: channel.count === 0,
        children,
      };
    });

  if (roots.isPending) return <LoadingSkeleton rows={6} />;
  if (roots.isError) {
    return (
      <RetryAlert
        title={t('common.query_error', { message: errorMessage(roots.error) })}
        onRetry={() => void roots.refetch()}
      />
    );
  }
  const selected = selectedCid !== undefined ? [`C${selectedCid}`] : [];
  return (
    <Flex vertical gap={8} data-testid="channel-tree">
      <Input.Search
        allowClear
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        placeholder={t('channels.tree_search')}
        aria-label={t('channels.tree_search')}
      />
      {treeData.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filter ? t('list.no_match') : t('channels.none')} />
      ) : (
        <Tree
          showIcon
          blockNode
          height={height}
          treeData={treeData}
          selectedKeys={selected}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys)}
          loadData={async (node: EventDataNode<DataNode>) => {
            const channel = byId.get(String(node.key));
            if (channel && channel.uid === null && !opened.has(channel.cid)) await openMore(channel.cid);
          }}
          onSelect={(_keys, { node }) => {
            const key = String(node.key);
            if (key.endsWith('-more')) {
              void openMore(Number(key.slice(1, -'-more'.length)));
              return;
            }
            const picked = byId.get(key);
            if (!picked) return;
            if (picked.uid === null) onSelectChannel?.(picked);
            else onSelectMember?.(picked);
          }}
        />
      )}
    </Flex>
  );
}
