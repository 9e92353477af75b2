import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from './LanguagePicker';
import { TextField } from './TextField';
import { useFieldSession } from './useSession';

/** The form's inputs in their order on the page. */
const FIELDS = [
  { name: 'phone', labelKey: 'signIn.phone', type: 'tel', autoComplete: 'username' },
  { name: 'password', labelKey: 'signIn.password', type: 'password', autoComplete: 'current-password' },
] as const;
type Values = Record<(typeof FIELDS)[number]['name'], string>;

/** Phone and password (the terminal user's), or why the last session ended. */
export function SignIn({ messageKey }: { messageKey?: string | undefined }) {
  const { t } = useTranslation();
  const session = useFieldSession();
  const [values, setValues] = useState<Values>({ phone: '', password: '' });
  const { phone, password } = values;
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | undefined>(undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!phone.trim() || !password) {
      setErrorKey('signIn.error.missing');
      return;
    }
    setBusy(true);
    setErrorKey(undefined);
    session.signIn(phone.trim(), password).catch((error: unknown) => {
      setBusy(false);
      setErrorKey(error instanceof Error ? error.message : 'signIn.error.other');
    });
  };

  const shownKey = errorKey ?? messageKey;
  return (
    <main className="signIn">
      <header className="signIn__header">
        <h1>{t('appName')}</h1>
        <LanguagePicker />
      </header>
      <form className="signIn__form" onSubmit={submit} noValidate>
        {FIELDS.map(({ name, labelKey, type, autoComplete }) => (
          <TextField
            key={name}
            label={t(labelKey)}
            name={name}
            type={type}
            autoComplete={autoComplete}
            value={values[name]}
            onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
          />
        ))}
        {shownKey && (
          <p className="signIn__error" role="alert">
            {t(shownKey)}
          </p>
        )}
        <button className="primary" type="submit" disabled={busy}>
          {busy ? t('signIn.busy') : t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
