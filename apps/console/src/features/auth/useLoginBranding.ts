import { useState } from 'react';
import { rememberedSubjectImages } from '../settings';

/** Background and logo of the login page. */
export interface LoginBranding {
  /** CSS background of the page. */
  background: string;
  /** URL of an uploaded background (SubjectBg, 592x77): the banner at the top of the card. */
  bannerUrl: string | undefined;
  /** URL of an uploaded logo (SubjectLogo, 304x31); undefined shows the built-in mark. */
  logoUrl: string | undefined;
}

const DEFAULT_BACKGROUND =
  'radial-gradient(circle at 18% 22%, rgba(64,150,255,0.35) 0, transparent 42%), ' +
  'radial-gradient(circle at 85% 78%, rgba(22,104,220,0.45) 0, transparent 45%), ' +
  'linear-gradient(135deg, #0b1f3a 0%, #10325f 55%, #0b1f3a 100%)';

/**
 * The theme settings (SubjectBg, SubjectLogo; SPEC.md section 3) of the enterprise this browser
 * last signed in to: the company is not known before login, so the names come from browser storage.
 */
export function useLoginBranding(): LoginBranding {
  const [remembered] = useState(rememberedSubjectImages);
  return { background: DEFAULT_BACKGROUND, bannerUrl: remembered.bgUrl, logoUrl: remembered.logoUrl };
}
