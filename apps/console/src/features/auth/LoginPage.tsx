import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { takeLoginLink } from '../../shared/routing/loginLink';
import { safeRedirect } from '../../shared/routing/redirects';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { readPreference, writePreference } from '../../shared/storage/localPreference';
import { AppLogo } from '../../shared/ui/AppLogo';
import { useIcp, useLogin, type LoginInput } from './api';
import { LoginField } from './LoginField';
import { CompanyIcon, ErrorIcon, EyeIcon, LockIcon, UserIcon } from './LoginIcons';
import { LoginLanguageBar } from './LoginLanguageBar';
import styles from './LoginPage.module.css';
import { useLoginBranding } from './useLoginBranding';

/** Where the last company code typed here is remembered. */
const COMPANY_CODE_KEY = 'loginCompanyCode';

type Field = keyof LoginInput;
/** The form's fields in their order on the page (the first invalid one takes the focus). */
const FIELDS: readonly Field[] = ['username', 'password', 'companyCode'];
const REQUIRED_KEYS: Record<Field, string> = {
  username: 'login.account_required',
  password: 'login.password_required',
  companyCode: 'login.company_code_required',
};

/** The keys of the fields left empty (the account and company code may not be only spaces). */
export function missingFields(values: LoginInput): Field[] {
  return FIELDS.filter((field) => (field === 'password' ? values.password === '' : values[field].trim() === ''));
}

/**
 * The login form, without antd: the login route loads none of its code (issue 34); antd and the
 * signed-in screens load after sign-in.
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const icp = useIcp();
  const errorMessage = useErrorMessage();
  const branding = useLoginBranding();
  const [values, setValues] = useState<LoginInput>(() => ({
    username: '',
    password: '',
    companyCode: readPreference(COMPANY_CODE_KEY) ?? '',
  }));
  const [invalid, setInvalid] = useState<Field[]>([]);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const redirect = safeRedirect(searchParams.get('redirect'));
  const busy = login.isPending;

  const signIn = (input: LoginInput) => {
    login.mutate(input, {
      onSuccess: () => {
        writePreference(COMPANY_CODE_KEY, input.companyCode.trim());
        void navigate(redirect, { replace: true });
      },
      onError: (error) => {
        // Connection failures are already a toast; server answers are shown at the form.
        if (!isApiError(error) || !error.connectionFailed) setFailure(errorMessage(error));
        // What was sent stays in the form (a login link's account and code too), the password goes.
        setValues({ ...input, password: '' });
      },
    });
  };

  // A login link signs in at once with the credentials LoginRoute held back from the address bar.
  const signInWithLink = useEffectEvent(() => {
    const link = takeLoginLink();
    if (!link) return;
    signIn({ username: link.user, password: link.psd, companyCode: link.code });
  });
  useEffect(() => signInWithLink(), []);

  // Logout, password change and re-login all land here: the previous session's data goes (SPEC.md 4).
  useEffect(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'UAuth' });
  }, [queryClient]);

  /** Wires a field's input to the form: its id (the focus target), value, error and change. */
  const bind = (field: Field) => ({
    id: `login-${field}`,
    name: field,
    value: values[field],
    error: invalid.includes(field) ? t(REQUIRED_KEYS[field]) : undefined,
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      setInvalid((current) => current.filter((f) => f !== field));
      if (failure) setFailure(null);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const missing = missingFields(values);
    setInvalid(missing);
    setFailure(null);
    if (missing.length > 0) {
      form.current?.querySelector<HTMLInputElement>(`#login-${missing[0]}`)?.focus();
      return;
    }
    signIn(values);
  };

  return (
    <div className={styles.page} style={{ background: branding.background }}>
      <div className={styles.language}>
        <LoginLanguageBar />
      </div>
      <main className={styles.card}>
        <header className={styles.header}>
          {branding.bannerUrl ? (
            <div
              className={styles.banner}
              style={{ backgroundImage: `url("${branding.bannerUrl}")` }}
              data-testid="login-banner"
            >
              {branding.logoUrl && (
                <img src={branding.logoUrl} alt={t('app.title')} width={304} height={31} className={styles.logoImage} />
              )}
            </div>
          ) : branding.logoUrl ? (
            <img src={branding.logoUrl} alt={t('app.title')} width={304} height={31} className={styles.logoImage} />
          ) : (
            <AppLogo size={44} />
          )}
          <div>
            <h1 className={styles.title}>{t('app.title')}</h1>
            <p className={styles.subtitle}>{t('login.subtitle')}</p>
          </div>
        </header>
        <form ref={form} className={styles.form} onSubmit={submit} noValidate aria-busy={busy}>
          <fieldset className={styles.fieldset} disabled={busy}>
            <LoginField
              {...bind('username')}
              label={t('login.account')}
              icon={<UserIcon />}
              autoComplete="username"
              autoFocus
              maxLength={64}
            />
            <LoginField
              {...bind('password')}
              type={shown ? 'text' : 'password'}
              label={t('login.password')}
              icon={<LockIcon />}
              autoComplete="current-password"
              maxLength={128}
              suffix={
                <button
                  type="button"
                  className={styles.reveal}
                  aria-label={t(shown ? 'login.password_hide' : 'login.password_show')}
                  aria-pressed={shown}
                  onClick={() => setShown((value) => !value)}
                >
                  <EyeIcon open={shown} />
                </button>
              }
            />
            <LoginField
              {...bind('companyCode')}
              label={t('login.company_code')}
              icon={<CompanyIcon />}
              autoComplete="organization"
              maxLength={64}
            />
            {failure && (
              <div className={styles.alert} role="alert">
                <span className={styles.alertIcon}>
                  <ErrorIcon />
                </span>
                <span>{failure}</span>
              </div>
            )}
            <button type="submit" className={styles.submit}>
              {busy && <span className={styles.spinner} aria-hidden="true" />}
              {t('login.submit')}
            </button>
          </fieldset>
        </form>
      </main>
      <footer className={styles.footer}>
        {icp.data?.ICP ? <span>{icp.data.ICP}</span> : null}
        <span>{t('login.footer', { year: new Date().getFullYear() })}</span>
      </footer>
    </div>
  );
}
