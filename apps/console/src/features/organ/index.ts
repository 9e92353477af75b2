// Departments: the tree beside the user and device lists (the department picker of forms is
// shared/pickers/DepartmentSelect).
export { orgChildrenQuery } from './api';
export { DepartmentPanel } from './DepartmentPanel';
export { departmentColumn } from './departmentColumn';
export { OrgNodeTitle } from './OrgNodeTitle';
export type { OrgSelection } from './orgTreeKeys';
