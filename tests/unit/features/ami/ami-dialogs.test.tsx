import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AmiCreateRequest } from '../../../../contract/ami';
import { mockAmis } from '../../../../src/mocks/handlers/ami';
import { addMockInstances, mockInstance } from '../../../../src/mocks/handlers/instances';
import { fill } from '../../support/fill';
import { server } from '../../support/server';
import { dialog, openAmi, row, seedAmis } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

const field = (label: string | RegExp) => dialog().getByLabelText(label, { selector: 'input, textarea' });
const createButton = () => dialog().getByRole('button', { name: 'Create AMI' });

function seedInstance() {
  return addMockInstances(
    mockInstance({ id: 'cap-img001', instance_id: 'local-img001', name: 'capture-adhoc-img001', state: 'terminated' }),
  )[0];
}

async function openCreate(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Create AMI' }));
  return within(await screen.findByRole('dialog', { name: 'Create New AMI' }));
}

async function chooseInstance(user: UserEvent, name: RegExp) {
  await user.click(dialog().getByRole('combobox', { name: /Instance/ }));
  await user.click(await screen.findByRole('option', { name }));
}

const fillVersion = (user: UserEvent, version: string) => fill(user, field(/Version/), version);

function recordListCalls() {
  const calls: number[] = [];
  server.use(
    http.get('/api/ami/list', () => {
      calls.push(Date.now());
      return undefined;
    }),
  );
  return calls;
}

describe('Create New AMI', { timeout: scaled(30_000) }, () => {
  afterEach(() => vi.useRealTimers());

  it('starts with the base name and default description, hints and the reboot warning', async () => {
    seedInstance();
    const { user } = await openAmi('No AMIs found. Create your first AMI to get started.');
    const form = await openCreate(user);
    expect(field(/AMI Name/)).toHaveValue('mosque-recorder');
    expect(field(/Description/)).toHaveValue('Recorder image for Friday sermon captures');
    expect(field(/Version/)).toHaveValue('');
    expect(form.getByText('Semantic version, like 1.0.0')).toBeInTheDocument();
    expect(form.getByText('A timestamp is added to the name automatically')).toBeInTheDocument();
    expect(form.getByText(/The instance is rebooted/)).toBeInTheDocument();
  });

  it('keeps Create disabled until instance, name and version are filled; the description is optional', async () => {
    seedInstance();
    const { user } = await openAmi('No AMIs found. Create your first AMI to get started.');
    await openCreate(user);
    expect(createButton()).toBeDisabled();
    await chooseInstance(user, /capture-adhoc-img001/);
    expect(createButton()).toBeDisabled();
    await fillVersion(user, '1.0.0');
    expect(createButton()).toBeEnabled();
    await user.clear(field(/AMI Name/));
    expect(createButton()).toBeDisabled();
    await user.type(field(/AMI Name/), 'rec');
    expect(createButton()).toBeEnabled();
    await user.clear(field(/Description/));
    expect(field(/Description/)).not.toBeRequired();
    expect(createButton()).toBeEnabled();
    await user.clear(field(/Version/));
    expect(createButton()).toBeDisabled();
  });

  it('sends the form, announces "AMI creation initiated: {id}" and reads the list again 2 s later', async () => {
    // The clock is fake (and moves on with real time), so the gap between the answer and the next read is exact.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    seedInstance();
    const bodies: AmiCreateRequest[] = [];
    let answeredAt = 0;
    server.use(
      http.post('/api/ami/create', async ({ request }) => {
        bodies.push((await request.clone().json()) as AmiCreateRequest);
        answeredAt = Date.now();
        return undefined;
      }),
    );
    const calls = recordListCalls();
    const { user } = await openAmi('No AMIs found. Create your first AMI to get started.', {
      userOptions: { advanceTimers: vi.advanceTimersByTime },
    });
    await openCreate(user);
    await chooseInstance(user, /capture-adhoc-img001/);
    await fillVersion(user, '2.0.0');
    await user.click(createButton());
    expect(await screen.findByText(/^AMI creation initiated: ami-/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      {
        instance_id: 'cap-img001',
        name: 'mosque-recorder',
        description: 'Recorder image for Friday sermon captures',
        version: '2.0.0',
        tags: {},
      },
    ]);
    const id = mockAmis()[0].ami_id;
    expect(screen.getByText(`AMI creation initiated: ${id}`)).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(2100));
    expect(await screen.findByText(id)).toBeInTheDocument();
    expect(row(id).getByText('pending')).toBeInTheDocument();
    const after = calls.filter((at) => at >= answeredAt);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after[0] - answeredAt).toBeGreaterThanOrEqual(2000);
    expect(after[0] - answeredAt).toBeLessThan(3500);
  });

  it('reads "Failed to create AMI" when the server refuses, with its reason in the dialog', async () => {
    seedInstance();
    server.use(
      http.post('/api/ami/create', () =>
        HttpResponse.json(
          {
            success: false,
            detail: 'Instance cap-img001 is still launching',
            error: 'Instance cap-img001 is still launching',
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = await openAmi('No AMIs found. Create your first AMI to get started.');
    await openCreate(user);
    await chooseInstance(user, /capture-adhoc-img001/);
    await fillVersion(user, '1.0.0');
    await user.click(createButton());
    expect(await screen.findByText('Failed to create AMI')).toBeInTheDocument();
    expect(dialog().getByText('Instance cap-img001 is still launching')).toBeInTheDocument();
  });

  it('reads "Error creating AMI" when the server cannot be reached', async () => {
    seedInstance();
    server.use(http.post('/api/ami/create', () => HttpResponse.error()));
    const { user } = await openAmi('No AMIs found. Create your first AMI to get started.');
    await openCreate(user);
    await chooseInstance(user, /capture-adhoc-img001/);
    await fillVersion(user, '1.0.0');
    await user.click(createButton());
    expect(await screen.findByText('Error creating AMI')).toBeInTheDocument();
  });
});

describe('Delete AMI', { timeout: scaled(30_000) }, () => {
  it('warns that it cannot be undone and that the snapshots go too, then deletes', async () => {
    seedAmis();
    const { user } = await openAmi();
    await user.click(row('ami-00000aaa').getByRole('button', { name: 'Delete ami-00000aaa' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete AMI' }));
    expect(
      confirm.getByText('This action cannot be undone. The AMI and its snapshots will be deleted.'),
    ).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('AMI ami-00000aaa deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'ami-00000aaa' })).not.toBeInTheDocument());
    expect(mockAmis().map((ami) => ami.ami_id)).toEqual(['ami-00000bbb', 'ami-00000ccc']);
  });

  it('reads "Failed to delete AMI" when the server refuses', async () => {
    seedAmis();
    server.use(
      http.delete('/api/ami/:amiId', () =>
        HttpResponse.json({ success: false, detail: 'Snapshot in use', error: 'Snapshot in use' }, { status: 502 }),
      ),
    );
    const { user } = await openAmi();
    await user.click(row('ami-00000ccc').getByRole('button', { name: 'Delete ami-00000ccc' }));
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete AMI')).toBeInTheDocument();
    expect(dialog().getByText('Snapshot in use')).toBeInTheDocument();
  });

  it('reads "Error deleting AMI" when the server cannot be reached', async () => {
    seedAmis();
    server.use(http.delete('/api/ami/:amiId', () => HttpResponse.error()));
    const { user } = await openAmi();
    await user.click(row('ami-00000aaa').getByRole('button', { name: 'Delete ami-00000aaa' }));
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Error deleting AMI')).toBeInTheDocument();
  });
});
