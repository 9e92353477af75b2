import { UsergroupAddOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickedUser } from './api';
import { MemberPicker } from './MemberPicker';

/** Names shown in the form; the picker shows every chosen user. */
const SHOWN = 8;

/** A form field: the members of a new channel, chosen in the member picker. */
export function MembersField({
  value = [],
  onChange,
  enterpriseId,
  id,
}: {
  value?: PickedUser[];
  onChange?: (users: PickedUser[]) => void;
  enterpriseId: number | undefined;
  id?: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Flex vertical gap={8} align="flex-start" id={id}>
      <Flex gap={8} align="center" wrap>
        <Button icon={<UsergroupAddOutlined />} onClick={() => setOpen(true)} disabled={!enterpriseId}>
          {t('channels.choose_members')}
        </Button>
        <Typography.Text type="secondary" data-testid="members-count">
          {t('channels.picker_chosen', { count: value.length })}
        </Typography.Text>
      </Flex>
      {value.length > 0 && (
        <Flex gap={4} wrap>
          {value.slice(0, SHOWN).map((user) => (
            <Tag
              key={user.UserID}
              closable
              closeIcon
              style={{ marginInlineEnd: 0 }}
              onClose={() => onChange?.(value.filter((other) => other.UserID !== user.UserID))}
            >
              {user.UserName}
            </Tag>
          ))}
          {value.length > SHOWN && <Tag>{t('channels.more_members', { count: value.length - SHOWN })}</Tag>}
        </Flex>
      )}
      <MemberPicker
        open={open}
        title={t('channels.choose_members')}
        source={enterpriseId ? { kind: 'enterprise', eid: enterpriseId } : undefined}
        enterpriseId={enterpriseId}
        initial={value}
        onOk={(users) => {
          onChange?.(users);
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      />
    </Flex>
  );
}
