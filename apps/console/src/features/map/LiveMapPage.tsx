import { GlobalOutlined, SoundOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Switch, Tooltip } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { IncidentPanel, IncidentZoneLayer } from '../incidents';
import { LiveCounts } from './LiveCounts';
import { LiveUsersMap } from './LiveUsersMap';
import { MapSidePanel } from './MapSidePanel';
import { SosBanner } from './SosBanner';
import { SelectedUserCard } from './SelectedUserCard';
import { useMapSelection } from './useMapSelection';
import { useSosAlerts } from './useSosAlerts';

/** Height left for the page under the top bar and the content margins. */
export const MAP_PAGE_HEIGHT = 'calc(100dvh - 96px)';
const PANEL_WIDTH = 300;

/**
 * The dispatcher's live map: counts, the trees and search beside (a drawer on a phone), the users
 * on the map, the selected user's card, and SOS alarms offered as a jump.
 */
export default function LiveMapPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const [panelOpen, setPanelOpen] = useState(false);
  const selection = useMapSelection();
  const cardRef = useRef<HTMLDivElement>(null);
  const { sos, alertsOn, setAlerts } = useSosAlerts();
  const treeHeight = Math.max(240, window.innerHeight - 300);

  const pick = (userId: number) => {
    selection.select(userId);
    setPanelOpen(false);
  };
  const panel = <MapSidePanel selectedUserId={selection.selectedId} onSelectUser={pick} treeHeight={treeHeight} />;

  return (
    <Flex vertical gap={12} style={{ height: MAP_PAGE_HEIGHT, minHeight: 480 }} data-testid="live-map-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <LiveCounts />
        <Flex gap={8} align="center" wrap>
          {mobile && (
            <Button icon={<UnorderedListOutlined />} onClick={() => setPanelOpen(true)}>
              {t('map.users_panel')}
            </Button>
          )}
          <Tooltip title={t('map.sos_alerts_hint')}>
            <Flex gap={6} align="center">
              <SoundOutlined aria-hidden />
              <Switch
                size="small"
                checked={alertsOn}
                onChange={(on) => void setAlerts(on)}
                aria-label={t('map.sos_alerts')}
              />
              <span>{t('map.sos_alerts')}</span>
            </Flex>
          </Tooltip>
          <IncidentPanel selected={selection.selected?.record} />
          <Button icon={<GlobalOutlined />} onClick={() => void navigate('/main/3dmap')}>
            {t('route.map3d')}
          </Button>
        </Flex>
      </Flex>
      <Flex gap={12} style={{ flex: 1, minHeight: 0 }}>
        {!mobile && (
          <aside style={{ width: PANEL_WIDTH, flex: 'none', overflow: 'hidden' }} aria-label={t('map.users_panel')}>
            {panel}
          </aside>
        )}
        <div style={{ flex: 1, minWidth: 0, position: 'relative', borderRadius: 8, overflow: 'hidden' }}>
          <LiveUsersMap
            selected={selection.selected}
            target={selection.target}
            follow={selection.follow}
            onSelect={selection.select}
            cover={cardRef}
          >
            <IncidentZoneLayer />
          </LiveUsersMap>
          <div style={{ position: 'absolute', top: 12, left: 12, right: 56, pointerEvents: 'none' }}>
            <div style={{ pointerEvents: 'auto', display: 'inline-block', maxWidth: '100%' }}>
              <SosBanner sos={sos} onJump={pick} />
            </div>
          </div>
          <SelectedUserCard selection={selection} ref={cardRef} />
        </div>
      </Flex>
      {mobile && (
        <Drawer
          placement="left"
          open={panelOpen}
          onClose={() => setPanelOpen(false)}
          title={t('map.users_panel')}
          size={Math.min(PANEL_WIDTH + 48, window.innerWidth - 32)}
          data-testid="map-panel-drawer"
        >
          {panel}
        </Drawer>
      )}
    </Flex>
  );
}
