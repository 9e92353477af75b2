import { Form, Switch, type FormItemProps } from 'antd';

/** A yes/no entry of a form: a switch whose `checked` is the field's value. */
export function SwitchItem({
  disabled,
  ...item
}: Omit<FormItemProps, 'valuePropName' | 'children'> & { disabled?: boolean }) {
  return (
    <Form.Item valuePropName="checked" {...item}>
      <Switch disabled={disabled} />
    </Form.Item>
  );
}
