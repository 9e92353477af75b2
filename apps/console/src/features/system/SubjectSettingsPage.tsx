import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function SubjectSettingsPage() {
  return <PlaceholderPage title={tk('route.subject')} description={tk('placeholder.subject')} />;
}
