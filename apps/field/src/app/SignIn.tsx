import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from './LanguagePicker';
import { TextField } from './TextField';
import { useFieldSession } from './useSession';

/** Phone and password (the terminal user's), or why the last session ended. */
export function SignIn({ messageKey }: { messageKey?: string | undefined }) {
  const { t } = useTranslation();
  const session = useFieldSession();
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
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
        <TextField
          label={t('signIn.phone')}
          name="phone"
          type="tel"
          autoComplete="username"
          value={phone}
          onChange={setPhone}
        />
        <TextField
          label={t('signIn.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
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
