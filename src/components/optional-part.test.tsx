import { render, screen } from '@testing-library/react';
import { Component, lazy, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { loadingChunk, OptionalPart } from './optional-part.tsx';

class Outer extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>The route failed</p> : this.props.children;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('OptionalPart', () => {
  it('shows a lazy part once its chunk is loaded', async () => {
    const Part = lazy(loadingChunk(async () => ({ default: () => <p>Drop zone</p> })));
    render(
      <OptionalPart>
        <Part />
      </OptionalPart>,
    );
    expect(await screen.findByText('Drop zone')).toBeInTheDocument();
  });

  it('leaves out a part whose chunk cannot be loaded, and the page goes on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail: (error: Error) => void = () => {};
    const Part = lazy(
      loadingChunk(
        () =>
          new Promise<{ default: () => ReactNode }>((_, reject) => {
            fail = reject;
          }),
      ),
    );
    render(
      <Outer>
        <p>The page</p>
        <OptionalPart>
          <Part />
        </OptionalPart>
      </Outer>,
    );
    fail(new TypeError('Failed to fetch dynamically imported module'));
    await vi.waitFor(() => expect(console.error).toHaveBeenCalled());
    expect(screen.getByText('The page')).toBeInTheDocument();
    expect(screen.queryByText('The route failed')).toBeNull();
  });

  it('passes any other error on to the boundary above', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): ReactNode {
      throw new Error('a bug');
    }
    render(
      <Outer>
        <OptionalPart>
          <Broken />
        </OptionalPart>
      </Outer>,
    );
    expect(screen.getByText('The route failed')).toBeInTheDocument();
  });
});
