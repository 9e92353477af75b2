import { EnvironmentOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MapTiltRotate } from '../../map/MapTiltRotate';
import { MapUserColumns } from '../../map/users/MapUserColumns';
import { LiveCounts } from './LiveCounts';
import { LiveUsersMap } from './LiveUsersMap';
import { MAP_PAGE_HEIGHT } from './LiveMapPage';
import { SelectedUserCard } from './SelectedUserCard';
import { useMapSelection } from './useMapSelection';

/**
 * The same live users on a globe, looked at pitched and turned, each user a column coloured by its
 * state (SOS pulsing). The camera tilts and turns with the buttons under the compass, the right mouse
 * button, two fingers or Shift with the arrow keys, and lives in the URL's hash.
 */
export default function Map3dPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const selection = useMapSelection();
  const cardRef = useRef<HTMLDivElement>(null);
  return (
    <Flex vertical gap={12} style={{ height: MAP_PAGE_HEIGHT, minHeight: 480 }} data-testid="map-3d-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <LiveCounts />
        <Button icon={<EnvironmentOutlined />} onClick={() => void navigate('/main/map')}>
          {t('route.map')}
        </Button>
      </Flex>
      <div style={{ flex: 1, minHeight: 0, position: 'relative', borderRadius: 8, overflow: 'hidden' }}>
        <LiveUsersMap
          globe
          selected={selection.selected}
          target={selection.target}
          follow={selection.follow}
          onSelect={selection.select}
          cover={cardRef}
        >
          <MapUserColumns onSelect={selection.select} />
          <MapTiltRotate />
        </LiveUsersMap>
        <SelectedUserCard selection={selection} ref={cardRef} />
      </div>
    </Flex>
  );
}
