import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { mediaQueryList } from './mediaQueryList';

// antd answers a click within a render or two, but a busy machine may take seconds for those.
configure({ asyncUtilTimeout: 5000 });

// Each test renders into a fresh document.
afterEach(() => cleanup());

// antd's responsive helpers ask for media queries; the simulated DOM answers "no match".
if (!window.matchMedia) window.matchMedia = (query: string) => mediaQueryList(query, false);
