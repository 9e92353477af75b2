import { imageUrl, STORED_IMAGE_NAME } from '@intercom/contract';
import { useEffect } from 'react';
import { useSession } from '../../shared/session/SessionContext';
import { readPreference, writePreference } from '../../shared/storage/localPreference';

/**
 * The login page shows the subject images before anyone has signed in, so it cannot read the
 * enterprise's settings: the console keeps the names it last read from SysConfig (docs/api.md,
 * "Subject images") and the public image call serves them.
 */
const STORAGE_KEYS = { bg: 'subjectBg', logo: 'subjectLogo' } as const;

/** The public URL of a stored image name; undefined for an empty or malformed name. */
export function subjectImageUrl(name: string | null | undefined): string | undefined {
  return name && STORED_IMAGE_NAME.test(name) ? imageUrl(name) : undefined;
}

/** Keeps the names the signed-in console read, for the next visit of the login page. */
export function rememberSubjectImages(config: { SubjectBg?: string | undefined; SubjectLogo?: string | undefined }) {
  if (config.SubjectBg !== undefined) writePreference(STORAGE_KEYS.bg, config.SubjectBg);
  if (config.SubjectLogo !== undefined) writePreference(STORAGE_KEYS.logo, config.SubjectLogo);
}

/** URLs of the images remembered from the last signed-in visit (undefined: the built-in look). */
export function rememberedSubjectImages(): { bgUrl: string | undefined; logoUrl: string | undefined } {
  return {
    bgUrl: subjectImageUrl(readPreference(STORAGE_KEYS.bg)),
    logoUrl: subjectImageUrl(readPreference(STORAGE_KEYS.logo)),
  };
}

/** Keeps the signed-in enterprise's subject image names up to date in browser storage. */
export function useRememberSubjectImages(): void {
  const { sysConfig } = useSession();
  const SubjectBg = sysConfig?.SubjectBg;
  const SubjectLogo = sysConfig?.SubjectLogo;
  useEffect(() => rememberSubjectImages({ SubjectBg, SubjectLogo }), [SubjectBg, SubjectLogo]);
}
