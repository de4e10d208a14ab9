import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse } from '../../../../src/mocks/http';
import { store } from '../../../../src/mocks/store';
import { scaled } from '../../../../testkit/time-scale';
import { server } from '../../support/server';
import { open, table } from './helpers';

const TOKEN = '1.00000000-0000-4000-8000-000000000000.mock-signature-of-the-media-link';

/** The browser saves a clicked download link; here the click is only noted (it would navigate the test's window). */
function noteDownloads(): string[] {
  const downloads: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.getAttribute('href') ?? '');
  });
  return downloads;
}

/** An audio link is asked for (the player's own video link goes to the mock as ever). */
const asksAudio = (request: Request) => new URL(request.url).searchParams.get('rendition') === 'audio';

/** The player dialog of the library's first recording with media. */
async function player() {
  const rendered = await open('operator');
  const playable = table()
    .getAllByRole<HTMLButtonElement>('button', { name: /^Play recording/ })
    .find((button) => !button.disabled);
  await rendered.user.click(playable as HTMLButtonElement);
  return { ...rendered, dialog: within(await screen.findByRole('dialog')) };
}

describe("a recording's audio for listeners", { timeout: scaled(60_000) }, () => {
  it("saves the recording's audio-only file from its signed audio link", async () => {
    const downloads = noteDownloads();
    const { user, dialog } = await player();
    await user.click(dialog.getByRole('button', { name: 'Download audio' }));
    await vi.waitFor(() => expect(downloads).toHaveLength(1), { timeout: scaled(10_000) });
    expect(downloads[0]).toMatch(
      new RegExp(`^/api/recordings/[^/]+/media\\?rendition=audio&token=${TOKEN.replaceAll('.', '\\.')}&download=1$`),
    );
    expect(store.recordings.some((r) => downloads[0].startsWith(`/api/recordings/${r.id}/`))).toBe(true);
  });

  it('says it is preparing the audio while the server makes it, asking again until it is ready', async () => {
    const downloads = noteDownloads();
    let asked = 0;
    server.use(
      http.post('/api/recordings/:id/media-link', ({ params, request }) => {
        if (!asksAudio(request)) return undefined;
        asked++;
        return HttpResponse.json({
          success: true,
          data: {
            url: `/api/recordings/${String(params.id)}/media?rendition=audio&token=${TOKEN}`,
            expires_at: '2026-01-16T14:00:00.000Z',
            preparing: asked < 2,
          },
        });
      }),
    );
    const { user, dialog } = await player();
    await user.click(dialog.getByRole('button', { name: 'Download audio' }));
    expect(await dialog.findByRole('button', { name: 'Preparing audio…' })).toBeDisabled();
    await vi.waitFor(() => expect(downloads).toHaveLength(1), { timeout: scaled(10_000) });
    expect(asked).toBe(2);
    expect(await dialog.findByRole('button', { name: 'Download audio' })).toBeEnabled();
  });

  it("shows the server's reason when there is no audio to serve", async () => {
    const downloads = noteDownloads();
    server.use(
      http.post('/api/recordings/:id/media-link', ({ request }) =>
        asksAudio(request)
          ? errorResponse(422, 'This recording has no sound track: there is no audio to serve')
          : undefined,
      ),
    );
    const { user, dialog } = await player();
    await user.click(dialog.getByRole('button', { name: 'Download audio' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'This recording has no sound track: there is no audio to serve',
    );
    expect(downloads).toEqual([]);
  });
});
