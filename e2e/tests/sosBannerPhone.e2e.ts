import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { openMapSignedIn } from '../support/mapPage.js';
import { useSosPhones } from '../support/sosPhones.js';
import { text } from '../support/texts.js';

// Issue 51: on a phone the red SOS banner took a third of the live map. It is a strip now: its
// title and the call's state on one line each, the actions under them. No talk seat here, so the
// banner says the longest state it has ("no emergency call reached this console").
const browser = useBrowserPerFile({ webgl: true });

const phones = useSosPhones('sosBannerPhone.e2e');

describe('the SOS banner on a phone', () => {
  for (const [language, suffix] of [
    ['zh', '21'],
    ['en', '22'],
  ] as const) {
    test(`in ${language} at 390 px it is a strip over the map`, async () => {
      const page = await browser.newPage({ locale: language, width: 390, height: 844 });
      await openMapSignedIn(page, adminCredentials(), '/main/map', language);
      await phones.raise(await tokenOf(page), 'SOS strip', suffix, { lat: 22.54, lon: 114.06 });

      const banner = page.getByTestId('map-sos-banner');
      await banner.getByTestId('sos-locate').waitFor();
      expect(await banner.getByTestId('sos-call-state').innerText()).toBe(text(language, 'sos.no_call'));
      // A third of the map before; now about a tenth of the screen, the map beneath stays usable.
      expect((await banner.boundingBox())!.height).toBeLessThan(844 * 0.15);
      await shot(page, `sos-banner-strip-${language}-390`);
    }, 60_000);
  }
});
