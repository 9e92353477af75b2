import { Flex, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChannelTree } from '../channels';
import { MapOrgTree } from './MapOrgTree';
import { UserSearch } from './UserSearch';

export interface MapSidePanelProps {
  selectedUserId: number | undefined;
  onSelectUser: (userId: number) => void;
  treeHeight: number;
}

/** Search, then the organisation and channel trees; picking a user anywhere selects it on the map. */
export function MapSidePanel({ selectedUserId, onSelectUser, treeHeight }: MapSidePanelProps) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={8} style={{ height: '100%', minHeight: 0 }} data-testid="map-side-panel">
      <UserSearch onSelectUser={onSelectUser} />
      <Tabs
        size="small"
        items={[
          {
            key: 'org',
            label: t('map.tab_org'),
            children: <MapOrgTree selectedUserId={selectedUserId} onSelectUser={onSelectUser} height={treeHeight} />,
          },
          {
            key: 'channels',
            label: t('map.tab_channels'),
            children: (
              <ChannelTree
                height={treeHeight - 40}
                onSelectMember={(node) => {
                  if (node.uid !== null) onSelectUser(node.uid);
                }}
              />
            ),
          },
        ]}
      />
    </Flex>
  );
}
