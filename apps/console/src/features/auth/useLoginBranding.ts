/** Background and logo of the login page. */
export interface LoginBranding {
  /** CSS background of the page. */
  background: string;
  /** URL of an uploaded logo (SubjectLogo, 304x31); undefined shows the built-in mark and title. */
  logoUrl: string | undefined;
}

const DEFAULT_BACKGROUND =
  'radial-gradient(circle at 18% 22%, rgba(64,150,255,0.35) 0, transparent 42%), ' +
  'radial-gradient(circle at 85% 78%, rgba(22,104,220,0.45) 0, transparent 45%), ' +
  'linear-gradient(135deg, #0b1f3a 0%, #10325f 55%, #0b1f3a 100%)';

/**
 * The hook where the theme settings (SubjectBg 592x77, SubjectLogo 304x31, SPEC.md section 3)
 * plug in once the subject page can upload them and a public call serves them; defaults until then.
 */
export function useLoginBranding(): LoginBranding {
  return { background: DEFAULT_BACKGROUND, logoUrl: undefined };
}
