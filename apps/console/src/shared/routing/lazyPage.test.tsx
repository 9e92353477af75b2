import { act, render, screen } from '@testing-library/react';
import { Component, Suspense, useEffect, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazyPage';

const CONTENT = 'page content';
const FALLBACK = 'fallback';
const SECOND_TRY = 'second try';

/** A page module that counts its mounts, loaded when `release` is called. */
function deferredModule() {
  const mounts = vi.fn();
  function Page() {
    useEffect(() => mounts(), []);
    return <p>{CONTENT}</p>;
  }
  let release: () => void = () => undefined;
  const loaded = new Promise<{ default: typeof Page }>((resolve) => {
    release = () => resolve({ default: Page });
  });
  const load = vi.fn(() => loaded);
  return { load, mounts, loaded, release: () => release() };
}

class Boundary extends Component<{ children: ReactNode }, { error?: string }> {
  override state: { error?: string } = {};
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  override render() {
    return this.state.error ? <p>{this.state.error}</p> : this.props.children;
  }
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <Boundary>
      <Suspense fallback={<p>{FALLBACK}</p>}>{children}</Suspense>
    </Boundary>
  );
}

describe('lazyPage', () => {
  it('a preloaded page renders at once, without its fallback', async () => {
    const module = deferredModule();
    const Page = lazyPage(module.load);
    const preloaded = Page.preload();
    module.release();
    await preloaded;
    render(
      <Shell>
        <Page />
      </Shell>,
    );
    expect(screen.getByText(CONTENT)).toBeTruthy();
    expect(screen.queryByText(FALLBACK)).toBeNull();
    expect(module.load).toHaveBeenCalledTimes(1);
  });

  it('a page not loaded yet suspends, then shows once, and stays mounted when its parent renders again', async () => {
    const module = deferredModule();
    const Page = lazyPage(module.load);
    const tree = (
      <Shell>
        <Page />
      </Shell>
    );
    const { rerender } = render(tree);
    expect(screen.getByText(FALLBACK)).toBeTruthy();
    await act(async () => {
      module.release();
      await module.loaded;
    });
    expect(await screen.findByText(CONTENT)).toBeTruthy();
    rerender(tree);
    expect(screen.getByText(CONTENT)).toBeTruthy();
    expect(module.mounts).toHaveBeenCalledTimes(1);
    // Preloading what is already here loads nothing again.
    await Page.preload();
    expect(module.load).toHaveBeenCalledTimes(1);
  });

  it('a preload that failed is tried again by the next one', async () => {
    const load = vi
      .fn<() => Promise<{ default: () => ReactNode }>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValueOnce({ default: () => <p>{SECOND_TRY}</p> });
    const Page = lazyPage(load);
    await expect(Page.preload()).rejects.toThrow('chunk failed');
    await Page.preload();
    render(
      <Shell>
        <Page />
      </Shell>,
    );
    expect(screen.getByText(SECOND_TRY)).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
