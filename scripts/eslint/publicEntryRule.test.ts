import path from 'node:path';
import { RuleTester } from 'eslint';
import { afterAll, describe, it } from 'vitest';
import { publicEntryRule } from './publicEntryRule.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const repo = '/repo';
const options = [{ roots: ['/repo/apps/server/src/modules', '/repo/apps/console/src/features'] }];
const file = (p: string) => path.join(repo, p);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('public-entry', publicEntryRule as never, {
  valid: [
    // Inside one module, anything goes.
    {
      filename: file('apps/server/src/modules/channel/channelRoutes.ts'),
      code: "import { x } from './channelService.js';",
      options,
    },
    {
      filename: file('apps/server/src/modules/channel/sub/a.ts'),
      code: "import { x } from '../channelService.js';",
      options,
    },
    // Another module through its entry.
    {
      filename: file('apps/server/src/modules/channel/a.ts'),
      code: "import { x } from '../userinfo/index.js';",
      options,
    },
    {
      filename: file('apps/server/src/app.ts'),
      code: "import { channelModule } from './modules/channel/index.js';",
      options,
    },
    {
      filename: file('apps/console/src/app/routeTable.ts'),
      code: "export { mapRoutes } from '../features/map';",
      options,
    },
    // Plumbing outside the areas, and packages.
    {
      filename: file('apps/server/src/modules/channel/a.ts'),
      code: "import { x } from '../../core/serviceContext.js'; import z from 'zod';",
      options,
    },
  ],
  invalid: [
    {
      filename: file('apps/server/src/modules/channel/a.ts'),
      code: "import { x } from '../userinfo/userRepository.js';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: file('apps/server/src/app.ts'),
      code: "export * from './modules/channel/channelRoutes.js';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: file('apps/console/src/features/map/LiveMapPage.tsx'),
      code: "const page = import('../channels/ChannelTree');",
      options,
      errors: [{ messageId: 'internal' }],
    },
  ],
});
