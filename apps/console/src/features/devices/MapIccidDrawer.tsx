import { DeviceLimits, MessageKeys, mapIccidSchema, type MapResult } from '@intercom/contract';
import { Alert, Button, Drawer, Form, Input, Tabs, Typography, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, wasShown } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { applyServerErrors } from '../../shared/form/applyServerErrors';
import { contractErrors } from '../../shared/form/contractErrors';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { DepartmentSelect } from '../../shared/pickers/DepartmentSelect';
import { UserPicker } from '../../shared/pickers/UserPicker';
import { useFastMapIccids, useMapIccid, usePairsMap } from './api';
import { lineProblems, parseIccidLines, parsePairLines, type LineProblem, type NumberedLine } from './mapLines';
import { LineProblems, MapResultView } from './MapResultView';

export type MapMode = 'single' | 'fast' | 'pairs';

type Outcome = { result: MapResult } | { problems: LineProblem[] } | { message: string } | null;

function useFailure() {
  const errorMessage = useErrorMessage();
  return (error: unknown, lines?: Parameters<typeof lineProblems>[1]): Outcome => {
    if (wasShown(error)) return null;
    if (lines && isApiError(error) && error.fields.length > 0) return { problems: lineProblems(error.fields, lines) };
    return { message: errorMessage(error) };
  };
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  if ('result' in outcome) return <MapResultView result={outcome.result} />;
  if ('problems' in outcome) return <LineProblems problems={outcome.problems} title={t('devices.map_refused')} />;
  return (
    <Alert
      type="error"
      showIcon
      title={t('devices.map_refused')}
      description={outcome.message}
      data-testid="map-problems"
    />
  );
}

/** The form's send button, and under it what the last send did. */
function MapSubmit({ label, pending, outcome }: { label: string; pending: boolean; outcome: Outcome }) {
  return (
    <>
      <Button type="primary" htmlType="submit" loading={pending} style={{ marginBottom: 16 }}>
        {label}
      </Button>
      <OutcomeView outcome={outcome} />
    </>
  );
}

/** MapICCID: one ICCID onto one user (of the SIM's enterprise: a SIM stays in its enterprise). */
function SingleMap({ iccid, enterpriseId }: { iccid: string | undefined; enterpriseId: number | undefined }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ ICCID: string; UserID?: number }>();
  const map = useMapIccid();
  const failure = useFailure();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const submit = async (values: { ICCID: string; UserID?: number }) => {
    setOutcome(null);
    const body = { ICCID: values.ICCID ?? '', UserID: values.UserID };
    const errors = contractErrors(mapIccidSchema, body);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.field as 'ICCID', errors: [t(e.key)] })));
      return;
    }
    try {
      const result = await map.mutateAsync({ ICCID: body.ICCID, UserID: body.UserID as number });
      setOutcome(result ? { result } : null);
    } catch (error) {
      if (applyServerErrors(form, error, (key) => t(key), {}, { [MessageKeys.iccidExists]: 'ICCID' })) return;
      setOutcome(failure(error));
    }
  };
  return (
    <Form
      form={form}
      name="single"
      layout="vertical"
      initialValues={{ ICCID: iccid ?? '' }}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item name="ICCID" label={t('users.iccid')} required extra={t('users.iccid_hint')}>
        <Input style={{ fontFamily: 'monospace' }} maxLength={24} />
      </Form.Item>
      <Form.Item name="UserID" label={t('devices.user')} required extra={t('devices.single_hint')}>
        <UserPicker enterpriseId={enterpriseId} />
      </Form.Item>
      <MapSubmit label={t('devices.map_submit')} pending={map.isPending} outcome={outcome} />
    </Form>
  );
}

/**
 * A list form's submit: an empty list, one over the limit or a bad line stops it here; what the
 * server refuses comes back by line number. `count` is the lines typed so far.
 */
function useLinesMap<
  Values extends { text: string },
  Parsed extends { lines: NumberedLine[]; problems: LineProblem[] },
