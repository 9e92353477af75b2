import type { InputHTMLAttributes, ReactNode } from 'react';
import styles from './LoginPage.module.css';

interface LoginFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'id'> {
  id: string;
  label: string;
  icon: ReactNode;
  /** The translated error under the field; it also marks the input invalid. */
  error?: string | undefined;
  /** Drawn at the input's end (the password's show/hide button). */
  suffix?: ReactNode;
}

/** One labelled input of the login form: icon, input, optional end button, its error below. */
export function LoginField({ id, label, icon, error, suffix, ...input }: LoginFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={error ? `${styles.control} ${styles.controlInvalid}` : styles.control}>
        <span className={styles.prefix} aria-hidden="true">
          {icon}
        </span>
        <input
          {...input}
          id={id}
          className={styles.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {suffix}
      </div>
      {error && (
        <div id={errorId} className={styles.fieldError}>
          {error}
        </div>
      )}
    </div>
  );
}
