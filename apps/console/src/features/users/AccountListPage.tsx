import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function AccountListPage() {
  return <PlaceholderPage title={tk('route.accounts')} description={tk('placeholder.accounts')} />;
}
