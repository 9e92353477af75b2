import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';

/**
 * A list's toolbar: a primary create button, and a delete button for the ticked rows that shows
 * their count and is off while none is ticked. Labels come translated from the list.
 */
export function CreateDeleteToolbar({
  createLabel,
  onCreate,
  deleteLabel,
  selectedCount,
  onDeleteSelected,
}: {
  createLabel: string;
  onCreate: () => void;
  deleteLabel: string;
  selectedCount: number;
  onDeleteSelected: () => void;
}) {
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={onCreate}>
        {createLabel}
      </Button>
      <Badge count={selectedCount} size="small">
        <Button danger icon={<DeleteOutlined />} disabled={selectedCount === 0} onClick={onDeleteSelected}>
          {deleteLabel}
        </Button>
      </Badge>
    </>
  );
}
