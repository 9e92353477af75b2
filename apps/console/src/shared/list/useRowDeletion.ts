import { useMemo, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunAction } from '../api/useRunAction';
import { useConfirm } from '../ui/ConfirmContext';
import { deleteSelectedAction, type ListAction } from './ListToolbar';

/**
 * Deleting rows of a list: one from its row or the ticked ones, each asked first with the same
 * note. A deleted row leaves the selection (`drop`): a later action naming it would fail.
 */
export function useRowDeletion<K extends Key>(
  remove: (keys: K[]) => Promise<unknown>,
  drop: (keys: readonly Key[]) => void,
  content: string,
) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const run = useRunAction();
  return useMemo(() => {
    const question = { content, okText: t('common.delete') };
    const removeKeys = async (keys: K[]) => {
      if (await run(() => remove(keys))) drop(keys);
    };
    return {
      /** Asks `title` ("Delete Gate?") and deletes the one row. */
      askOne: (title: string, key: K) => confirm({ title, ...question, danger: true, onOk: () => removeKeys([key]) }),
      /** The toolbar's "Delete selected", asking `title` ("Delete 3 fences?") first. */
      selectedAction: (label: string, title: string, keys: K[]): ListAction =>
        deleteSelectedAction(label, keys.length, { title, ...question }, () => removeKeys(keys)),
    };
  }, [t, confirm, run, remove, drop, content]);
}
