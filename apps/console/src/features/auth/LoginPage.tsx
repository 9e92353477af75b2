import { ApartmentOutlined, CloseCircleFilled, LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { takeLoginLink } from '../../shared/routing/loginLink';
import { safeRedirect } from '../../shared/routing/redirects';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { readPreference, writePreference } from '../../shared/storage/localPreference';
import { AppLogo } from '../../shared/ui/AppLogo';
import { useIcp, useLogin, type LoginInput } from './api';
import { LoginLanguageBar } from './LoginLanguageBar';
import styles from './LoginPage.module.css';
import { useLoginBranding } from './useLoginBranding';

/** Where the last company code typed here is remembered. */
const COMPANY_CODE_KEY = 'loginCompanyCode';

export default function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginInput>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const icp = useIcp();
  const errorMessage = useErrorMessage();
  const branding = useLoginBranding();
  const [failure, setFailure] = useState<string | null>(null);
  const redirect = safeRedirect(searchParams.get('redirect'));

  const signIn = (values: LoginInput) => {
    login.mutate(values, {
      onSuccess: () => {
        writePreference(COMPANY_CODE_KEY, values.companyCode.trim());
        void navigate(redirect, { replace: true });
      },
      onError: (error) => {
        // Connection failures are already a toast; server answers are shown at the form.
        if (!isApiError(error) || !error.connectionFailed) setFailure(errorMessage(error));
        form.setFieldValue('password', '');
      },
    });
  };

  // A login link signs in at once with the credentials LoginRoute held back from the address bar.
  const signInWithLink = useEffectEvent(() => {
    const link = takeLoginLink();
    if (!link) return;
    const values = { username: link.user, password: link.psd, companyCode: link.code };
    form.setFieldsValue(values);
    signIn(values);
  });
  useEffect(() => signInWithLink(), []);

  // Logout, password change and re-login all land here: the previous session's data goes (SPEC.md 4).
  useEffect(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'UAuth' });
  }, [queryClient]);

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
        <Form
          form={form}
          className={styles.form}
          layout="vertical"
          size="large"
          requiredMark={false}
          initialValues={{ username: '', password: '', companyCode: readPreference(COMPANY_CODE_KEY) ?? '' }}
          onFinish={(values) => {
            setFailure(null);
            signIn(values);
          }}
          onValuesChange={() => failure && setFailure(null)}
          disabled={login.isPending}
        >
          <Form.Item
            name="username"
            label={t('login.account')}
            rules={[{ required: true, whitespace: true, message: t('login.account_required') }]}
          >
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus maxLength={64} />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[{ required: true, message: t('login.password_required') }]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={128} />
          </Form.Item>
          <Form.Item
            name="companyCode"
            label={t('login.company_code')}
            rules={[{ required: true, whitespace: true, message: t('login.company_code_required') }]}
          >
            <Input prefix={<ApartmentOutlined />} autoComplete="organization" maxLength={64} />
          </Form.Item>
          {failure && (
            <div className={styles.alert} role="alert">
              <CloseCircleFilled className={styles.alertIcon} />
              <span>{failure}</span>
            </div>
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Form>
      </main>
      <footer className={styles.footer}>
        {icp.data?.ICP ? <span>{icp.data.ICP}</span> : null}
        <span>{t('login.footer', { year: new Date().getFullYear() })}</span>
      </footer>
    </div>
  );
}
