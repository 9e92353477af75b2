import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { departmentTree } from './departmentTree';
import { useDepartments } from './pickerQueries';
import type { TargetsSelectProps } from './TargetsSelectProps';

/**
 * Departments of one enterprise (each includes its sub-departments on the server), the targets of a
 * fence or a safety setting; the value is their ids.
 */
export function DepartmentsSelect({ enterpriseId, value = [], onChange, id }: TargetsSelectProps) {
  const { t } = useTranslation();
  const departments = useDepartments(enterpriseId);
  const treeData = useMemo(() => departmentTree(departments.data ?? []), [departments.data]);
  return (
    <TreeSelect<number[]>
      id={id}
      multiple
      value={value}
      onChange={(next) => onChange?.(next ?? [])}
      treeData={treeData}
      loading={departments.isFetching}
      allowClear
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      placeholder={t('geofence.departments_placeholder')}
      maxTagCount="responsive"
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
      data-testid="fence-departments"
    />
  );
}
