import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { silencesMock } from '../../../../src/mocks/handlers/alarms';
import { fill } from '../../support/fill';
import { renderApp } from '../../support/render';
import { scaled } from '../../../../testkit/time-scale';

const silencesList = () => screen.getByRole('list', { name: 'Silences in force' });
const form = () => screen.getByRole('form', { name: 'New silence' });

describe('silences on the Alarms page', { timeout: scaled(30_000) }, () => {
  it('silences a mosque for a while with a comment, lists it, and lifts it', async () => {
    const { user } = await renderApp('/alarms', { as: 'operator' });
    expect(await screen.findByText('No silences: every alarm is notified.')).toBeInTheDocument();
    const silence = within(form()).getByRole('button', { name: 'Silence' });
    // Neither a mosque nor a kind, nor a comment: nothing to send yet.
    expect(silence).toBeDisabled();

    await user.click(within(form()).getByRole('combobox', { name: 'Mosque' }));
    // The picker searches the server and names each mosque with its city, if known, and its id.
    await user.click(await screen.findByRole('option', { name: 'East London Mosque (elm7q2w9z3)' }));
    await user.click(within(form()).getByRole('combobox', { name: 'For' }));
    await user.click(await screen.findByRole('option', { name: '4 hours' }));
    await fill(user, within(form()).getByRole('textbox', { name: 'Comment' }), 'Their encoder is being replaced');
    expect(silence).toBeEnabled();
    const before = Date.now();
    await user.click(silence);

    const item = await within(await screen.findByRole('list', { name: 'Silences in force' })).findByRole('listitem', {
      name: 'East London Mosque · every kind of alarm',
    });
    expect(within(item).getByText(/Their encoder is being replaced · set by operator/)).toBeInTheDocument();
    const [stored] = silencesMock();
    expect(stored).toMatchObject({
      mosque_id: 'elm7q2w9z3',
      kind: null,
      comment: 'Their encoder is being replaced',
      created_by: 'operator',
      lifted_at: null,
    });
    const minutes = (Date.parse(stored.ends_at) - before) / 60_000;
    expect(minutes).toBeGreaterThan(239);
    expect(minutes).toBeLessThanOrEqual(240.1);
    expect(
      await screen.findByText(/^Notifications silenced until .*: East London Mosque · every kind of alarm$/),
    ).toBeInTheDocument();

    await user.click(within(item).getByRole('button', { name: 'Lift' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Silences in force' })).not.toBeInTheDocument());
    expect(silencesMock()[0]).toMatchObject({ lifted_by: 'operator' });
    expect(screen.getByText('No silences: every alarm is notified.')).toBeInTheDocument();
  });

  it('silences one kind of alarm everywhere', async () => {
    const { user } = await renderApp('/alarms', { as: 'operator' });
    await screen.findByRole('form', { name: 'New silence' });
    await user.click(within(form()).getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByRole('option', { name: 'No media' }));
    await fill(user, within(form()).getByRole('textbox', { name: 'Comment' }), 'Provider maintenance');
    await user.click(within(form()).getByRole('button', { name: 'Silence' }));
    expect(
      await within(silencesList()).findByRole('listitem', { name: 'Every mosque · No media' }),
    ).toBeInTheDocument();
    expect(silencesMock()[0]).toMatchObject({ mosque_id: null, kind: 'stall' });
    // Two hours unless chosen otherwise.
    expect(Date.parse(silencesMock()[0].ends_at) - Date.parse(silencesMock()[0].starts_at)).toBe(120 * 60_000);
  });
});
