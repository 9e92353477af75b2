import { DatePicker, Form, Input, Select } from 'antd';

interface FilterFieldProps {
  /** The field of the filter values handed to the page's `toCondition`. */
  name: string;
  label: string;
  placeholder?: string;
}

/** A text field of a list's filter bar, clearable; the page trims it in `toCondition`. */
export function TextFilter({
  maxLength = 64,
  wide,
  ...field
}: FilterFieldProps & { maxLength?: number; /** Room for a long placeholder. */ wide?: boolean }) {
  return (
    <Form.Item name={field.name} label={field.label}>
      <Input
        allowClear
        maxLength={maxLength}
        placeholder={field.placeholder}
        className={wide ? 'wide-filter' : undefined}
      />
    </Form.Item>
  );
}

/** A choice of a list's filter bar, clearable: nothing chosen means all. */
export function SelectFilter<V extends string | number>({
  options,
  minWidth,
  ...field
}: FilterFieldProps & { options: { value: V; label: string }[]; minWidth?: number }) {
  return (
    <Form.Item name={field.name} label={field.label}>
      <Select
        allowClear
        placeholder={field.placeholder}
        style={minWidth === undefined ? undefined : { minWidth }}
        options={options}
      />
    </Form.Item>
  );
}

/** A time range of a list's filter bar, to the minute; either end may stay empty (open). */
export function TimeRangeFilter(field: FilterFieldProps) {
  return (
    <Form.Item name={field.name} label={field.label}>
      <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
    </Form.Item>
  );
}
