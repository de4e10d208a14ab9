import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMockInstances, mockInstance, mockRecording } from '../../../../src/mocks/handlers/instances';
import { mockRecordingJob, schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { store } from '../../../../src/mocks/store';
import { scaled } from '../../../../testkit/time-scale';
import { open, table } from './helpers';

describe('Recordings page', { timeout: scaled(60_000) }, () => {
  it('lists recordings by Friday with mosque names and outcomes, ten to a page', async () => {
    const { user } = await open();
    expect(table().getAllByRole('row')).toHaveLength(11); // header + 10
    expect(table().getByText('2026-01-16')).toBeInTheDocument();
    expect(table().getByText('Failed')).toBeInTheDocument();
    expect(table().getAllByText('London Central Mosque').length).toBe(8);
    expect(screen.getByText('1–10 of 14')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('11–14 of 14');
    expect(table().getByText('2026-01-02')).toBeInTheDocument();
  });

  it('files a one-off capture under its own day and a Friday recording under its Friday, saying which', async () => {
    const friday = addMockInstances(
      mockInstance({ mosque_id: 'elm7q2w9z3', state: 'terminated', launch_time: '2026-01-23T11:40:00.000Z' }),
    )[0];
    store.recordings.push(mockRecording(friday, { started_at: friday.launch_time }));
    schedulerMock().jobs.push({
      ...mockRecordingJob({
        mosque_id: 'elm7q2w9z3',
        mosque_name: 'East London Mosque',
        recording_start: friday.launch_time,
        timezone: 'Europe/London',
      }),
      status: 'captured',
      instance_id: friday.id,
    });
    const sunday = addMockInstances(
      mockInstance({ mosque_id: 'lcm4r8k2p1', state: 'terminated', launch_time: '2026-01-25T09:00:00.000Z' }),
    )[0];
    store.recordings.push(mockRecording(sunday, { started_at: sunday.launch_time }));
    await open();
    const dayOf = (date: string) => within(table().getByText(date).closest('td') as HTMLElement);
    expect(dayOf('2026-01-25').getByText('one-off')).toBeInTheDocument();
    expect(dayOf('2026-01-23').getByText('Friday')).toBeInTheDocument();
  });

  it('shows how much of the window the media covers, with the gaps where they fell', async () => {
    await open();
    const bar = table().getByLabelText(/^91\.6% covered \(1 h 50 min of 2 h 0 min\); 1 gap/);
    expect(within(bar).getByText('91%')).toBeInTheDocument();
    const gap = within(bar).getByTestId('coverage-gap');
    expect(gap).toHaveStyle({ left: '0%' });
  });

  it('filters by outcome on the server and never offers an empty capture to play', async () => {
    const { user } = await open();
    await user.click(screen.getByRole('combobox', { name: 'Outcome' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(table().getAllByRole('row')).toHaveLength(2));
    expect(table().getByRole('button', { name: 'Play recording of Al-Azhar Mosque' })).toBeDisabled();
    expect(table().getByRole('button', { name: 'Download recording of Al-Azhar Mosque' })).toBeDisabled();
  });

  it('plays a recording from a signed link', async () => {
    const { user } = await open();
    const play = table().getAllByRole('button', { name: 'Play recording of London Central Mosque' })[0];
    await user.click(play);
    const dialog = await screen.findByRole('dialog', { name: /London Central Mosque — 2026-01-13/ });
    const video = await within(dialog).findByTestId('recording-player');
    expect(video.getAttribute('src')).toMatch(/^\/api\/recordings\/rec-[a-z0-9]+\/media\?token=/);
  });

  it('shows the store of each recording and plays one from the bucket through its pre-signed redirect', async () => {
    const { user } = await open();
    const row = (name: string) => within(table().getByText(name).closest('tr') as HTMLElement);
    expect(row('East London Mosque').getByText('S3')).toBeInTheDocument();
    expect(row('Al-Azhar Mosque').getByText('Local')).toBeInTheDocument();
    await user.click(table().getByRole('button', { name: 'Play recording of East London Mosque' }));
    const video = await within(await screen.findByRole('dialog', { name: /East London Mosque/ })).findByTestId(
      'recording-player',
    );
    const media = await fetch(new URL(video.getAttribute('src') ?? '', window.location.href));
    expect(media.redirected).toBe(true);
    expect(media.url).toMatch(/\/mock-bucket\/rec-[a-z0-9]+\/recording\.mp4\?X-Amz-Expires=300/);
    expect(media.headers.get('content-type')).toBe('video/mp4');
  });

  it('deletes after confirmation, for a superuser only', async () => {
    const { user } = await open();
    const before = store.recordings.length;
    await user.click(table().getByRole('button', { name: 'Delete recording of Al-Azhar Mosque' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete recording?' });
    expect(within(confirm).getByText(/Al-Azhar Mosque on 2026-01-16 \(0 B\)/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Recording deleted');
    expect(store.recordings.length).toBe(before - 1);
    await waitFor(() => expect(screen.queryByText('Al-Azhar Mosque')).not.toBeInTheDocument());
  });

  it('shows no delete action to an operator who is not a superuser', async () => {
    await open('operator');
    expect(table().queryByRole('button', { name: /^Delete recording/ })).not.toBeInTheDocument();
    expect(table().getAllByRole('button', { name: /^Play recording/ }).length).toBeGreaterThan(0);
  });

  it('shows where recordings are stored and the free space', async () => {
    await open();
    const card = within(await screen.findByLabelText('Recording storage'));
    expect(await card.findByText('412 GB free on this disk')).toBeInTheDocument();
    expect(card.getByText('Kept until deleted')).toBeInTheDocument();
    // The figure is the server's last measurement, not a live one: the card says when it was taken.
    expect(card.getByText(/^Measured [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/)).toBeInTheDocument();
  });

  it('measures the storage again when asked, without waiting for the next poll', async () => {
    await open();
    const card = within(await screen.findByLabelText('Recording storage'));
    const used = (await card.findByText(/ used$/)).textContent;
    const landed = addMockInstances(mockInstance({ mosque_id: 'lcm4r8k2p1', state: 'terminated' }))[0];
    store.recordings.push(mockRecording(landed, { bytes: 5_000_000_000 }));
    await userEvent.click(card.getByRole('button', { name: 'Measure recording storage now' }));
    await waitFor(() => expect(card.getByText(/ used$/).textContent).not.toBe(used));
    expect(card.getByText(/ used$/)).toHaveTextContent(/^5\.\d+ GB used$/);
  });
});
