import { InboxOutlined } from '@ant-design/icons';
import { Upload } from 'antd';

/**
 * One file to drop or pick. It goes to `onFile`, not to the upload widget: the dialog sends it
 * with its own button, with its own options.
 */
export function FileDrop({
  accept,
  disabled,
  onFile,
  text,
  hint,
  testId,
}: {
  accept: string;
  disabled: boolean;
  onFile: (file: File) => void;
  text: string;
  hint: string;
  testId?: string;
}) {
  return (
    <Upload.Dragger
      accept={accept}
      multiple={false}
      maxCount={1}
      showUploadList={false}
      disabled={disabled}
      beforeUpload={(picked) => {
        onFile(picked);
        return false;
      }}
      data-testid={testId}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{text}</p>
      <p className="ant-upload-hint">{hint}</p>
    </Upload.Dragger>
  );
}
