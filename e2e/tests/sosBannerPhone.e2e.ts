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
  for (const [language, suffix, otherSuffix] of [
    ['zh', '21', '23'],
    ['en', '22', '24'],
  ] as const) {
    test(`in ${language} at 390 px it is a strip over the map`, async () => {
      const page = await browser.newPage({ locale: language, width: 390, height: 844 });
      await openMapSignedIn(page, adminCredentials(), '/main/map', language);
      const token = await tokenOf(page);
      // Two alarms at least, so the title also says how many are open: the longest it gets.
      await phones.raise(token, 'SOS other', otherSuffix, { lat: 22.55, lon: 114.07 });
      await phones.raise(token, 'SOS strip', suffix, { lat: 22.54, lon: 114.06 });

      const banner = page.getByTestId('map-sos-banner');
      await banner.getByTestId('sos-locate').waitFor();
      // The newest alarm's phone on one line, how many are open in a badge beside it.
      const phone = phones.phoneOf(suffix);
      await expect
        .poll(() => banner.getByTestId('sos-title').innerText())
        .toBe(text(language, 'sos.strip_sos', { phone }));
      // The badge holds the count; hovered (its title), it reads the whole desktop title with the phone.
      expect(await banner.getByTestId('sos-count').locator('sup').getAttribute('title')).toContain(phone);
      expect(await banner.getByTestId('sos-call-state').innerText()).toBe(text(language, 'sos.no_call'));
      // A third of the map before; now about a tenth of the screen, the map beneath stays usable.
      expect((await banner.boundingBox())!.height).toBeLessThan(844 * 0.15);
      await shot(page, `sos-banner-strip-${language}-390`);
    }, 60_000);
  }
});
