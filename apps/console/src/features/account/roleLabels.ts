import type { Role } from '@intercom/contract';
import { tk } from '../../i18n/tk';

/** i18n keys of the role names. */
export const ROLE_LABELS: Record<Role, string> = {
  admin: tk('role.admin'),
  editor: tk('role.editor'),
};
