import { act, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ChunkErrorBoundary } from '../../../src/app/ChunkErrorBoundary';
import { noteServerAway, recoverableLazy } from '../../../src/app/recoverable-lazy';
import { Suspense } from 'react';
import { LiveProvider } from '../../../src/live/LiveProvider';
import { FakeWebSocket, fakeSocketFactory } from '../support/fake-websocket';
import { server } from '../support/server';

function Page() {
  return <p>Page loaded</p>;
}

/** A page loader that fails while `down` says so, counting its calls. */
function flakyLoader() {
  const state = { down: true, calls: 0 };
  const load = () => {
    state.calls += 1;
    return state.down
      ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
      : Promise.resolve({ default: Page });
  };
  return { state, load };
}

function serverDown(down: boolean) {
  server.use(http.head('*/', () => (down ? HttpResponse.error() : new HttpResponse(null, { status: 200 }))));
}

function mount(LazyPage: React.ComponentType) {
  return render(
    <ChunkErrorBoundary>
      <Suspense fallback={<p>Loading</p>}>
        <LazyPage />
      </Suspense>
    </ChunkErrorBoundary>,
  );
}

describe('recoverable lazy pages', () => {
  it('retries a failed chunk before giving up', async () => {
    const { state, load } = flakyLoader();
    let failures = 2;
    const LazyPage = recoverableLazy(() => (failures-- > 0 ? load() : ((state.down = false), load())), [1, 1]);
    mount(LazyPage);
    expect(await screen.findByText('Page loaded')).toBeInTheDocument();
    expect(state.calls).toBe(3);
  });

  it('says the server cannot be reached, then loads the page by itself once it answers', async () => {
    serverDown(true);
    const { state, load } = flakyLoader();
    mount(recoverableLazy(load, [1]));
    expect(await screen.findByText('Cannot reach the server')).toBeInTheDocument();
    expect(screen.queryByText('Page loaded')).not.toBeInTheDocument();

    state.down = false;
    serverDown(false);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('Page loaded')).toBeInTheDocument();
  });

  it('loads the page without a reload when the server came back between the last attempt and the check', async () => {
    sessionStorage.clear();
    const { state, load } = flakyLoader();
    // The server's return is seen by the check that follows the last failed attempt.
    server.use(
      http.head('*/', () => {
        state.down = false;
        return new HttpResponse(null, { status: 200 });
      }),
    );
    mount(recoverableLazy(load, [1]));
    expect(await screen.findByText('Page loaded')).toBeInTheDocument();
    expect(sessionStorage.getItem('chunk-reload-at')).toBeNull();
    expect(state.calls).toBe(3);
  });

  it('asks for no chunk while the live feed has lost the server, then loads it once the server answers', async () => {
    // A browser may keep a failed chunk fetch for the life of the page: asked for during the outage, the
    // page would come back only with a reload.
    noteServerAway(true);
    serverDown(true);
    const { state, load } = flakyLoader();
    state.down = false;
    mount(recoverableLazy(load, [1]));
    expect(await screen.findByText('Cannot reach the server')).toBeInTheDocument();
    expect(state.calls).toBe(0);

    serverDown(false);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('Page loaded')).toBeInTheDocument();
    expect(state.calls).toBe(1);
  });

  it('is told by the live feed: a lost feed holds chunk requests, a feed closed on purpose does not', async () => {
    FakeWebSocket.reset();
    localStorage.setItem('token', 'session-token');
    const feed = render(
      <LiveProvider createSocket={fakeSocketFactory} url="ws://console.test/ws">
        <p>feed</p>
      </LiveProvider>,
    );
    act(() => FakeWebSocket.latest().open());
    act(() =>
      FakeWebSocket.latest().receive({
        type: 'initial_data',
        data: { instances: [], recordings: [], system_status: 'operational' },
      }),
    );
    act(() => FakeWebSocket.latest().drop());
    serverDown(true);
    const duringOutage = flakyLoader();
    duringOutage.state.down = false;
    mount(recoverableLazy(duringOutage.load, [1]));
    expect(await screen.findByText('Cannot reach the server')).toBeInTheDocument();
    expect(duringOutage.state.calls).toBe(0);

    // Signed out (the feed closed on purpose): the next page is asked for at once, with no probe first.
    feed.unmount();
    const afterSignOut = flakyLoader();
    afterSignOut.state.down = false;
    mount(recoverableLazy(afterSignOut.load, [1]));
    expect(await screen.findByText('Page loaded')).toBeInTheDocument();
    expect(afterSignOut.state.calls).toBe(1);
  });

  it('reloads once when the server answers but the chunk is gone (new release), then explains', async () => {
    serverDown(false);
    sessionStorage.clear();
    const { load } = flakyLoader();
    mount(recoverableLazy(load, []));
    await expect.poll(() => sessionStorage.getItem('chunk-reload-at')).not.toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // The reload did not help (same release still missing the file): no loop, an explanation instead.
    mount(recoverableLazy(flakyLoader().load, []));
    expect(await screen.findByText('A new version of the console is available')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('renders a preloaded page at once, without its fallback', async () => {
    const LazyPage = recoverableLazy(() => Promise.resolve({ default: Page }));
    await LazyPage.preload();
    mount(LazyPage);
    expect(screen.getByText('Page loaded')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('settles its preload when the chunk fails, and the render still retries it', async () => {
    serverDown(false);
    const { state, load } = flakyLoader();
    const LazyPage = recoverableLazy(load, []);
    await LazyPage.preload();
    state.down = false;
    mount(LazyPage);
    expect(await screen.findByText('Page loaded')).toBeInTheDocument();
  });
});
