/** The built-in product mark: a handheld radio. An uploaded SubjectLogo replaces it where one is set. */
export function AppLogo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#1668dc" />
      <rect x="26" y="8" width="6" height="14" rx="3" fill="#fff" />
      <rect x="18" y="20" width="28" height="38" rx="7" fill="#fff" />
      <rect x="24" y="27" width="16" height="9" rx="2" fill="#1668dc" />
      <circle cx="27" cy="45" r="2.5" fill="#1668dc" />
      <circle cx="37" cy="45" r="2.5" fill="#1668dc" />
      <circle cx="27" cy="52" r="2.5" fill="#1668dc" />
      <circle cx="37" cy="52" r="2.5" fill="#1668dc" />
    </svg>
  );
}
