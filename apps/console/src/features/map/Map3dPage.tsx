import { EnvironmentOutlined } from '@ant-design/icons';
import { Button, Flex, Grid } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LiveCounts } from './LiveCounts';
import { LiveUsersMap } from './LiveUsersMap';
import { MAP_PAGE_HEIGHT } from './LiveMapPage';
import { SelectedUserCard } from './SelectedUserCard';
import { useMapSelection } from './useMapSelection';

/**
 * The same live users on a globe, pitched and turned, each user a column coloured by its state (SOS
 * pulsing). The camera tilts and turns with the compass button, the right mouse button, two fingers
 * or Shift with the arrow keys (the hint over the map says which), and lives in the URL's hash.
 */
export default function Map3dPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const selection = useMapSelection();
  const cardRef = useRef<HTMLDivElement>(null);
  const phone = !Grid.useBreakpoint().md;
  // The 2D map opens on the same place (flat: it drops the tilt and the turn). MapLibre writes the
  // hash past the router, so it is read from the page's own location.
  const toMap = () => void navigate({ pathname: '/main/map', hash: window.location.hash });
  return (
    <Flex vertical gap={12} style={{ height: MAP_PAGE_HEIGHT, minHeight: 480 }} data-testid="map-3d-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <LiveCounts />
        <Button icon={<EnvironmentOutlined />} onClick={toMap}>
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
        />
        <div
          data-testid="map-3d-keys"
          style={{
            position: 'absolute',
            top: 10,
            left: 10,
            right: 56,
            width: 'fit-content',
            padding: '4px 10px',
            borderRadius: 6,
            background: 'rgba(255, 255, 255, 0.88)',
            boxShadow: '0 1px 4px rgba(0, 0, 0, 0.15)',
            fontSize: 12,
            lineHeight: '18px',
            color: '#262626',
            pointerEvents: 'none',
          }}
        >
          {t(phone ? 'map.touch_3d' : 'map.keys_3d')}
        </div>
        <SelectedUserCard selection={selection} ref={cardRef} />
      </div>
    </Flex>
  );
}
