import type { UserImportReport } from '@intercom/contract';
import { Alert, Button, Flex, Modal, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wasShown } from '../../../shared/api/ApiError';
import { useErrorMessage } from '../../../shared/api/useErrorMessage';
import { useConfirm } from '../../../shared/ui/ConfirmContext';
import { useIsMobile } from '../../../shared/ui/useIsMobile';
import { newImportId, useImportUsers } from './api';
import { ImportCounts } from './ImportCounts';
import { ImportErrorTable } from './ImportErrorTable';
import { ImportPreviewTable } from './ImportPreviewTable';
import { ImportProgressBar } from './ImportProgressBar';
import { ImportFileStep, ImportOption, type FileOptions } from './ImportFileStep';
import { ImportResult } from './ImportResult';

type Stage = 'file' | 'check' | 'done';
const STAGES: Stage[] = ['file', 'check', 'done'];
const FIRST_OPTIONS: FileOptions = { createDepartments: false, skipInvalid: false };

/** Seconds since the request began, while it runs (the server answers once, at the end). */
function useElapsed(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => {
      clearInterval(timer);
      setSeconds(0);
    };
  }, [running]);
  return seconds;
}

/**
 * Import users from CSV or XLSX (issue 33): the template and the file, a dry run that lists what
 * would happen and every bad row, then the import itself and its result with the generated passwords.
 */
export function UserImportWizard({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const mobile = useIsMobile();
  const confirm = useConfirm();
  const errorMessage = useErrorMessage();
  const importUsers = useImportUsers();
  const [stage, setStage] = useState<Stage>('file');
  const [file, setFile] = useState<File | null>(null);
  const [options, setOptions] = useState(FIRST_OPTIONS);
  const [check, setCheck] = useState<UserImportReport | null>(null);
  const [result, setResult] = useState<UserImportReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [passwordsSaved, setPasswordsSaved] = useState(false);
  const [dryRun, setDryRun] = useState(true);
  const [importId, setImportId] = useState(newImportId);
  const busy = importUsers.isPending;
  const elapsed = useElapsed(busy);

  const reset = () => {
    setStage('file');
    setFile(null);
    setOptions(FIRST_OPTIONS);
    setCheck(null);
    setResult(null);
    setFailure(null);
    setPasswordsSaved(false);
  };

  const send = async (asDryRun: boolean) => {
    if (!file) return;
    setFailure(null);
    setDryRun(asDryRun);
    const id = newImportId();
    setImportId(id);
    try {
      const report = await importUsers.mutateAsync({
        file,
        options: { ...options, dryRun: asDryRun },
        language: i18n.language,
        importId: id,
      });
      if (asDryRun) {
        setCheck(report);
        setStage('check');
      } else {
        setResult(report);
        setStage('done');
      }
    } catch (error) {
      if (!wasShown(error)) setFailure(errorMessage(error) || t('userImport.failed'));
    }
  };

  const close = () => {
    if (busy) return;
    if (result?.PasswordsCsv && !passwordsSaved) {
      confirm({
        title: t('userImport.passwords_unsaved_title'),
        content: t('userImport.passwords_once'),
        okText: t('userImport.close_anyway'),
        danger: true,
        onOk: onClose,
      });
      return;
    }
    onClose();
  };

  const blocked = check !== null && check.errors.length > 0 && !options.skipInvalid;
  const nothingToDo = check !== null && check.created + check.updated === 0;
  const footer = {
    file: (
      <>
        <Button onClick={close} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button
          type="primary"
          onClick={() => void send(true)}
          loading={busy}
          disabled={!file}
          data-testid="user-import-check"
        >
          {t('userImport.check')}
        </Button>
      </>
    ),
    check: (
      <>
        <Button onClick={() => setStage('file')} disabled={busy} data-testid="user-import-back">
          {t('userImport.back')}
        </Button>
        <Button
          type="primary"
          onClick={() => void send(false)}
          loading={busy}
          disabled={blocked || nothingToDo}
          data-testid="user-import-run"
        >
          {t('userImport.run', { count: (check?.created ?? 0) + (check?.updated ?? 0) })}
        </Button>
      </>
    ),
    done: (
      <>
        <Button onClick={reset}>{t('userImport.another')}</Button>
        <Button type="primary" onClick={close} data-testid="user-import-close">
          {t('common.close')}
        </Button>
      </>
    ),
  }[stage];

  return (
    <Modal
      open={open}
      title={t('userImport.title')}
      onCancel={close}
      afterClose={reset}
      width={mobile ? '100%' : 860}
      mask={{ closable: false }}
      keyboard={!busy}
      footer={
        <Flex justify="flex-end" gap={8} wrap>
          {footer}
        </Flex>
      }
    >
      <Flex vertical gap={16} data-testid="user-import-wizard">
        <Steps
          size="small"
          direction="horizontal"
          responsive={false}
          current={STAGES.indexOf(stage)}
          items={STAGES.map((key) => ({ key, title: t(`userImport.step.${key}`) }))}
        />
        {stage === 'file' && (
          <ImportFileStep
            file={file}
            onFile={(picked) => {
              setFile(picked);
              setCheck(null);
              setFailure(null);
            }}
            options={options}
            onOptions={setOptions}
            busy={busy}
          />
        )}
        {stage === 'check' && check && (
          <Flex vertical gap={16} data-testid="user-import-check-report">
            <Alert
              type={check.errors.length ? 'warning' : 'success'}
              showIcon
              title={
                check.errors.length
                  ? t('userImport.check_errors', { count: check.errors.length })
                  : t('userImport.check_clean')
              }
              description={
                nothingToDo ? t('userImport.nothing_to_do') : blocked ? t('userImport.check_blocked') : undefined
              }
            />
            <ImportCounts report={check} dryRun />
            {check.passwordsSet > 0 && (
              <Typography.Text type="secondary" data-testid="user-import-passwords-set">
                {t('userImport.passwords_will_be_set', { count: check.passwordsSet })}
              </Typography.Text>
            )}
            {check.errors.length > 0 && (
              <ImportOption
                name="skipInvalid"
                options={options}
                onOptions={setOptions}
                busy={busy}
                label={t('userImport.skip_invalid')}
                testId="user-import-check-skip"
              />
            )}
            {check.preview && check.preview.length > 0 && (
              <ImportPreviewTable preview={check.preview} errors={check.errors} />
            )}
            {check.errors.length > 0 && <ImportErrorTable errors={check.errors} />}
          </Flex>
        )}
        {stage === 'done' && result && (
          <ImportResult
            report={result}
            passwordsSaved={passwordsSaved}
            onPasswordsSaved={() => setPasswordsSaved(true)}
          />
        )}
        {busy && <ImportProgressBar importId={importId} dryRun={dryRun} seconds={elapsed} />}
        {failure && (
          <Alert
            type="error"
            showIcon
            title={t('userImport.failed')}
            description={failure}
            data-testid="user-import-failure"
          />
        )}
      </Flex>
    </Modal>
  );
}
