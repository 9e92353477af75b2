// Departments: the tree beside the user and device lists and the department pickers of forms.
export { orgChildrenQuery } from './api';
export { DepartmentPanel } from './DepartmentPanel';
export { DepartmentSelect } from './DepartmentSelect';
export type { OrgSelection } from './orgTreeKeys';
