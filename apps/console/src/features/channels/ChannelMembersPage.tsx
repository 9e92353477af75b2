import { tk } from '../../i18n/tk';
import { PlaceholderPage } from '../../shared/ui/PlaceholderPage';

export default function ChannelMembersPage() {
  return <PlaceholderPage title={tk('route.channel_members')} description={tk('placeholder.channel_members')} />;
}
