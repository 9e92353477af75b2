// Departments: the tree beside the user and device lists (the department picker of forms is
// shared/pickers/DepartmentSelect).
export { orgChildrenQuery } from './api';
export { DepartmentPanel } from './DepartmentPanel';
export type { OrgSelection } from './orgTreeKeys';
