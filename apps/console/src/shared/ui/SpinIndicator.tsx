import type { CSSProperties } from 'react';
import styles from './SpinIndicator.module.css';

/**
 * The loading ring, turning in steps: FullPageSpin's, and the indicator of every antd Spin (set once
 * in AppProviders). Its size is the font size; antd passes its own class (the size of small, default
 * and large spinners) and style.
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
