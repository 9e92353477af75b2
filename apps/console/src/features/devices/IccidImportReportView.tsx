import type { IccidImportReport } from '@intercom/contract';
import { Alert, Col, Row, Statistic, Table, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

type Duplicate = IccidImportReport['duplicates'][number];
type Invalid = IccidImportReport['invalid'][number];

/** What an ICCID import did: counts, then the duplicate and the invalid lines with their numbers. */
export function IccidImportReportView({ report }: { report: IccidImportReport }) {
  const { t } = useTranslation();
  const cut = report.duplicates.length < report.duplicateCount || report.invalid.length < report.invalidCount;
  return (
    <div data-testid="iccid-import-report">
      <Alert
        type={report.accepted > 0 ? 'success' : 'warning'}
        showIcon
        style={{ marginBottom: 16 }}
        title={t('devices.import_done', { accepted: report.accepted, file: report.fileName })}
      />
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={12} sm={8} md={4}>
          <Statistic title={t('devices.report_lines')} value={report.lines} />
        </Col>
        <Col xs={12} sm={8} md={5}>
          <Statistic
            title={t('devices.report_accepted')}
            value={report.accepted}
            styles={{ content: { color: '#389e0d' } }}
          />
        </Col>
        <Col xs={12} sm={8} md={5}>
          <Statistic
            title={t('devices.report_duplicates')}
            value={report.duplicateCount}
            styles={{ content: { color: report.duplicateCount ? '#d48806' : undefined } }}
          />
        </Col>
        <Col xs={12} sm={8} md={5}>
          <Statistic
            title={t('devices.report_invalid')}
            value={report.invalidCount}
            styles={{ content: { color: report.invalidCount ? '#cf1322' : undefined } }}
          />
        </Col>
        <Col xs={12} sm={8} md={5}>
          <Statistic title={t('devices.report_blank')} value={report.blank} />
        </Col>
      </Row>
      {cut && (
        <Typography.Paragraph type="secondary">
          {t('devices.report_cut', { count: Math.max(report.duplicates.length, report.invalid.length) })}
        </Typography.Paragraph>
      )}
      {(report.invalidCount > 0 || report.duplicateCount > 0) && (
        <Tabs
          defaultActiveKey={report.invalidCount > 0 ? 'invalid' : 'duplicates'}
          items={[
            {
              key: 'invalid',
              label: t('devices.report_invalid_tab', { count: report.invalidCount }),
              children: (
                <Table<Invalid>
                  size="small"
                  rowKey="line"
                  dataSource={report.invalid}
                  pagination={{ pageSize: 10, size: 'small', showSizeChanger: false }}
                  columns={[
                    { key: 'line', dataIndex: 'line', title: t('devices.line'), width: 80 },
                    {
                      key: 'value',
                      dataIndex: 'value',
                      title: t('devices.line_text'),
                      render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
                    },
                    { key: 'key', dataIndex: 'key', title: t('batch.problem'), render: (key: string) => t(key) },
                  ]}
                  data-testid="iccid-invalid-lines"
                />
              ),
            },
            {
              key: 'duplicates',
              label: t('devices.report_duplicates_tab', { count: report.duplicateCount }),
              children: (
                <Table<Duplicate>
                  size="small"
                  rowKey="line"
                  dataSource={report.duplicates}
                  pagination={{ pageSize: 10, size: 'small', showSizeChanger: false }}
                  columns={[
                    { key: 'line', dataIndex: 'line', title: t('devices.line'), width: 80 },
                    {
                      key: 'ICCID',
                      dataIndex: 'ICCID',
                      title: t('users.iccid'),
                      render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
                    },
                    {
                      key: 'reason',
                      title: t('batch.problem'),
                      render: (_value, row) =>
                        row.reason === 'file'
                          ? t('devices.dup_in_file', { line: row.firstLine ?? '?' })
                          : t('devices.dup_exists'),
                    },
                  ]}
                  data-testid="iccid-duplicate-lines"
                />
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
