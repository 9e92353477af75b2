import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { departmentTree } from './departmentTree';
import { useDepartments } from './pickerQueries';

export interface DepartmentSelectProps {
  enterpriseId: number | undefined;
  value?: number | null;
  onChange?: (value: number | undefined) => void;
  /** A choice with the value 0: "top level" (a department's parent) or `topLabel` ("no department"). */
  topLevel?: boolean;
  topLabel?: string;
  /** Whether the choice can be emptied (default: unless there is a top choice). */
  allowClear?: boolean;
  /** The department being edited: it and its sub-departments cannot be its parent. */
  exclude?: number;
  placeholder?: string;
  id?: string;
}

/** Picks a department of one enterprise (every department is listed; there are few beside users). */
export function DepartmentSelect({
  enterpriseId,
  value,
  onChange,
  topLevel,
  topLabel,
  allowClear,
  exclude,
  placeholder,
  id,
}: DepartmentSelectProps) {
  const { t } = useTranslation();
  const departments = useDepartments(enterpriseId);
  const treeData = useMemo(() => {
    const tree = departmentTree(departments.data ?? [], exclude);
    return topLevel ? [{ value: 0, title: topLabel ?? t('organ.top_level'), children: [] }, ...tree] : tree;
  }, [departments.data, exclude, topLevel, topLabel, t]);
  return (
    <TreeSelect<number>
      id={id}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? undefined)}
      treeData={treeData}
      loading={departments.isFetching}
      allowClear={allowClear ?? !topLevel}
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      placeholder={placeholder ?? t('organ.no_department')}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  );
}
