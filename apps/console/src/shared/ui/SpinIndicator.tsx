import type { CSSProperties } from 'react';
import styles from './SpinIndicator.module.css';

/**
 * The indicator of every antd Spin (set once in AppProviders): a ring turning in steps. antd passes
 * its own class (the size of small, default and large spinners) and style.
 */
export function SpinIndicator({ className, style }: { className?: string; style?: CSSProperties }) {
  return (
    <span
      className={className ? `${styles.indicator} ${className}` : styles.indicator}
      style={style}
      aria-hidden="true"
    />
  );
}
