import { UserLimits } from '@intercom/contract';
import { Col, DatePicker, Form, InputNumber, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { DepartmentSelect } from '../../../shared/pickers/DepartmentSelect';
import { UserTypeSelect } from '../../../shared/pickers/UserTypeSelect';

/** What every user of a batch or a list shares: department, type, priority, expiry. */
export function SharedUserFields({ enterpriseId }: { enterpriseId: number | undefined }) {
  const { t } = useTranslation();
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name="OS_ID" label={t('users.department')}>
          <DepartmentSelect enterpriseId={enterpriseId} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="UType" label={t('users.type')}>
          <UserTypeSelect enterpriseId={enterpriseId} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="PriorityLevel" label={t('users.priority')} extra={t('users.priority_hint')}>
          <InputNumber min={UserLimits.priorityMin} max={UserLimits.priorityMax} precision={0} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="ExpireAt" label={t('users.expire')} extra={t('users.expire_hint')}>
          <DatePicker allowClear style={{ width: '100%' }} />
        </Form.Item>
      </Col>
    </Row>
  );
}
