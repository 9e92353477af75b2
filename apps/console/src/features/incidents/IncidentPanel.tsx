import { AlertOutlined } from '@ant-design/icons';
import type { GpsRecord } from '@intercom/contract';
import { Button, Drawer, Empty, Flex, Form, Input, InputNumber, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wasShown } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { SwitchItem } from '../../shared/form/SwitchItem';
import { useToast } from '../../shared/ui/ToastContext';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { useTouchScreen } from '../../map/useTouchScreen';
import { useCreateIncident, useOpenIncidents } from './api';
import { resetIncidentDraft, setIncidentDraft, useIncidentDraft, type PanelCover } from './incidentDraft';
import { OpenIncidentCard } from './OpenIncidentCard';

type ZoneSource = 'circle' | 'polygon' | 'user';

interface IncidentForm {
  Name: string;
  source: ZoneSource;
  Radius: number;
  Sticky: boolean;
}

const PANEL_WIDTH = 340;
/** On a phone the panel is a sheet over the lower part of the screen: the map above stays drawable. */
const SHEET_SHARE = 0.42;

/** What the panel covers: a side of the map on a wide screen, its bottom on a phone. */
function panelCover(mobile: boolean): PanelCover {
  return mobile
    ? { side: 'bottom', size: Math.round(window.innerHeight * SHEET_SHARE) }
    : { side: 'right', size: Math.min(PANEL_WIDTH, window.innerWidth - 32) };
}

/**
 * The live map's incident panel: draws a zone (a circle or polygon on the map, or a circle around the
 * selected user), opens the incident, lists the open ones with their members as they change, and
 * closes them. It covers the map's side (a phone's lower part) and the map keeps its view beside it
 * (FrameBesidePanel). The dispatcher talks to an incident with the talk panel: its channel is in the seat's
 * scope like any other.
 */
export function IncidentPanel({ selected }: { selected: GpsRecord | undefined }) {
  const { t } = useTranslation();
  const message = useToast();
  const errorText = useErrorMessage();
  const mobile = useIsMobile();
  const touch = useTouchScreen();
  const [open, setOpen] = useState(false);
  const cover = panelCover(mobile);
  const [form] = Form.useForm<IncidentForm>();
  const source = Form.useWatch('source', form) ?? 'circle';
  const draft = useIncidentDraft();
  const incidents = useOpenIncidents(open);
  const create = useCreateIncident();

  const choose = (next: ZoneSource) =>
    setIncidentDraft(next === 'user' ? { drawing: false, shape: {} } : { drawing: true, kind: next, shape: {} });
  // A phone turned, or a window made narrower, while the panel is open: the map follows.
  useEffect(() => {
    if (open) setIncidentDraft({ cover: { side: cover.side, size: cover.size } });
  }, [open, cover.side, cover.size]);
  // A zone half drawn is not left on the map of the next visit.
  useEffect(() => resetIncidentDraft, []);

  const zoneOf = (values: IncidentForm) => {
    if (values.source === 'user') {
      return selected
        ? { Kind: 'circle' as const, Center: [selected.lat, selected.lon] as [number, number], Radius: values.Radius }
        : null;
    }
    const { Center, Radius, Points } = draft.shape;
    if (values.source === 'circle') return Center && Radius ? { Kind: 'circle' as const, Center, Radius } : null;
    return Points && Points.length >= 3 ? { Kind: 'polygon' as const, Points } : null;
  };

  const submit = async (values: IncidentForm) => {
    const zone = zoneOf(values);
    if (!zone)
      return void message.error(t(values.source === 'user' ? 'incident.no_selected_user' : 'incident.shape_required'));
    try {
      await create.mutateAsync({ Name: values.Name, Sticky: values.Sticky, ...zone });
      void message.success(t('incident.created', { name: values.Name }));
      form.resetFields(['Name']);
      setIncidentDraft({ shape: {} });
    } catch (error) {
      if (!wasShown(error)) void message.error(errorText(error));
    }
  };

  const close = () => {
    setOpen(false);
    resetIncidentDraft();
  };

  return (
    <>
      <Button
        icon={<AlertOutlined />}
        onClick={() => {
          setOpen(true);
          choose((form.getFieldValue('source') as ZoneSource | undefined) ?? 'circle');
        }}
        data-testid="incident-open-panel"
      >
        {t('incident.button')}
      </Button>
      <Drawer
        title={t('incident.title')}
        placement={cover.side}
        open={open}
        onClose={close}
        mask={false}
        size={cover.size}
        data-testid="incident-panel"
      >
        <Form<IncidentForm>
          form={form}
          layout="vertical"
          initialValues={{ source: 'circle', Radius: 200, Sticky: false }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item
            name="Name"
            label={t('incident.name')}
            rules={[{ required: true, whitespace: true, message: t('incident.name_required') }]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="source" label={t('incident.zone')}>
            <Radio.Group onChange={(e) => choose(e.target.value as ZoneSource)}>
              <Radio value="circle">{t('incident.zone_circle')}</Radio>
              <Radio value="polygon">{t('incident.zone_polygon')}</Radio>
              <Radio value="user">{t('incident.zone_user')}</Radio>
            </Radio.Group>
          </Form.Item>
          {source === 'user' ? (
            <>
              <Typography.Paragraph type={selected ? undefined : 'warning'}>
                {selected ? t('incident.around', { name: selected.UserName }) : t('incident.no_selected_user')}
              </Typography.Paragraph>
              <Form.Item name="Radius" label={t('incident.radius')}>
                <InputNumber min={10} max={100_000} addonAfter="m" style={{ width: '100%' }} />
              </Form.Item>
            </>
          ) : (
            <Typography.Paragraph type="secondary">
              {source === 'polygon'
                ? t(touch ? 'incident.draw_polygon_touch' : 'incident.draw_polygon')
                : t(touch ? 'incident.draw_circle_touch' : 'incident.draw_circle')}
            </Typography.Paragraph>
          )}
          <SwitchItem name="Sticky" label={t('incident.sticky')} extra={t('incident.sticky_hint')} />
          <Button type="primary" htmlType="submit" loading={create.isPending} block data-testid="incident-create">
            {t('incident.create')}
          </Button>
        </Form>
        <Typography.Title level={5} style={{ marginTop: 24 }}>
          {t('incident.open_title')}
        </Typography.Title>
        <Flex vertical gap={8} data-testid="incident-list">
          {(incidents.data ?? []).length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('incident.none_open')} />
          ) : (
            incidents.data?.map((row) => <OpenIncidentCard key={row.IN_ID} row={row} />)
          )}
        </Flex>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t('incident.talk_hint')}
        </Typography.Paragraph>
      </Drawer>
    </>
  );
}
