import type { IccidImportReport } from '@intercom/contract';
import { Alert, Col, Row, Statistic, Table, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { tk } from '../../i18n/tk';

type Duplicate = IccidImportReport['duplicates'][number];
type Invalid = IccidImportReport['invalid'][number];

/** Lines of the file by number: the text of each (as code) and what is wrong with it. */
function LineTable<Row extends { line: number }>({
  rows,
  value,
  valueTitle,
  problem,
  testId,
}: {
  rows: Row[];
  value: keyof Row & string;
  valueTitle: string;
  problem: (row: Row) => string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Table<Row>
      size="small"
      rowKey="line"
      dataSource={rows}
      pagination={{ pageSize: 10, size: 'small', showSizeChanger: false }}
      columns={[
        { key: 'line', dataIndex: 'line', title: t('devices.line'), width: 80 },
        {
          key: value,
          dataIndex: value,
          title: valueTitle,
          render: (text: string) => <Typography.Text code>{text}</Typography.Text>,
        },
        { key: 'problem', title: t('batch.problem'), render: (_text, row) => problem(row) },
      ]}
      data-testid={testId}
    />
  );
}

/** What an ICCID import did: counts, then the duplicate and the invalid lines with their numbers. */
export function IccidImportReportView({ report }: { report: IccidImportReport }) {
  const { t } = useTranslation();
  const cut = report.duplicates.length < report.duplicateCount || report.invalid.length < report.invalidCount;
  const counts: { title: string; value: number; color?: string }[] = [
    { title: tk('devices.report_lines'), value: report.lines },
    { title: tk('devices.report_accepted'), value: report.accepted, color: '#389e0d' },
    {
      title: tk('devices.report_duplicates'),
      value: report.duplicateCount,
      color: report.duplicateCount ? '#d48806' : undefined,
    },
    {
      title: tk('devices.report_invalid'),
      value: report.invalidCount,
      color: report.invalidCount ? '#cf1322' : undefined,
    },
    { title: tk('devices.report_blank'), value: report.blank },
  ];
  return (
    <div data-testid="iccid-import-report">
      <Alert
        type={report.accepted > 0 ? 'success' : 'warning'}
        showIcon
        style={{ marginBottom: 16 }}
        title={t('devices.import_done', { accepted: report.accepted, file: report.fileName })}
      />
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {counts.map(({ title, value, color }, index) => (
          <Col key={title} xs={12} sm={8} md={index === 0 ? 4 : 5}>
            <Statistic title={t(title)} value={value} styles={color ? { content: { color } } : undefined} />
          </Col>
        ))}
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
                <LineTable<Invalid>
                  rows={report.invalid}
                  value="value"
                  valueTitle={t('devices.line_text')}
                  problem={(row) => t(row.key)}
                  testId="iccid-invalid-lines"
                />
              ),
            },
            {
              key: 'duplicates',
              label: t('devices.report_duplicates_tab', { count: report.duplicateCount }),
              children: (
                <LineTable<Duplicate>
                  rows={report.duplicates}
                  value="ICCID"
                  valueTitle={t('users.iccid')}
                  problem={(row) =>
                    row.reason === 'file'
                      ? t('devices.dup_in_file', { line: row.firstLine ?? '?' })
                      : t('devices.dup_exists')
                  }
                  testId="iccid-duplicate-lines"
                />
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
