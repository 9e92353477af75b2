import { act, fireEvent, render, screen } from '@testing-library/react';
import { Component, type ComponentType, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LoadedComponent } from './LoadedComponent';

const LOADING = 'loading';
const SCREENS = 'signed-in screens';
const SECOND_TRY = 'second try';

class Boundary extends Component<{ children: ReactNode }, { failed?: string }> {
  override state: { failed?: string } = {};
  static getDerivedStateFromError(error: Error) {
    return { failed: error.message };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return <button onClick={() => this.setState({ failed: undefined })}>{this.state.failed}</button>;
  }
}

function deferred() {
  let settle: { resolve(value: ComponentType): void; reject(error: Error): void } | undefined;
  const promise = new Promise<ComponentType>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, ...settle! };
}

describe('LoadedComponent', () => {
  it('shows the fallback until the code is here, then the component, loading it once', async () => {
    const code = deferred();
    const load = vi.fn(() => code.promise);
    const { rerender } = render(<LoadedComponent load={load} fallback={<p>{LOADING}</p>} />);
    expect(screen.getByText(LOADING)).toBeTruthy();
    await act(async () => {
      code.resolve(() => <p>{SCREENS}</p>);
      await code.promise;
    });
    expect(screen.getByText(SCREENS)).toBeTruthy();
    rerender(<LoadedComponent load={load} fallback={<p>{LOADING}</p>} />);
    expect(screen.getByText(SCREENS)).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('mounted again after its code loaded, it shows the component at once, without the fallback', async () => {
    const code = deferred();
    const load = vi.fn(() => code.promise);
    const first = render(<LoadedComponent load={load} fallback={<p>{LOADING}</p>} />);
    await act(async () => {
      code.resolve(() => <p>{SCREENS}</p>);
      await code.promise;
    });
    first.unmount();
    render(<LoadedComponent load={load} fallback={<p>{LOADING}</p>} />);
    // The first commit of the new mount already shows the component.
    expect(screen.queryByText(LOADING)).toBeNull();
    expect(screen.getByText(SCREENS)).toBeTruthy();
  });

  it('a failed load reaches the error boundary, and trying again loads again', async () => {
    const first = deferred();
    const load = vi
      .fn<() => Promise<ComponentType>>()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValueOnce(() => <p>{SECOND_TRY}</p>);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <Boundary>
        <LoadedComponent load={load} fallback={<p>{LOADING}</p>} />
      </Boundary>,
    );
    await act(async () => {
      first.reject(new Error('chunk failed'));
      await first.promise.catch(() => undefined);
    });
    fireEvent.click(screen.getByRole('button', { name: 'chunk failed' }));
    expect(await screen.findByText(SECOND_TRY)).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
  });
});
