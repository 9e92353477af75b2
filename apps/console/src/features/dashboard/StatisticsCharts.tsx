import type { Statistics } from '@intercom/contract';
import { Card, Col, Grid, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

const BAR_COLORS = ['#1668dc', '#389e0d', '#08979c', '#722ed1', '#c41d7f', '#cf1322'];
/** Licences in use and left: two colours that both read as data (grey looked disabled). */
const LICENCE_USED_COLOR = '#1668dc';
const LICENCE_LEFT_COLOR = '#52c41a';

/** Charts of the dashboard; loaded on their own so the cards never wait for recharts. */
export default function StatisticsCharts({ data }: { data: Statistics }) {
  const { t } = useTranslation();
  // Below md (768 px) six labels side by side overlap: they are slanted instead.
  const narrow = !Grid.useBreakpoint().md;
  const overview = [
    { name: t('dashboard.users'), value: data.User },
    { name: t('dashboard.online'), value: data.Online },
    { name: t('dashboard.organs'), value: data.Organ },
    { name: t('dashboard.channels'), value: data.Channel },
    { name: t('dashboard.channel_members'), value: data.ChannelSum },
    { name: t('dashboard.recordings'), value: data.RecordSum },
  ];
  // A zero slice would still draw a gap: leave it out.
  const licences = [
    { name: t('dashboard.licences_used'), value: data.User, color: LICENCE_USED_COLOR },
    { name: t('dashboard.balance'), value: data.Balance, color: LICENCE_LEFT_COLOR },
  ].filter((slice) => slice.value > 0);
  const noLicences = licences.length === 0;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={16}>
        <Card title={t('dashboard.overview')}>
          <div style={{ width: '100%', height: 300 }} data-testid="overview-chart">
            <ResponsiveContainer>
              <BarChart data={overview} margin={{ top: 8, right: 8, left: narrow ? -8 : -16, bottom: 0 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                {narrow ? (
                  <XAxis dataKey="name" tick={{ fontSize: 11 }} interval={0} angle={-35} textAnchor="end" height={72} />
                ) : (
                  <XAxis dataKey="name" tick={{ fontSize: 12 }} interval={0} />
                )}
                <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
                <Tooltip />
                <Bar dataKey="value" name={t('dashboard.count')} radius={[4, 4, 0, 0]} maxBarSize={48}>
                  {overview.map((entry, index) => (
                    <Cell key={entry.name} fill={BAR_COLORS[index % BAR_COLORS.length]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card title={t('dashboard.licences')}>
          <div style={{ width: '100%', height: 300 }}>
            <ResponsiveContainer>
              <PieChart>
                <Pie
                  data={noLicences ? [{ name: t('dashboard.no_licences'), value: 1, color: '#f0f0f0' }] : licences}
                  dataKey="value"
                  nameKey="name"
                  innerRadius="55%"
                  outerRadius="80%"
                  paddingAngle={licences.length > 1 ? 2 : 0}
                >
                  {(noLicences ? [{ name: 'none', color: '#f0f0f0' }] : licences).map((entry) => (
                    <Cell key={entry.name} fill={entry.color} />
                  ))}
                </Pie>
                <Tooltip />
                <Legend verticalAlign="bottom" />
              </PieChart>
            </ResponsiveContainer>
          </div>
        </Card>
      </Col>
    </Row>
  );
}
