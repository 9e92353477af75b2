import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function UserListPage() {
  return <PlaceholderPage title={tk('route.users')} description={tk('placeholder.users')} />;
}
