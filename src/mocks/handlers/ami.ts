import { HttpResponse } from 'msw';
import type { Ami } from '../../../contract/ami';
import { amiRoutes } from '../../../contract/routes/ami';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { nowIso, store, type MockStore } from '../store';

/** How long a mock image stays pending before it is available, in `npm run dev:mock`. */
export const MOCK_IMAGE_WRITE_MS = 4000;

/* The images belong to the store object, so resetStore() (which replaces it) resets them too. */
const images = new WeakMap<MockStore, Ami[]>();

/** The mock images of the current store (tests push into it). */
export function mockAmis(): Ami[] {
  let list = images.get(store);
  if (!list) {
    list = [];
    images.set(store, list);
  }
  return list;
}

let nextAmi = 1;

export function mockAmi(overrides: Partial<Ami> = {}): Ami {
  const n = nextAmi++;
  return {
    ami_id: `ami-${String(n).padStart(8, '0')}`,
    name: `mosque-recorder-1.0.${n}-20260105-093000`,
    description: 'Recorder image',
    version: `1.0.${n}`,
    state: 'available',
    size_gb: 8,
    created_at: '2026-01-05T09:30:00.000Z',
    is_latest: false,
    tags: {},
    source_instance_id: null,
    ...overrides,
  };
}

function versionKey(version: string): number[] {
  return version
    .split(/[.-]/)
    .slice(0, 3)
    .map((part) => Number.parseInt(part, 10) || 0);
}

function compareVersions(a: string, b: string): number {
  const [x, y] = [versionKey(a), versionKey(b)];
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The latest flag as the server sets it: the available image of the highest version (newest on a tie). */
function withLatest(list: Ami[]): Ami[] {
  const latest = list
    .filter((ami) => ami.state === 'available')
    .sort((a, b) => compareVersions(b.version, a.version) || b.created_at.localeCompare(a.created_at))[0];
  return list.map((ami) => ({ ...ami, is_latest: ami.ami_id === latest?.ami_id }));
}

export const amiHandlers = [
  // The mocks' recorders run on the local provider, as their instances' details say.
  mock(amiRoutes.list, () =>
    HttpResponse.json({ success: true, data: { amis: withLatest(mockAmis()), provider: 'local' as const } }),
  ),

  mock(amiRoutes.create, ({ body }) => {
    const source = store.instances.find((i) => i.id === body.instance_id || i.instance_id === body.instance_id);
    if (!source) return errorResponse(404, `Instance ${body.instance_id} not found`);
    const now = nowIso();
    const stamp = now
      .replace(/[-:]/g, '')
      .replace('T', '-')
      .replace(/\.\d+Z$/, '');
    const ami = mockAmi({
      name: `${body.name}-${stamp}`,
      description: body.description,
      version: body.version,
      state: 'pending',
      size_gb: 0,
      created_at: now,
      tags: body.tags,
      source_instance_id: source.id,
    });
    const owner = store;
    mockAmis().unshift(ami);
    setTimeout(() => {
      if (store === owner) Object.assign(ami, { state: 'available', size_gb: 1.2 });
    }, MOCK_IMAGE_WRITE_MS);
    return HttpResponse.json({
      success: true,
      message: `AMI creation initiated: ${ami.ami_id}`,
      data: { ami_id: ami.ami_id, name: ami.name, state: ami.state },
    });
  }),

  mock(amiRoutes.delete, ({ params }) => {
    const list = mockAmis();
    const index = list.findIndex((ami) => ami.ami_id === params.ami_id);
    if (index < 0) return errorResponse(404, `AMI ${params.ami_id} not found`);
    if (list[index].state === 'pending')
      return errorResponse(409, `AMI ${params.ami_id} is still pending and cannot be deleted yet`);
    list.splice(index, 1);
    return HttpResponse.json({ success: true, message: `AMI ${params.ami_id} deleted successfully` });
  }),
];
