/** The login page's few icons as inline SVG (antd's icon package would load its runtime too). */
const box = { width: '1em', height: '1em', viewBox: '0 0 24 24', fill: 'none', 'aria-hidden': true } as const;
const line = { stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export const UserIcon = () => (
  <svg {...box}>
    <circle cx="12" cy="8" r="4" {...line} />
    <path d="M4 21c0-4.2 3.6-7 8-7s8 2.8 8 7" {...line} />
  </svg>
);

export const LockIcon = () => (
  <svg {...box}>
    <rect x="4.5" y="10.5" width="15" height="10.5" rx="2" {...line} />
    <path d="M8 10.5V7a4 4 0 0 1 8 0v3.5" {...line} />
  </svg>
);

export const CompanyIcon = () => (
  <svg {...box}>
    <rect x="9" y="3" width="6" height="5" rx="1" {...line} />
    <rect x="3" y="16" width="6" height="5" rx="1" {...line} />
    <rect x="15" y="16" width="6" height="5" rx="1" {...line} />
    <path d="M12 8v4M6 16v-4h12v4" {...line} />
  </svg>
);

export const EyeIcon = ({ open }: { open: boolean }) => (
  <svg {...box}>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" {...line} />
    <circle cx="12" cy="12" r="3" {...line} />
    {!open && <path d="M4 4l16 16" {...line} />}
  </svg>
);

export const ErrorIcon = () => (
  <svg {...box}>
    <circle cx="12" cy="12" r="10" fill="currentColor" />
    <path d="M9 9l6 6M15 9l-6 6" stroke="#fff" strokeWidth={2} strokeLinecap="round" />
  </svg>
);