>(
  form: FormInstance<Values>,
  parse: (text: string) => Parsed,
  send: (parsed: Parsed, values: Values) => Promise<MapResult | undefined>,
) {
  const { t } = useTranslation();
  const failure = useFailure();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const text = (Form.useWatch('text', form) as string | undefined) ?? '';
  const count = parse(text).lines.length;
  const refuse = (key: string) => (form as FormInstance).setFields([{ name: 'text', errors: [t(key)] }]);
  const submit = async (values: Values) => {
    setOutcome(null);
    const parsed = parse(values.text ?? '');
    if (parsed.lines.length === 0) return refuse(MessageKeys.required);
    if (parsed.lines.length > DeviceLimits.mapMax) return refuse(MessageKeys.tooManyItems);
    if (parsed.problems.length > 0) return setOutcome({ problems: parsed.problems });
    try {
      const result = await send(parsed, values);
      setOutcome(result ? { result } : null);
    } catch (error) {
      setOutcome(failure(error, parsed.lines));
    }
  };
  return { count, outcome, submit: (values: Values) => void submit(values) };
}

/** FastMapICCID: a list of ICCIDs, in order, onto the users that have none. */
function FastMap({ enterpriseId }: { enterpriseId: number | undefined }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ text: string; OS_ID?: number }>();
  const map = useFastMapIccids();
  const { count, outcome, submit } = useLinesMap(form, parseIccidLines, (parsed, values) =>
    map.mutateAsync({ ICCIDs: parsed.lines.map((l) => l.text), ...(values.OS_ID ? { OS_ID: values.OS_ID } : {}) }),
  );
  return (
    <Form form={form} name="fast" layout="vertical" initialValues={{ text: '' }} onFinish={submit}>
      <Typography.Paragraph type="secondary">{t('devices.fast_hint')}</Typography.Paragraph>
      <Form.Item name="text" label={t('devices.iccid_lines', { count, max: DeviceLimits.mapMax })}>
        <Input.TextArea autoSize={{ minRows: 6, maxRows: 14 }} style={{ fontFamily: 'monospace' }} spellCheck={false} />
      </Form.Item>
      <Form.Item name="OS_ID" label={t('devices.fast_department')} extra={t('devices.fast_department_hint')}>
        <DepartmentSelect enterpriseId={enterpriseId} placeholder={t('devices.fast_any_department')} />
      </Form.Item>
      <MapSubmit label={t('devices.map_submit_count', { count })} pending={map.isPending} outcome={outcome} />
    </Form>
  );
}

/** NoneSeriesMap: explicit pairs, one `ICCID phone` per line. */
function PairsMap() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ text: string }>();
  const map = usePairsMap();
  const { count, outcome, submit } = useLinesMap(form, parsePairLines, (parsed) =>
    map.mutateAsync({ pairs: parsed.pairs }),
  );
  return (
    <Form form={form} name="pairs" layout="vertical" initialValues={{ text: '' }} onFinish={submit}>
      <Typography.Paragraph type="secondary">{t('devices.pairs_hint')}</Typography.Paragraph>
      <Form.Item name="text" label={t('devices.pair_lines', { count, max: DeviceLimits.mapMax })}>
        <Input.TextArea
          autoSize={{ minRows: 6, maxRows: 14 }}
          style={{ fontFamily: 'monospace' }}
          spellCheck={false}
          placeholder={t('devices.pairs_placeholder')}
        />
      </Form.Item>
      <MapSubmit label={t('devices.map_submit_count', { count })} pending={map.isPending} outcome={outcome} />
    </Form>
  );
}

/** The three ways of putting SIM cards onto users. */
export function MapIccidDrawer({
  open,
  mode,
  iccid,
  simEnterpriseId,
  enterpriseId,
  onModeChange,
  onClose,
}: {
  open: boolean;
  mode: MapMode;
  iccid: string | undefined;
  /** The enterprise of the SIM opened from a row (its users are the choices). */
  simEnterpriseId: number | undefined;
  /** The working enterprise. */
  enterpriseId: number | undefined;
  onModeChange: (mode: MapMode) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('devices.map_title')}
      size={mobile ? '100%' : 640}
      destroyOnHidden
      data-testid="map-drawer"
    >
      <Tabs
        activeKey={mode}
        onChange={(key) => onModeChange(key as MapMode)}
        items={[
          {
            key: 'single',
            label: t('devices.map_single'),
            children: <SingleMap iccid={iccid} enterpriseId={simEnterpriseId ?? enterpriseId} />,
          },
          { key: 'fast', label: t('devices.map_fast'), children: <FastMap enterpriseId={enterpriseId} /> },
          { key: 'pairs', label: t('devices.map_pairs'), children: <PairsMap /> },
        ]}
      />
    </Drawer>
  );
}
