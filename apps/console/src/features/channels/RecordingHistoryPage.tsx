import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function RecordingHistoryPage() {
  return <PlaceholderPage title={tk('route.recordings')} description={tk('placeholder.recordings')} />;
}
