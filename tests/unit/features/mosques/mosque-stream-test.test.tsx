import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockMosques, setMockMosques } from '../../../../src/mocks/handlers/config';
import { EAST_LONDON, LONDON, openConfig, row } from './helpers';
import { captureBodies, server } from '../../support/server';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => server.events.removeAllListeners());

const testDialog = () => within(screen.getByRole('dialog', { name: /^Test stream: / }));

describe("Test stream on a mosque's row", { timeout: scaled(30_000) }, () => {
  it("records the mosque's own stream (by its id: the server resolves it) and shows what it opened and found", async () => {
    const bodies = captureBodies('POST', '/api/instances/stream-test');
    const { user } = await openConfig();
    await user.click(row(EAST_LONDON).getByRole('button', { name: `Test stream of mosque ${EAST_LONDON}` }));
    expect(testDialog().getByText(/Nothing is scheduled or launched/)).toBeInTheDocument();
    await user.click(testDialog().getByRole('button', { name: 'Test stream' }));

    const results = within(await testDialog().findByLabelText('Stream test results'));
    // East London's ID_token is a channel id: the stream is the template's page for it.
    expect(results.getByText('https://www.youtube.com/channel/UCeastlondonmosque/live')).toBeInTheDocument();
    expect(results.getByText('h264, 1280×720, 25 fps')).toBeInTheDocument();
    expect(bodies).toEqual([{ mosque_id: EAST_LONDON }]);

    await user.click(testDialog().getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is not offered for a mosque without a stream identifier', async () => {
    setMockMosques(
      mockMosques().map((mosque) => (mosque.mosque_id === LONDON ? { ...mosque, ID_token: null } : mosque)),
    );
    await openConfig();
    expect(row(LONDON).getByRole('button', { name: `Test stream of mosque ${LONDON}` })).toBeDisabled();
    expect(row(EAST_LONDON).getByRole('button', { name: `Test stream of mosque ${EAST_LONDON}` })).toBeEnabled();
  });
});
