import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadRoute } from '../../../src/app/routes';
import { sessionFor } from '../../../src/mocks/store';
import { loadRoute, renderApp } from '../support/render';
import { server } from '../support/server';

/** The mosque-table reads the mocks answered, by their query string. */
function watchMosquePages(): string[] {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/config/mosques' && url.search) seen.push(url.search);
  });
  return seen;
}

afterEach(() => server.events.removeAllListeners());

describe('a stored session opening /config', () => {
  it("asks for the table's page while the session is checked, and the page shows that answer without asking again", async () => {
    localStorage.setItem('token', sessionFor('admin'));
    const pages = watchMosquePages();
    // The console's modules first: a preload older than PRELOAD_TTL_MS (10 s) is dropped, and on a busy
    // machine loading them after the preload took longer than that.
    await loadRoute('/config');
    void preloadRoute({ pathname: '/config', search: '?sort=name' });
    await expect.poll(() => pages).toHaveLength(1);
    await renderApp('/config?sort=name');
    expect(await screen.findByText('London Central Mosque')).toBeInTheDocument();
    expect(pages).toEqual(['?limit=10&offset=0&sort=name&order=asc']);
  });

  it('with a refused session, its one early read is refused too and the sign-in page shows, asking nothing more', async () => {
    localStorage.setItem('token', 'stale-token');
    const pages = watchMosquePages();
    // The console's modules first, so renderApp renders at once: in the browser the console is there before the check ends.
    await loadRoute('/config');
    void preloadRoute({ pathname: '/config', search: '' });
    await renderApp('/config');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(pages).toEqual(['?limit=10&offset=0']);
    expect(screen.queryByRole('table', { name: 'Mosques' })).not.toBeInTheDocument();
  });
});
