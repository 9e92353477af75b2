import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { ChannelTree } from './ChannelTree';
import { MemberList } from './MemberList';

/** The channel of the address (`?cid=12`), when it is a positive whole number. */
function channelIdOf(text: string | null): number | undefined {
  const id = Number(text);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** /Channel/cmember?cid=: the channel tree to switch channels, and the members of the chosen one. */
export default function ChannelMembersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const [params, setParams] = useSearchParams();
  const cid = channelIdOf(params.get('cid'));

  return (
    <Flex vertical gap={16}>
      <div>
        <Button type="link" icon={<ArrowLeftOutlined />} onClick={() => void navigate('/Channel/Channel')}>
          {t('channels.back_to_list')}
        </Button>
      </div>
      <Flex gap={16} vertical={mobile} align="stretch">
        <div style={{ width: mobile ? '100%' : 280, flexShrink: 0 }}>
          <Card size="small" title={t('channels.tree_title')}>
            <ChannelTree
              selectedCid={cid}
              height={mobile ? 220 : 560}
              onSelectChannel={(node) => setParams({ cid: String(node.cid) })}
              onSelectMember={(node) => setParams({ cid: String(node.cid) })}
            />
          </Card>
        </div>
        <div style={{ flex: 1, minWidth: 0 }}>
          {cid === undefined ? (
            <Card>
              <Result status="info" title={t('channels.pick_channel')} subTitle={t('channels.pick_channel_hint')} />
            </Card>
          ) : (
            <MemberList key={cid} cid={cid} />
          )}
        </div>
      </Flex>
    </Flex>
  );
}
