import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOCK_DEMO_STREAM_URL } from '../../../../src/mocks/handlers/instances';
import { MOCK_UNREACHABLE_STREAM } from '../../../../src/mocks/handlers/stream-tests';
import { dialog, openInstances } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

async function openLaunch() {
  const rendered = await openInstances('No instances found');
  await rendered.user.click(screen.getByRole('button', { name: 'Launch Instance' }));
  await screen.findByRole('dialog', { name: 'Launch Instance' });
  return rendered;
}

const panel = () => within(dialog().getByRole('region', { name: 'Stream test' }));

describe('Test stream in the launch form', { timeout: scaled(30_000) }, () => {
  const { createObjectURL, revokeObjectURL } = URL;
  afterEach(() => Object.assign(URL, { createObjectURL, revokeObjectURL }));

  it('records the demo stream, shows its codecs and plays the clip', async () => {
    const created: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => (created.push(blob), 'blob:stream-test-clip'),
      revokeObjectURL: vi.fn(),
    });
    const { user } = await openLaunch();
    expect(panel().getByRole('button', { name: 'Test stream' })).toBeDisabled();
    await user.click(await dialog().findByRole('button', { name: /Use the test broadcast/ }));
    await user.click(panel().getByRole('button', { name: 'Test stream' }));
    expect(await panel().findByText(/Recording 30 s of the stream/)).toBeInTheDocument();

    const results = within(await panel().findByLabelText('Stream test results'));
    expect(results.getByText('h264, 1280×720, 25 fps')).toBeInTheDocument();
    expect(results.getByText('aac, 48 kHz, stereo')).toBeInTheDocument();
    expect(results.getByText(/^30 s, 4\.8 MB \(clip kept until/)).toBeInTheDocument();

    await user.click(panel().getByRole('button', { name: 'Play clip' }));
    expect(await panel().findByLabelText('Stream test clip')).toHaveAttribute('src', 'blob:stream-test-clip');
    expect(created[0].type).toBe('video/mp4');
    // Testing launched nothing.
    expect(screen.getByRole('dialog', { name: 'Launch Instance' })).toBeInTheDocument();
    expect(dialog().getByRole('textbox', { name: /Stream URL/ })).toHaveValue(MOCK_DEMO_STREAM_URL);
  });

  it('says why a stream could not be tested', async () => {
    const { user } = await openLaunch();
    await user.click(dialog().getByRole('textbox', { name: /Stream URL/ }));
    await user.paste(MOCK_UNREACHABLE_STREAM);
    await user.click(panel().getByRole('button', { name: 'Test stream' }));
    expect(await panel().findByRole('alert')).toHaveTextContent(
      `Nothing could be recorded from ${MOCK_UNREACHABLE_STREAM}: Connection refused`,
    );
    expect(panel().queryByRole('button', { name: 'Play clip' })).not.toBeInTheDocument();
  });
});
